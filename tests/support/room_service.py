"""A room driven straight through ``RoomService`` on the test database (no server, no
sockets): loaded dice, actions as the socket handler passes them, the room state after each.

Every action carries the basis of the room as the database has it now
(``app.rooms.rules.page_basis``), as a page showing the current table sends it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.clock import utcnow
from app.rooms.dice import DiceSource
from app.rooms.rules import page_basis
from app.rooms.service import Outcome, RoomBots, RoomService
from app.rooms.state import RoomState
from app.store.db import Database


async def act_as(service: RoomService, code: str, player_id: str,
                 message: dict[str, Any]) -> Outcome:
    """Apply ``message`` for ``player_id`` in room ``code`` with the basis of the room as the
    database has it now (fields in ``message`` override it, to send a stale one)."""
    state = await service.current(code)
    assert state is not None, code
    return await service.act(code, player_id, {**page_basis(state), **message})


async def _no_publish(code: str, version: int, delta: str | None = None) -> None:
    """Nobody listens: the tests read the state themselves."""


@dataclass
class ServiceRoom:
    """One room in a ``RoomService``: its ``code``, the ``players`` (player ids, host first)
    and the test dice queue."""

    service: RoomService
    dice: DiceSource
    code: str
    players: list[str]

    async def state(self, fresh: bool = False) -> RoomState:
        """The room's state: the service's own (kept current by every action), or with
        ``fresh`` rebuilt from the database (what a restarted server would see)."""
        state = await self.service.snapshot(self.code, -1 if fresh else 0)
        assert state is not None
        return state

    async def act(self, player: str, message: dict[str, Any]) -> Outcome:
        """One action of ``player``, as the socket handler passes it on (``act_as``)."""
        return await act_as(self.service, self.code, player, message)

    async def room_action(self, player: str, kind: str, **fields: Any) -> Outcome:
        """A room action (``options``, ``start``, ``next_game``...) of ``player``."""
        return await self.act(player, {"type": kind, **fields})

    async def player_of(self, seat_id: int) -> str:
        """The player id sitting in ``seat_id``."""
        seat = (await self.state()).seat(seat_id)
        assert seat is not None
        return seat.player_id

    def load(self, faces: list[int]) -> None:
        """Queue the faces the room's next rolls show (in order)."""
        self.dice.load(self.code, faces)


@asynccontextmanager
async def service_room(database_url: str, kind: str, names: list[str],
                       options: dict[str, Any] | None = None,
                       clock: Callable[[], datetime] = utcnow,
                       bots: Callable[[RoomService], RoomBots] | None = None,
                       ) -> AsyncIterator[ServiceRoom]:
    """A room of game ``kind`` with one seat per name (the first hosts), the host's
    ``options`` set (form strings, as the lobby sends them) and the game not started;
    ``clock``: the service's now; ``bots``: the service's bots (``RoomService``'s argument).
    The service's timers are cancelled and the database closed on exit."""
    db = Database(database_url)
    dice = DiceSource(allow_loaded=True)
    service = RoomService(db, _no_publish, dice, clock=clock, bots=bots)
    try:
        players = [f"p-{i}-{name.lower()}" for i, name in enumerate(names)]
        code = await service.create_room(players[0], names[0], kind)
        for player, name in zip(players[1:], names[1:], strict=True):
            await service.join(code, player, name)
        room = ServiceRoom(service, dice, code, players)
        if options:
            await room.room_action(players[0], "options", **options)
        yield room
    finally:
        service.close()
        await db.dispose()
