"""Where Knister's server dice sit (docs/dice.md): roll ``k`` of the game (from 1) is turn
``k``, throw 1, slots 0 and 1. A turn-based room's automatic roll and an away roller's roll
are the same throw as the roller's own would be, so the dice never depend on who throws or
when."""

from __future__ import annotations

from typing import Any

from app.rooms.games.base import Event
from app.rooms.games.capabilities import LoggedThrow, Throw
from app.rooms.games.knister.state import KnisterState
from app.rooms.games.real_dice import is_real

SLOTS = (0, 1)


class KnisterDice:
    """Knister's ``DiceLog`` (``app.rooms.games.capabilities``)."""

    def seeded(self, options: dict[str, Any]) -> bool:
        """True unless the room throws real dice (``real_dice.is_real``)."""
        return not is_real(options)

    def next_throw(self, state: KnisterState, count: int) -> Throw:
        """The next roll of ``state``: turn = rolls so far + 1, throw 1, slots 0 and 1.
        ``ValueError`` unless ``count`` is 2."""
        if count != len(SLOTS):
            raise ValueError("a Knister roll throws two dice")
        return Throw(len(state.rolls) + 1, 1, SLOTS)

    def logged(self, state: KnisterState, event: Event) -> LoggedThrow | None:
        """The throw of a stored ``roll`` event with server dice (not entered, not a
        correction), decided on ``state``; None otherwise."""
        payload = event.payload
        if event.type != "roll" or "dice" not in payload or payload.get("entered") \
                or payload.get("corrects"):
            return None
        return LoggedThrow(Throw(len(state.rolls) + 1, 1, SLOTS), event.seat_id,
                           tuple(int(d) for d in payload["dice"]))
