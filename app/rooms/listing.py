"""Lists of rooms for the site's pages: the rooms a guest sits in (home page, "Your rooms")."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.store.models import Room, Seat

MY_ROOMS_LIMIT = 20


class MyRoom(NamedTuple):
    """A room the guest sits in: its ``code``, game ``kind`` and ``status`` (``lobby`` or
    ``playing``); ``others``: the other active seats' names in seat order; ``opened``: when
    the room was made (aware UTC)."""

    code: str
    kind: str
    status: str
    others: tuple[str, ...] = ()
    opened: datetime | None = None


def is_guide(options: Any) -> bool:
    """True for a guided first round's room (``options["guide"]``): a lesson, not a game
    to list among the player's rooms."""
    return isinstance(options, dict) and bool(options.get("guide"))


async def rooms_of(session: AsyncSession, player_id: str,
                   limit: int = MY_ROOMS_LIMIT) -> list[MyRoom]:
    """The rooms where ``player_id`` has an active seat and the game is not finished (the
    waiting room or a game running), newest first, at most ``limit``, with the names of the
    others at each table (two queries). Guided first rounds are left out.

    A seat the player left or was removed from does not count (docs/rules.md, "Results and
    personal bests").
    """
    rows = [row for row in await session.execute(
        select(Room.id, Room.code, Room.game, Room.status, Room.options, Room.created_at)
        .join(Seat, Seat.room_id == Room.id)
        .where(Seat.player_id == player_id, Seat.status == "active",
               Room.status.in_(("lobby", "playing")))
        .order_by(Room.id.desc())
        .limit(limit)) if not is_guide(row.options)]
    names: dict[int, list[str]] = {}
    if rows:
        for room_id, name in await session.execute(
                select(Seat.room_id, Seat.name)
                .where(Seat.room_id.in_([row.id for row in rows]), Seat.status == "active",
                       Seat.player_id != player_id)
                .order_by(Seat.room_id, Seat.position)):
            names.setdefault(room_id, []).append(name)
    return [MyRoom(row.code, row.game, row.status, tuple(names.get(row.id, ())),
                   as_utc(row.created_at)) for row in rows]
