"""Chat lines in the database (``chat_messages``): write one, take one away, read the newest
(docs/rules.md, "Talk at the table"). Each call is its own short transaction, apart from the
room's version and its game's events."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, select, update

from app.clock import utcnow
from app.store.db import Database
from app.store.models import ChatMessage
from app.store.retry import on_fresh_connection
from app.talk.lines import SHOWN_LINES, ChatLine


class ChatStore:
    """Reads and writes the chat lines of rooms in ``db``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, room_id: int, seat_id: int, player_id: str, name: str,
                  body: str) -> int:
        """Store a line of seat ``seat_id`` (player ``player_id``, shown as ``name``) in room
        ``room_id``; returns its id."""
        async def add() -> int:
            async with self.db.sessionmaker() as session, session.begin():
                row = ChatMessage(room_id=room_id, seat_id=seat_id, player_id=player_id,
                                  name=name, body=body, created_at=utcnow())
                session.add(row)
                await session.flush()
                return row.id

        return await on_fresh_connection(add, "chat_add")

    async def remove(self, room_id: int, line_id: int) -> bool:
        """Mark line ``line_id`` of room ``room_id`` removed; False when the room has no such
        line shown (unknown, or removed already)."""
        async def remove() -> bool:
            async with self.db.sessionmaker() as session, session.begin():
                result = cast(CursorResult[Any], await session.execute(
                    update(ChatMessage).where(ChatMessage.id == line_id,
                                              ChatMessage.room_id == room_id,
                                              ChatMessage.removed.is_(False))
                    .values(removed=True)))
                return bool(result.rowcount)

        return await on_fresh_connection(remove, "chat_remove")

    async def newest(self, room_id: int) -> tuple[ChatLine, ...]:
        """The room's newest ``SHOWN_LINES`` lines not removed, oldest first."""
        async def read() -> tuple[ChatLine, ...]:
            async with self.db.sessionmaker() as session:
                rows = (await session.execute(
                    select(ChatMessage.id, ChatMessage.seat_id, ChatMessage.name,
                           ChatMessage.body)
                    .where(ChatMessage.room_id == room_id, ChatMessage.removed.is_(False))
                    .order_by(ChatMessage.id.desc()).limit(SHOWN_LINES))).all()
                return tuple(ChatLine(*row) for row in reversed(rows))

        return await on_fresh_connection(read, "chat_newest")
