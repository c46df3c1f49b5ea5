"""Where the Kniffel family's server dice sit (docs/dice.md): turn = the game's turn number
(``KniffelState.turn_no``: 1 at the start, one more after each filled box and after the
player on turn leaves), throw = the turn's rolls so far + 1 (1..3), slots = the places
(0..4) of the dice not held. A held die is not thrown, so a player who keeps the same dice
sees the same new dice in the same places; an automatic roll (the turn timer, an away
player, a bot) is the throw the player's own would be."""

from __future__ import annotations

from typing import Any

from app.engines.kniffel import DICE
from app.rooms.games.base import Event
from app.rooms.games.capabilities import LoggedThrow, Throw
from app.rooms.games.kniffel.state import KniffelState
from app.rooms.games.real_dice import is_real


def _throw(state: KniffelState) -> Throw:
    """The next throw of the player on turn in ``state``."""
    turn = state.turn
    if turn.rolls == 0:
        slots = tuple(range(DICE))
    else:
        slots = tuple(i for i, held in enumerate(turn.held) if not held)
    return Throw(state.turn_no, turn.rolls + 1, slots)


class KniffelDice:
    """The Kniffel family's ``DiceLog`` (``app.rooms.games.capabilities``)."""

    def seeded(self, options: dict[str, Any]) -> bool:
        """True unless the room throws real dice (``real_dice.is_real``)."""
        return not is_real(options)

    def next_throw(self, state: KniffelState, count: int) -> Throw:
        """The next throw of ``state`` (see the module). ``ValueError`` when ``count`` is
        not the number of free dice."""
        found = _throw(state)
        if count != len(found.slots):
            raise ValueError(f"the next throw has {len(found.slots)} dice, not {count}")
        return found

    def logged(self, state: KniffelState, event: Event) -> LoggedThrow | None:
        """The throw of a stored ``roll`` event with server dice (not entered), decided on
        ``state``: the faces of its thrown slots; None otherwise."""
        payload = event.payload
        if event.type != "roll" or payload.get("entered"):
            return None
        at = _throw(state)
        dice = payload["dice"]
        return LoggedThrow(at, event.seat_id, tuple(int(dice[slot]) for slot in at.slots))
