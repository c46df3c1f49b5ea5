"""The members' monthly sums behind a group's table (``group_standings``; docs/rules.md,
"Groups"): added to once per recorded game, inside its recording's transaction."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.groups.models import GroupResult, GroupStanding


def month_of(moment: datetime) -> date:
    """The first day of ``moment``'s month in UTC (a naive ``moment`` is taken as UTC)."""
    moment = as_utc(moment)
    return date(moment.year, moment.month, 1)


def _empty(result: GroupResult) -> GroupStanding:
    return GroupStanding(group_id=result.group_id, kind=result.kind,
                         month=month_of(result.finished_at), player_id=result.player_id,
                         games=0, wins=0, rank_sum=0, score_sum=0, best=0, feats=0,
                         accuracy_sum=0, accuracy_games=0)


async def _rows(session: AsyncSession, results: list[GroupResult]) -> list[GroupStanding]:
    """The standing rows of ``results`` (one game: same group, kind and month), read in one
    statement for update, in the order of ``results`` (new empty rows added where missing)."""
    if not results:
        return []
    first = results[0]
    stored = {row.player_id: row for row in (await session.execute(
        select(GroupStanding).where(
            GroupStanding.group_id == first.group_id, GroupStanding.kind == first.kind,
            GroupStanding.month == month_of(first.finished_at),
            GroupStanding.player_id.in_([r.player_id for r in results]))
        .with_for_update())).scalars()}
    rows = []
    for result in results:
        row = stored.get(result.player_id)
        if row is None:
            row = _empty(result)
            session.add(row)
        rows.append(row)
    return rows


async def add_results(session: AsyncSession, results: list[GroupResult]) -> None:
    """Count the members' ``results`` of one game in their monthly sums."""
    for row, result in zip(await _rows(session, results), results, strict=True):
        row.best = max(row.best, result.score) if row.games else result.score
        row.games += 1
        row.wins += 1 if result.won else 0
        row.rank_sum += result.rank
        row.score_sum += result.score
        row.feats += result.feats


async def add_accuracies(session: AsyncSession, results: list[GroupResult]) -> None:
    """Count the accuracy (0..100, set) of the members' ``results`` of one game."""
    for row, result in zip(await _rows(session, results), results, strict=True):
        assert result.accuracy is not None
        row.accuracy_sum += result.accuracy
        row.accuracy_games += 1
