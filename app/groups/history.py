"""A group's head-to-head, records, game list and season chart, read from ``group_results``
(docs/rules.md, "Groups")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.clock import as_utc
from app.groups.models import GroupGame, GroupRecord, GroupResult, GroupStanding
from app.groups.seasons import Season
from app.groups.table import in_season

RECENT_GAMES = 50  # games listed on the group page


@dataclass
class HeadToHead:
    """Two members' games together in one kind: ``games``, how often each finished ahead
    (``a_ahead``, ``b_ahead``; the rest were level), their average and best scores."""

    games: int = 0
    a_ahead: int = 0
    b_ahead: int = 0
    a_average: float = 0.0
    b_average: float = 0.0
    a_best: int = 0
    b_best: int = 0

    @property
    def level(self) -> int:
        """Games in which both had the same rank."""
        return self.games - self.a_ahead - self.b_ahead


async def head_to_head(session: AsyncSession, group_id: int, kind: str, season: Season,
                       a: str, b: str) -> HeadToHead:
    """Players ``a`` and ``b`` in the group's games of ``kind`` in ``season`` where both sat."""
    other = aliased(GroupResult)
    query = in_season(
        select(GroupResult.score, GroupResult.rank, other.score, other.rank)
        .join(other, and_(other.game_id == GroupResult.game_id, other.player_id == b))
        .where(GroupResult.group_id == group_id, GroupResult.kind == kind,
               GroupResult.player_id == a), season)
    rows: list[Any] = list((await session.execute(query)).all())
    found = HeadToHead(games=len(rows))
    if rows:
        found.a_ahead = sum(1 for _, ra, _, rb in rows if ra < rb)
        found.b_ahead = sum(1 for _, ra, _, rb in rows if rb < ra)
        found.a_average = sum(r[0] for r in rows) / len(rows)
        found.b_average = sum(r[2] for r in rows) / len(rows)
        found.a_best = max(r[0] for r in rows)
        found.b_best = max(r[2] for r in rows)
    return found


@dataclass
class Record:
    """One of the group's records in a game kind: ``what`` (``score``, ``feats``,
    ``accuracy``: ``app.groups.bests``), its ``value``, who set it (``name``) and in which
    game (``code``, ``number``, ``kind``, ``finished_at``)."""

    what: str
    value: int
    name: str
    code: str
    number: int
    kind: str
    finished_at: datetime


async def records(session: AsyncSession, group_id: int, season: Season,
                  kind: str) -> dict[str, Record]:
    """The group's records among members in ``kind`` and ``season`` by ``what`` (those
    never set left out; the earlier game holds a record on a tie): one statement over the
    kept best of each month (``group_records``)."""
    query = (select(GroupRecord.what, GroupRecord.value, GroupRecord.name, GroupRecord.code,
                    GroupRecord.number, GroupRecord.finished_at, GroupRecord.game_id)
             .where(GroupRecord.group_id == group_id, GroupRecord.kind == kind))
    if season.start is not None:
        query = query.where(GroupRecord.month == season.start.date())
    best: dict[str, tuple] = {}
    for what, value, name, code, number, finished_at, game_id in \
            await session.execute(query):
        key = (-value, as_utc(finished_at), game_id)
        if what not in best or key < best[what][0]:
            best[what] = (key, Record(what, int(value), name, code, number, kind,
                                      as_utc(finished_at)))
    return {what: found for what, (_, found) in best.items()}


@dataclass
class PlayedGame:
    """One game of the group: kind, when, room and number (review link), and each seat's
    ``(rank, name, score)`` best first."""

    kind: str
    finished_at: datetime
    code: str
    number: int
    places: list[tuple[int, str, int]]


async def games(session: AsyncSession, group_id: int, season: Season,
                limit: int = RECENT_GAMES) -> list[PlayedGame]:
    """The group's latest ``limit`` games in ``season``, newest first: one statement along
    ``ix_group_games_recent`` (``group_games``: a row per game with its places)."""
    query = (select(GroupGame.kind, GroupGame.finished_at, GroupGame.code, GroupGame.number,
                    GroupGame.places).where(GroupGame.group_id == group_id)
             .order_by(GroupGame.finished_at.desc(), GroupGame.game_id.desc()).limit(limit))
    if season.start is not None:
        query = query.where(GroupGame.finished_at >= season.start)
    if season.end is not None:
        query = query.where(GroupGame.finished_at < season.end)
    rows: Any = await session.execute(query)
    return [PlayedGame(kind, as_utc(at), code, number, [tuple(p) for p in places])
            for kind, at, code, number, places in rows]


async def score_series(session: AsyncSession, group_id: int, kind: str, season: Season,
                       player_id: str) -> list[tuple[datetime, int]]:
    """``player_id``'s points per game of ``kind`` in the group's ``season``, oldest first."""
    rows: Any = await session.execute(in_season(
        select(GroupResult.finished_at, GroupResult.score)
        .where(GroupResult.group_id == group_id, GroupResult.kind == kind,
               GroupResult.player_id == player_id)
        .order_by(GroupResult.finished_at, GroupResult.game_id), season))
    return [(as_utc(at), int(score)) for at, score in rows]


async def monthly_series(session: AsyncSession, group_id: int, kind: str,
                         player_id: str) -> list[tuple[datetime, int]]:
    """``player_id``'s average points per game of ``kind`` in the group, per month (the
    month's first day, UTC; the average rounded to whole points), oldest first: the all-time
    chart, read from the monthly sums (``group_standings``: a row a month) instead of every
    game."""
    rows: Any = await session.execute(
        select(GroupStanding.month, GroupStanding.score_sum, GroupStanding.games)
        .where(GroupStanding.group_id == group_id, GroupStanding.kind == kind,
               GroupStanding.player_id == player_id, GroupStanding.games > 0)
        .order_by(GroupStanding.month))
    return [(datetime(month.year, month.month, 1, tzinfo=UTC), round(int(total) / int(games)))
            for month, total, games in rows]
