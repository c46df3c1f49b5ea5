"""A group's standing table for one season and game kind (docs/rules.md, "Groups"): the
members' monthly sums (``group_standings``), one row per member and month.

Only members count (``member``: people who belonged when the game was recorded; bots never),
with the name they have in the group (kept when they leave).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.groups.models import GroupMember, GroupResult, GroupStanding
from app.groups.seasons import Season

SORTS = ("wins", "games", "rank", "score", "best", "feats", "accuracy", "rating")


@dataclass
class Row:
    """One member's line: ``games``, ``wins`` (shared wins count), ``rank`` (average),
    ``score`` (average), ``best``, ``feats`` (what the game counts beyond points, e.g.
    Kniffels thrown: ``GameRecords``), ``accuracy`` (average over analysed games; None
    without any); ``rating``: the group rating shown (``mu - 3 sigma``) and
    whether it is ``provisional``, filled in by the caller."""

    player_id: str
    name: str
    games: int
    wins: int
    rank: float
    score: float
    best: int
    feats: int
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


async def table(session: AsyncSession, group_id: int, kind: str, season: Season,
                names: dict[str, str] | None = None) -> list[Row]:
    """The members' rows of group ``group_id`` in ``kind`` and ``season``, most wins first
    (then fewer games, better average rank, name): sums of their monthly standings.
    ``names``: player id -> name in the group, every member ever (read when None)."""
    query = (select(GroupStanding.player_id, func.sum(GroupStanding.games),
                    func.sum(GroupStanding.wins), func.sum(GroupStanding.rank_sum),
                    func.sum(GroupStanding.score_sum), func.max(GroupStanding.best),
                    func.sum(GroupStanding.feats), func.sum(GroupStanding.accuracy_sum),
                    func.sum(GroupStanding.accuracy_games))
             .where(GroupStanding.group_id == group_id, GroupStanding.kind == kind)
             .group_by(GroupStanding.player_id))
    if season.start is not None:
        query = query.where(GroupStanding.month == season.start.date())
    found: list[Any] = list((await session.execute(query)).all())
    if names is None:
        names = {p: n for p, n in (await session.execute(
            select(GroupMember.player_id, GroupMember.name)
            .where(GroupMember.group_id == group_id)))}
    # Postgres sums a BIGINT to NUMERIC: every sum is made an int before dividing
    rows = [Row(player, names.get(player, "?"), int(games), int(wins),
                int(rank_sum) / int(games), int(score_sum) / int(games), int(best), int(thrown),
                int(acc_sum) / int(acc_games) if acc_games else None)
            for player, games, wins, rank_sum, score_sum, best, thrown, acc_sum, acc_games
            in found if games]
    return sort_rows(rows, "wins")


def sort_rows(rows: list[Row], by: str) -> list[Row]:
    """``rows`` ordered by the column ``by`` (one of ``SORTS``; best first; ties: more wins,
    fewer games, better average rank, name)."""
    def key(row: Row) -> tuple:
        tie = (-row.wins, row.games, row.rank, row.name.casefold(), row.player_id)
        value = {
            "wins": -row.wins, "games": -row.games, "rank": row.rank, "score": -row.score,
            "best": -row.best, "feats": -row.feats,
            "accuracy": -(row.accuracy if row.accuracy is not None else -1.0),
            "rating": -(row.rating if row.rating is not None else -1e9),
        }[by if by in SORTS else "wins"]
        return (value, *tie)

    return sorted(rows, key=key)


__all__ = ["SORTS", "Row", "in_season", "sort_rows", "table"]
