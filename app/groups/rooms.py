"""Rooms opened for a group from the new-room form (its ``group`` field; docs/rules.md,
"Groups"), and the group's rooms still open."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.groups import service
from app.groups.models import GroupRoom
from app.store.db import Database
from app.store.models import Room, Seat


async def check_group(db: Database, code: str, player_id: str) -> None:
    """Raise ``GroupError`` not_found (404) unless ``player_id`` is an active member of group
    ``code`` (a removed member cannot open rooms for it)."""
    async with db.sessionmaker() as session:
        await service.member_group(session, code, player_id)


async def open_for_group(db: Database, code: str, room_code: str, player_id: str) -> None:
    """Play the new room ``room_code`` (hosted by ``player_id``) for group ``code``; raises as
    ``service.attach_room``."""
    async with db.sessionmaker() as session, session.begin():
        group = await service.member_group(session, code, player_id)
        await service.attach_room(session, group, room_code, player_id)


OPEN_DAYS = 7  # a room opened this long ago or less, not finished, is listed as open
OPEN_SHOWN = 5  # open rooms listed on the group page at most


@dataclass(frozen=True)
class OpenRoom:
    """A room of the group still waiting or playing: its ``code``, game ``kind``,
    ``status`` (``lobby`` or ``playing``) and the ``names`` at its seats, in seat order."""

    code: str
    kind: str
    status: str
    names: tuple[str, ...]


async def open_rooms(session: AsyncSession, group_id: int, now: datetime) -> list[OpenRoom]:
    """The group's rooms opened in the last ``OPEN_DAYS`` days that are not finished, newest
    first, at most ``OPEN_SHOWN`` (docs/rules.md, "Groups": the group page lists them)."""
    found = (await session.execute(
        select(Room.id, Room.code, Room.game, Room.status)
        .join(GroupRoom, GroupRoom.room_id == Room.id)
        .where(GroupRoom.group_id == group_id, Room.status.in_(("lobby", "playing")),
               Room.created_at >= now - timedelta(days=OPEN_DAYS))
        .order_by(Room.created_at.desc(), Room.id.desc()).limit(OPEN_SHOWN))).all()
    names: dict[int, list[str]] = {row.id: [] for row in found}
    if names:
        for room_id, name in (await session.execute(
                select(Seat.room_id, Seat.name)
                .where(Seat.room_id.in_(names), Seat.status == "active")
                .order_by(Seat.room_id, Seat.position))):
            names[room_id].append(name)
    return [OpenRoom(row.code, row.game, row.status, tuple(names[row.id])) for row in found]
