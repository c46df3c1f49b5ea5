"""A group's standing table for one season and game kind, read from ``group_results``
(docs/rules.md, "Groups"): one aggregate query over the index
``ix_group_results_table``.

Only members count (``member``: people who belonged when the game was recorded; bots never),
with the name they have in the group (kept when they leave).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.groups.models import GroupMember, GroupResult
from app.groups.seasons import Season

SORTS = ("wins", "games", "rank", "score", "best", "kniffels", "accuracy", "rating")


@dataclass
class Row:
    """One member's line: ``games``, ``wins`` (shared wins count), ``rank`` (average),
    ``score`` (average), ``best``, ``kniffels`` thrown, ``accuracy`` (average over analysed
    games; None without any); ``rating``: the group rating shown (``mu - 3 sigma``) and
    whether it is ``provisional``, filled in by the caller."""

    player_id: str
    name: str
    games: int
    wins: int
    rank: float
    score: float
    best: int
    kniffels: int
    accuracy: float | None
    rating: float | None = None
    provisional: bool = True


def in_season(query, season: Season):
    """``query`` narrowed to results finished inside ``season``."""
    if season.start is not None:
        query = query.where(GroupResult.finished_at >= season.start)
    if season.end is not None:
        query = query.where(GroupResult.finished_at < season.end)
    return query


async def table(session: AsyncSession, group_id: int, kind: str, season: Season) -> list[Row]:
    """The members' rows of group ``group_id`` in ``kind`` and ``season``, most wins first
    (then fewer games, better average rank, name)."""
    query = in_season(
        select(GroupResult.player_id, func.count(),
               func.sum(case((GroupResult.won, 1), else_=0)),
               func.avg(GroupResult.rank), func.avg(GroupResult.score),
               func.max(GroupResult.score), func.sum(GroupResult.kniffels),
               func.avg(GroupResult.accuracy))
        .where(GroupResult.group_id == group_id, GroupResult.kind == kind,
               GroupResult.member.is_(True))
        .group_by(GroupResult.player_id), season)
    found: list[Any] = list((await session.execute(query)).all())
    names: dict[str, str] = {p: n for p, n in (await session.execute(
        select(GroupMember.player_id, GroupMember.name)
        .where(GroupMember.group_id == group_id)))}
    rows = [Row(player, names.get(player, "?"), int(games), int(wins), float(rank),
                float(score), int(best), int(thrown),
                float(acc) if acc is not None else None)
            for player, games, wins, rank, score, best, thrown, acc in found]
    return sort_rows(rows, "wins")


def sort_rows(rows: list[Row], by: str) -> list[Row]:
    """``rows`` ordered by the column ``by`` (one of ``SORTS``; best first; ties: more wins,
    fewer games, better average rank, name)."""
    def key(row: Row) -> tuple:
        tie = (-row.wins, row.games, row.rank, row.name.casefold(), row.player_id)
        value = {
            "wins": -row.wins, "games": -row.games, "rank": row.rank, "score": -row.score,
            "best": -row.best, "kniffels": -row.kniffels,
            "accuracy": -(row.accuracy if row.accuracy is not None else -1.0),
            "rating": -(row.rating if row.rating is not None else -1e9),
        }[by if by in SORTS else "wins"]
        return (value, *tie)

    return sorted(rows, key=key)


__all__ = ["SORTS", "Row", "in_season", "sort_rows", "table"]
