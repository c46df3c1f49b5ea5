"""Rooms opened for a group from the new-room form (its ``group`` field; docs/rules.md,
"Groups")."""

from __future__ import annotations

from app.groups import service
from app.store.db import Database


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
