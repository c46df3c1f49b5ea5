"""The Kniffel family with real dice (docs/rules.md, "Table mode"): the player on turn enters
the five dice they have after their last throw, as often as needed before choosing a box.

An entry is a ``roll`` event ``{"dice": [5 faces], "held": [false x 5], "auto": false,
"entered": true}``; folding it starts the turn's dice afresh (``state.fold``).
"""

from __future__ import annotations

from typing import Any

from app.engines.kniffel import DICE
from app.rooms.games.base import Event
from app.rooms.games.kniffel.state import KniffelState
from app.rooms.games.real_dice import entered_faces, refuse_entry, refuse_roll


def decide_entry(state: KniffelState, seat_id: int, action: dict[str, Any]) -> list[Event]:
    """The event of an ``enter`` action (``{"dice": [5 faces]}`` or fields ``die0`` ..
    ``die4``) by ``seat_id``, the seat on turn; also the refusal of ``roll`` and ``hold`` in
    a room with real dice. Raises ``ActionError``: ``screen_dice`` (an entry, dice on
    screen), ``real_dice`` (a roll or hold, real dice), ``dice_count``, ``bad_face``."""
    if action.get("type") != "enter":
        raise refuse_roll()
    if not state.real_dice:
        raise refuse_entry()
    return [Event("roll", {"dice": entered_faces(action, DICE), "held": [False] * DICE,
                           "auto": False, "entered": True}, seat_id)]


def basis(state: KniffelState) -> dict[str, int]:
    """``turn`` and ``rolls`` (see ``KniffelGame.basis``) and, with real dice, ``entry``: the
    entries so far, so a box chosen on dice that were entered again since is stale."""
    fields = {"turn": state.turn_no, "rolls": state.turn.rolls}
    if state.real_dice:
        fields["entry"] = state.entries
    return fields


def awaiting(state: KniffelState) -> list[int]:
    """The seats the game waits for now: the one on turn (none when the game is over)."""
    return [] if state.over or state.current is None else [state.current]
