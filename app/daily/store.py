"""The daily challenges' rows (``daily_attempts``, migration v001) and what pages read of
them: a player's attempts of a day, the day's board (first attempts only), streaks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import DailyAttempt, Game, GameEvent, Player, Room


@dataclass(frozen=True)
class Attempt:
    """One attempt: its ``number`` (1 is ranked), the solo room's ``code``, the player's
    ``name``, its game's id (None before it started), ``finished`` and ``score`` (None
    until finished)."""

    id: int
    player_id: str
    name: str
    number: int
    code: str
    game_id: int | None
    finished: bool
    score: int | None


def _query(kind: str, day: str) -> Any:
    return (select(DailyAttempt.id, DailyAttempt.player_id, Player.name, DailyAttempt.attempt,
                   Room.code, Game.id, Game.status, Game.result)
            .join(Room, Room.id == DailyAttempt.room_id)
            .join(Player, Player.id == DailyAttempt.player_id)
            .outerjoin(Game, and_(Game.room_id == DailyAttempt.room_id, Game.number == 1))
            .where(DailyAttempt.kind == kind, DailyAttempt.day == day))


def _attempt(row: Any) -> Attempt:
    finished = row[6] == "finished"
    totals = (row[7] or {}).get("totals") or {}
    score = int(next(iter(totals.values()))) if finished and totals else None
    return Attempt(row[0], row[1], row[2] or "", row[3], row[4], row[5], finished, score)


async def attempts_of(session: AsyncSession, player_id: str, kind: str,
                      day: str) -> list[Attempt]:
    """``player_id``'s attempts at ``kind``'s challenge of ``day``, first one first."""
    rows = await session.execute(_query(kind, day).where(DailyAttempt.player_id == player_id)
                                 .order_by(DailyAttempt.attempt))
    return [_attempt(row) for row in rows]


async def board(session: AsyncSession, kind: str, day: str) -> list[tuple[int, Attempt]]:
    """The day's ranking: every finished first attempt, best score first, as ``(rank,
    attempt)`` (equal scores share a rank). Scores and names only are shown from it."""
    rows = await session.execute(_query(kind, day).where(DailyAttempt.attempt == 1))
    done = sorted((a for a in map(_attempt, rows) if a.score is not None),
                  key=lambda a: (-(a.score or 0), a.id))
    ranked, previous, rank = [], None, 0
    for index, attempt in enumerate(done, start=1):
        if attempt.score != previous:
            rank, previous = index, attempt.score
        ranked.append((rank, attempt))
    return ranked


async def add(session: AsyncSession, player_id: str, kind: str, day: str, room_id: int,
              number: int) -> None:
    """Store attempt ``number`` of ``player_id`` at ``kind``'s challenge of ``day`` in room
    ``room_id`` and commit (``IntegrityError`` when that number exists: a second request)."""
    session.add(DailyAttempt(player_id=player_id, kind=kind, day=day, attempt=number,
                             room_id=room_id))
    await session.commit()


async def room_id(session: AsyncSession, code: str) -> int:
    """The id of room ``code`` (which exists)."""
    return int((await session.execute(select(Room.id).where(Room.code == code))).scalar_one())


async def streak(session: AsyncSession, player_id: str, kind: str, today: str) -> int:
    """Days in a row up to ``today`` (or up to yesterday while today is not played yet) on
    which ``player_id`` finished an attempt at ``kind``'s challenge."""
    rows = await session.execute(
        select(func.distinct(DailyAttempt.day)).join(
            Game, and_(Game.room_id == DailyAttempt.room_id, Game.number == 1))
        .where(DailyAttempt.player_id == player_id, DailyAttempt.kind == kind,
               Game.status == "finished"))
    days = {str(d) for (d,) in rows}
    day = date.fromisoformat(today)
    if today not in days:
        day -= timedelta(days=1)
    count = 0
    while day.isoformat() in days:
        count, day = count + 1, day - timedelta(days=1)
    return count


async def placements(session: AsyncSession, game_id: int) -> list[tuple[int, int]]:
    """The cells (row, column) of a Knister game's placements, in order."""
    rows = await session.execute(select(GameEvent.payload).where(
        GameEvent.game_id == game_id, GameEvent.type == "place").order_by(GameEvent.seq))
    payloads: list[Any] = list(rows.scalars())
    cells = [p["cell"] for p in payloads]
    return [(int(c[0]), int(c[1])) for c in cells]


async def history(session: AsyncSession, player_id: str, kind: str,
                  limit: int = 30) -> list[tuple[str, int | None]]:
    """``player_id``'s latest days at ``kind``'s challenge: ``(day, score of the first
    attempt or None when unfinished)``, newest first."""
    rows = await session.execute(
        select(DailyAttempt.day, Game.status, Game.result)
        .outerjoin(Game, and_(Game.room_id == DailyAttempt.room_id, Game.number == 1))
        .where(DailyAttempt.player_id == player_id, DailyAttempt.kind == kind,
               DailyAttempt.attempt == 1).order_by(DailyAttempt.day.desc()).limit(limit))
    out: list[tuple[str, int | None]] = []
    for day, status, result in rows:
        found: Any = result or {}
        totals: dict[str, Any] = dict(found.get("totals") or {})
        out.append((str(day), int(next(iter(totals.values()))) if status == "finished"
                    and totals else None))
    return out
