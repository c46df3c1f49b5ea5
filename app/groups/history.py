"""A group's head-to-head, records, game list and season chart, read from ``group_results``
(docs/rules.md, "Groups")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.clock import as_utc
from app.groups.models import GroupResult
from app.groups.seasons import Season
from app.groups.table import in_season
from app.rooms.state import MAX_SEATS

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
    """One of the group's records: ``what`` (``knister_score``, ``kniffels``,
    ``accuracy``), its ``value``, who set it (``name``) and in which game (``code``,
    ``number``, ``kind``, ``finished_at``)."""

    what: str
    value: int
    name: str
    code: str
    number: int
    kind: str
    finished_at: datetime


RECORDS = (("knister_score", GroupResult.score, GroupResult.kind == "knister"),
           ("kniffels", GroupResult.kniffels, GroupResult.kniffels > 0),
           ("accuracy", GroupResult.accuracy, GroupResult.accuracy.is_not(None)))


async def records(session: AsyncSession, group_id: int, season: Season) -> list[Record]:
    """The group's records in ``season`` among members: highest Knister score, most Kniffels
    in one game, best accuracy (the earliest game holds a record on a tie); missing ones are
    left out. One statement each, led by its index (``ix_group_results_score``,
    ``_kniffels``, ``_accuracy``)."""
    found: list[Record] = []
    for what, column, condition in RECORDS:
        query = in_season(
            select(GroupResult)
            .where(GroupResult.group_id == group_id, GroupResult.member.is_(True), condition)
            .order_by(column.desc(), GroupResult.finished_at, GroupResult.game_id).limit(1),
            season)
        result = (await session.execute(query)).scalar_one_or_none()
        if result is not None:
            value = {"knister_score": result.score, "kniffels": result.kniffels,
                     "accuracy": result.accuracy}[what]
            found.append(Record(what, int(value or 0), result.name, result.code,
                                result.number, result.kind, as_utc(result.finished_at)))
    return found


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
                kind: str | None = None, limit: int = RECENT_GAMES) -> list[PlayedGame]:
    """The group's latest ``limit`` games in ``season`` (of ``kind`` when given), newest
    first. Reads the newest ``limit`` x ``MAX_SEATS`` results along the index
    ``ix_group_results_recent`` (a game has at most that many seats)."""
    latest = in_season(
        select(GroupResult.game_id).where(GroupResult.group_id == group_id)
        .order_by(GroupResult.finished_at.desc(), GroupResult.game_id.desc())
        .limit(limit * MAX_SEATS), season)
    if kind is not None:
        latest = latest.where(GroupResult.kind == kind)
    ids: list[int] = list(dict.fromkeys((await session.execute(latest)).scalars()))[:limit]
    rows: Any = await session.execute(  # columns, not ORM objects: up to 300 rows a page
        select(GroupResult.game_id, GroupResult.kind, GroupResult.finished_at,
               GroupResult.code, GroupResult.number, GroupResult.rank, GroupResult.name,
               GroupResult.score).where(GroupResult.game_id.in_(ids)))
    by_game: dict[int, PlayedGame] = {}
    for game_id, kind_, finished_at, code, number, rank, name, score in rows:
        game = by_game.get(game_id)
        if game is None:
            game = by_game[game_id] = PlayedGame(kind_, as_utc(finished_at), code, number, [])
        game.places.append((rank, name, score))
    for game in by_game.values():
        game.places.sort()
    return [by_game[i] for i in ids if i in by_game]


async def score_series(session: AsyncSession, group_id: int, kind: str, season: Season,
                       player_id: str) -> list[tuple[datetime, int]]:
    """``player_id``'s points per game of ``kind`` in the group's ``season``, oldest first."""
    rows: Any = await session.execute(in_season(
        select(GroupResult.finished_at, GroupResult.score)
        .where(GroupResult.group_id == group_id, GroupResult.kind == kind,
               GroupResult.player_id == player_id)
        .order_by(GroupResult.finished_at, GroupResult.game_id), season))
    return [(as_utc(at), int(score)) for at, score in rows]
