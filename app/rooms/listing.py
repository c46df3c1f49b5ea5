"""Lists of rooms for the site's pages: the rooms a guest sits in (home page, "Your rooms")."""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import Room, Seat

MY_ROOMS_LIMIT = 20


class MyRoom(NamedTuple):
    """A room the guest sits in: its ``code``, game ``kind`` and ``status`` (``lobby`` or
    ``playing``)."""

    code: str
    kind: str
    status: str


async def rooms_of(session: AsyncSession, player_id: str,
                   limit: int = MY_ROOMS_LIMIT) -> list[MyRoom]:
    """The rooms where ``player_id`` has an active seat and the game is not finished (the
    waiting room or a game running), newest first, at most ``limit``.

    A seat the player left or was removed from does not count (docs/rules.md, "Results and
    personal bests").
    """
    rows = await session.execute(
        select(Room.code, Room.game, Room.status)
        .join(Seat, Seat.room_id == Room.id)
        .where(Seat.player_id == player_id, Seat.status == "active",
               Room.status.in_(("lobby", "playing")))
        .order_by(Room.id.desc())
        .limit(limit))
    return [MyRoom(code, kind, status) for code, kind, status in rows]
