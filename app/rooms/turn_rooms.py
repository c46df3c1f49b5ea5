"""The room service's part for turn-based rooms (docs/rules.md, "Turn-based rooms"): the
deadline scheduler's settling of a room it took, and a player coming back to a seat marked
away. ``RoomService`` is built on it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

import structlog

from app.rooms.errors import Conflict, RoomError
from app.rooms.memory import RoomMemory
from app.rooms.room_actions import RoomActions

log = structlog.get_logger("knobel.rooms")


class TurnRooms(RoomMemory):
    """Turn-based rooms' service methods, on the rooms in memory (``RoomMemory``);
    ``actions`` and ``publish`` are the room service's (set by ``RoomService``)."""

    actions: RoomActions
    publish: Callable[[str, int, str | None], Awaitable[None]]

    async def settle_turns(self, code: str, not_before: datetime | None = None) -> None:
        """Store room ``code``'s earliest turn deadline as its state has it (after the
        deadline scheduler took the room and found nothing, or no more, to play; its lease
        is replaced), but not before ``not_before`` (aware UTC; None: as it is), unless the
        room moved on meanwhile (its write set it then)."""
        async with self.lock(code):
            try:
                state = await self._fresh(code)
            except RoomError:
                return
            await self.repo.set_turn_due(state, not_before)

    async def came_back(self, code: str, player_id: str) -> None:
        """``player_id`` opened turn-based room ``code``: a seat marked away (turns missed in
        a row, ``turns.AWAY_AFTER``) is theirs again, its wait a full deadline from now.
        Nothing happens for anyone else."""
        state = self._rooms.get(code) or await self.current(code)
        seat = state.seat_of(player_id) if state is not None else None
        if state is None or seat is None or state.turns is None or \
                not state.turns.away(seat.id):
            return
        async with self.lock(code):
            for _ in range(3):
                state = await self._fresh(code)
                if state.turns is None or not state.turns.away(seat.id):
                    return
                try:
                    version = await self.actions.back(state, seat.id)
                except Conflict:
                    self._drop(code)
                    continue
                break
            else:
                return
        log.info("player_back", room=code, player=player_id)
        await self.publish(code, version, None)

