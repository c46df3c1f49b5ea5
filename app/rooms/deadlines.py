"""Due deadlines and pushes of turn-based rooms, taken from the database by any process
(docs/architecture.md, "Turn-based rooms").

``rooms.turn_due_at`` is a room's earliest turn deadline and ``rooms.remind_at`` the next
moment a push is to be considered (both indexed; NULL in live rooms). A round takes the due
rooms of each column and leases them (the column moves ``LEASE`` on, so a process that dies
with them only delays them): on Postgres ``SELECT ... FOR UPDATE SKIP LOCKED``, so two
processes never take the same room; on SQLite the single process. The room's next write sets
the column anew; the callbacks decide what to do with each room taken (play the missed
turns: ``app.rooms.bots.deadline``; queue pushes: ``app.push.turns``). Nothing is kept in
memory per room: an unwatched room is only read when something is due.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

import structlog
from sqlalchemy import select, update

from app.store.db import Database
from app.store.models import Room
from app.store.periodic import Periodic
from app.store.retry import on_fresh_connection

log = structlog.get_logger("knobel.deadlines")

LEASE = timedelta(seconds=60)
"""How long a room taken in a round stays out of other rounds (its handling ends sooner)."""

ROUND = 200
"""Rooms taken per column and round."""

Handle = Callable[[int, str], Awaitable[None]]
"""What is done with a room taken: called with its id and code."""


async def take_due(db: Database, column: str, now: datetime, limit: int = ROUND,
                   lease: timedelta = LEASE) -> list[tuple[int, str]]:
    """Lease up to ``limit`` rooms whose ``column`` (``turn_due_at`` or ``remind_at``) is
    at or before ``now``, earliest first: the column moves to ``now + lease`` in the same
    transaction. Returns ``(room id, code)`` pairs. Raises ``ValueError`` for another
    column."""
    if column not in ("turn_due_at", "remind_at"):
        raise ValueError(column)
    due: Any = getattr(Room, column)
    query = select(Room.id, Room.code).where(due <= now).order_by(due).limit(limit)
    if db.engine.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    async def take() -> list[tuple[int, str]]:
        async with db.sessionmaker() as session, session.begin():
            rows = [(row.id, row.code) for row in await session.execute(query)]
            if rows:
                await session.execute(update(Room).where(Room.id.in_([r[0] for r in rows]))
                                      .values({column: now + lease}))
        return rows

    return await on_fresh_connection(take, "take_due")  # a pooled connection may have died


class TurnScheduler:
    """Every ``interval`` seconds (and at once after ``wake()``), takes the rooms whose
    deadline passed (``play``) and those with a push to consider (``notify``), in ``db``,
    at ``clock()`` (aware UTC; the app's ``ServerClock``)."""

    def __init__(self, db: Database, clock: Callable[[], datetime], play: Handle,
                 notify: Handle, interval: float = 5.0) -> None:
        self.db, self.clock, self.play, self.notify = db, clock, play, notify
        self._rounds = Periodic(self.round, interval, "deadlines")

    def wake(self) -> None:
        """Run a round now (the test clock moved, a room changed)."""
        self._rounds.wake()

    async def round(self) -> int:
        """One round: handle every room due now; returns how many rooms were taken for a
        passed deadline (those taken for pushes are not counted)."""
        taken = 0
        for column, handle in (("turn_due_at", self.play), ("remind_at", self.notify)):
            while rooms := await take_due(self.db, column, self.clock()):
                taken += len(rooms) if column == "turn_due_at" else 0
                for room_id, code in rooms:
                    try:
                        await handle(room_id, code)
                    except Exception:  # the room is taken again once its lease ends
                        log.exception("deadline_failed", room=code, column=column)
                if len(rooms) < ROUND:
                    break
        return taken

    def start(self) -> None:
        """Run rounds in the background until ``stop`` (``Periodic``)."""
        self._rounds.start()

    async def stop(self) -> None:
        """Stop after the current round."""
        await self._rounds.stop()
