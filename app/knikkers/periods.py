"""Leaderboard boards and periods (UTC): all time, this month, this week (Monday), today, and
the daily game's board.

A *board key* names one ranking inside a variant: ``all``, ``month:2026-11-01``,
``week:2026-11-23`` (the Monday), ``day:2026-11-29`` or ``daily:2026-11-29`` (the daily seed's
date). A finished game counts on the board keys of the moment it finished (plus its daily board).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from app.clock import as_utc

PERIODS: tuple[str, ...] = ("all", "month", "week", "today")


def period_start(period: str, now: datetime) -> date | None:
    """The first day (UTC) of ``period`` containing ``now``; None for ``all``.

    Raises ValueError for a period not in ``PERIODS``.
    """
    day = as_utc(now).date()
    if period == "all":
        return None
    if period == "month":
        return day.replace(day=1)
    if period == "week":
        return day - timedelta(days=day.weekday())
    if period == "today":
        return day
    raise ValueError(f"unknown period {period!r}")


def period_board(period: str, now: datetime) -> str:
    """The board key of ``period`` (one of ``PERIODS``) at the moment ``now``."""
    start = period_start(period, now)
    if start is None:
        return "all"
    prefix = {"month": "month", "week": "week", "today": "day"}[period]
    return f"{prefix}:{start.isoformat()}"


def period_range(period: str, now: datetime) -> tuple[datetime, datetime] | None:
    """``(start, end)`` as aware UTC datetimes of ``period`` containing ``now``; None for all."""
    start = period_start(period, now)
    if start is None:
        return None
    if period == "month":
        end = (start.replace(day=28) + timedelta(days=4)).replace(day=1)
    elif period == "week":
        end = start + timedelta(days=7)
    else:
        end = start + timedelta(days=1)
    return (datetime.combine(start, time(), UTC), datetime.combine(end, time(), UTC))


def daily_board(day: date) -> str:
    """The board key of the daily game of ``day``."""
    return f"daily:{day.isoformat()}"


def board_keys(finished_at: datetime, daily: date | None) -> list[str]:
    """Every board a game finished at ``finished_at`` counts on (its daily board last, if any)."""
    keys = [period_board(period, finished_at) for period in PERIODS]
    if daily is not None:
        keys.append(daily_board(daily))
    return keys
