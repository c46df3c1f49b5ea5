"""A turn whose deadline passed, played by the strong bot (docs/rules.md, "Turn-based
rooms"): the deadline scheduler (``app.rooms.deadlines``) hands over each room it took. The
moves go through the room service like any bot move for an away player (``takeover``: marked
``auto`` and ``bot``); the seat's missed turns count up when its turn ends so
(``turns.advance``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import structlog

from app.rooms.bots.moves import Strategies, next_move
from app.rooms.errors import RoomError
from app.rooms.games.base import ActionError

if TYPE_CHECKING:
    from app.rooms.service import RoomService

log = structlog.get_logger("knobel.bots")

MAX_MOVES = 100
"""Moves played for one room at most per call (a Kniffel turn is up to 6 moves per seat)."""

STUCK_RETRY = timedelta(minutes=10)
"""A room with an overdue seat the bot has no move for (a table that waits for the wrong seat)
is taken again this much later, not at once (it would be taken round after round)."""


class DeadlinePlayer:
    """Plays the overdue turns of a turn-based room through ``rooms`` with the bots'
    ``strategies``."""

    def __init__(self, rooms: RoomService, strategies: Strategies) -> None:
        self.rooms, self.strategies = rooms, strategies

    async def play(self, room_id: int, code: str) -> None:
        """Play every turn of room ``code`` whose deadline has passed, each to its end, then
        store the room's next deadline (``RoomService.settle_turns``). A move refused
        because the table moved on meanwhile (the player acted, another process played it)
        is decided again on the new state. When an overdue seat is left that the bot has no
        move for, the room's deadline is stored ``STUCK_RETRY`` from now (logged as
        ``deadline_stuck``), so the scheduler does not take it again round after round."""
        stuck = True
        for _ in range(MAX_MOVES):
            state = await self.rooms.current(code)
            if state is None:
                return
            now = self.rooms.clock()
            overdue = sorted(seat for seat, wait in (state.turns.waits.items()
                                                     if state.turns else ())
                             if wait.due <= now)
            info = state.seat(overdue[0]) if overdue and state.status == "playing" else None
            move = next_move(state, info.id, "strong", self.strategies) if info else None
            if info is None or move is None:
                stuck = info is not None
                break
            action_id, message = move
            try:
                await self.rooms.act(code, info.player_id, {**message, "action_id": action_id},
                                     takeover=True)
            except (ActionError, RoomError) as exc:
                log.info("deadline_move_refused", room=code, action=action_id, code=exc.code)
                continue
            log.info("deadline_move", room=code, seat=info.id, type=message["type"])
        retry = None
        if stuck:
            log.warning("deadline_stuck", room=code)
            retry = self.rooms.clock() + STUCK_RETRY
        await self.rooms.settle_turns(code, not_before=retry)
