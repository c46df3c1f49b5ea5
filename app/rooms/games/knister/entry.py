"""Knister with real dice (docs/rules.md, "Table mode"): the roller enters the two dice or
their sum, and may correct the entry until the first player has placed it.

Events: an entry is a ``roll`` event with payload ``{"dice": [a, b], "auto": false,
"entered": true}`` or, for a sum alone, ``{"sum": n, "auto": false, "entered": true}``; a
correction carries ``"corrects": true`` and replaces the latest roll instead of adding one.
"""

from __future__ import annotations

from typing import Any

from app.rooms.games.base import ActionError, Event
from app.rooms.games.knister.state import KnisterState
from app.rooms.games.real_dice import (
    entered_faces,
    entered_sum,
    refuse_entry,
    refuse_roll,
)


def decide_entry(state: KnisterState, seat_id: int, action: dict[str, Any],
                 over: bool) -> list[Event]:
    """The ``roll`` event for ``{"type": "enter", "sum": 2..12}`` or ``{"type": "enter",
    "dice": [a, b]}`` (or fields ``die0``, ``die1``) by ``seat_id`` (an active seat).

    A new roll needs the table ready for it and ``seat_id`` to be the roller; while the
    latest roll is pending its roller may correct an entry until someone placed it.
    Raises ``ActionError`` (nothing changes): ``screen_dice`` (the room rolls on screen),
    ``bad_sum``, ``bad_face``, ``dice_count``, ``bad_message`` (both a sum and dice),
    ``game_over``, ``not_your_turn``, ``roll_final`` (the roll was placed or not entered);
    for a ``roll`` request (real dice: nothing to roll), ``real_dice``.
    """
    if action.get("type") == "roll":
        raise refuse_roll()
    if not state.real_dice:
        raise refuse_entry()
    has_sum = action.get("sum") not in (None, "")
    if has_sum and (action.get("dice") is not None or "die0" in action):
        raise ActionError("bad_message", "The message is malformed.")
    payload: dict[str, Any] = (
        {"sum": entered_sum(action["sum"])} if has_sum else {"dice": entered_faces(action, 2)})
    payload.update({"auto": False, "entered": True})
    if over:
        raise ActionError("game_over", "The game is over.")
    if state.roll_pending:
        if state.roll_rollers[-1] != seat_id:
            raise ActionError("not_your_turn", "It is not your turn to roll.")
        if state.placed or not state.last_entered:
            raise ActionError("roll_final", "Someone has placed this roll already: it is final.")
        payload["corrects"] = True
    elif state.roller != seat_id:
        raise ActionError("not_your_turn", "It is not your turn to roll.")
    return [Event("roll", payload, seat_id)]


def entry_basis(state: KnisterState) -> dict[str, int]:
    """``roll`` (rolls seen; see ``KnisterGame.basis``) and, with real dice, ``entry``: the
    entries so far, so a placement of a sum the roller has since corrected is stale."""
    if state.real_dice:
        return {"roll": len(state.rolls), "entry": state.entries}
    return {"roll": len(state.rolls)}


