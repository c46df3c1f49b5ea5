"""Table mode, shared by the dice games: the ``dice`` room option and checking dice that a
player threw on a real table and entered on their phone.

Rules: docs/rules.md, "Table mode". With ``dice`` = ``real`` the server rolls nothing on a
player's request: the player whose turn it is enters the faces (or, in Knister, the sum) and
the plug-in stores them as a ``roll`` event marked ``"entered": true``, so the fold and the
scoring are the same as for dice the server rolled.
"""

from __future__ import annotations

from typing import Any

from app.rooms.games.base import ActionError, OptionError

DICE_MODES = ("screen", "real")
"""``screen``: the server rolls (default); ``real``: players throw real dice and enter them."""

FACES = range(1, 7)
SUMS = range(2, 13)


def parse_dice_mode(form: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """Set ``options["dice"]`` from the lobby form's ``dice`` field (``screen`` | ``real``;
    absent: keep the default; a repeated field: its last value) and return ``options``.
    Raises ``OptionError("dice")`` for any other value."""
    if "dice" not in form:
        return options
    raw = form["dice"]
    if isinstance(raw, list | tuple):
        raw = raw[-1] if raw else ""
    if raw not in DICE_MODES:
        raise OptionError("dice")
    options["dice"] = raw
    return options


def is_real(options: dict[str, Any]) -> bool:
    """True when the room plays with real dice (``options["dice"] == "real"``)."""
    return options.get("dice", "screen") == "real"


def refuse_roll() -> ActionError:
    """The error for a ``roll`` request in a real-dice room."""
    return ActionError("real_dice", "This room plays with real dice: enter what you threw.")


def refuse_entry() -> ActionError:
    """The error for an ``enter`` request in a room whose dice are rolled on screen."""
    return ActionError("screen_dice", "This room rolls the dice on screen: nothing to enter.")


def entered_faces(action: dict[str, Any], count: int) -> list[int]:
    """The faces an ``enter`` action names: ``dice`` (a list of ints, or a string like
    ``"3,5"``) or the form fields ``die0`` .. ``die<count-1>`` (one face picker per die).

    ``count``: how many dice the game throws (2 for Knister, 5 for the Kniffel family).
    Returns ``count`` ints 1..6. Raises ``ActionError``: ``dice_count`` when not exactly
    ``count`` dice are given (a die left out, or too many), ``bad_face`` for a face that is
    not a whole number 1..6.
    """
    raw = action.get("dice")
    if raw is None:
        values: list[Any] = [action.get(f"die{i}") for i in range(count)]
        if any(f"die{i}" in action for i in range(count, count + 6)):
            values.append("extra")
        if any(v is None or v == "" for v in values):
            raise _count_error(count)
    elif isinstance(raw, str):
        values = [part.strip() for part in raw.split(",") if part.strip()]
    elif isinstance(raw, list):
        values = list(raw)
    else:
        raise ActionError("bad_face", "Each die shows a number from 1 to 6.")
    if len(values) != count:
        raise _count_error(count)
    return [_face(value) for value in values]


def entered_sum(raw: Any) -> int:
    """The sum of two dice an ``enter`` action names (int or digit string); ``ActionError``
    ``bad_sum`` unless it is 2..12."""
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw.strip())
    if type(raw) is not int or raw not in SUMS:
        raise ActionError("bad_sum", "Enter a sum from 2 to 12.")
    return raw


def split_sum(total: int) -> tuple[int, int]:
    """Two faces showing ``total`` (2..12), the first as high as it can be: how a sum entered
    without its dice is kept in a Knister state (only the sum is ever scored)."""
    high = min(6, total - 1)
    return high, total - high


def _face(raw: Any) -> int:
    """One die's face from an int or a digit string; ``ActionError`` ``bad_face`` otherwise."""
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw.strip())
    if type(raw) is not int or raw not in FACES:
        raise ActionError("bad_face", "Each die shows a number from 1 to 6.")
    return raw


def _count_error(count: int) -> ActionError:
    if count == 2:
        return ActionError("dice_count", "Enter exactly two dice, or the sum.")
    return ActionError("dice_count", "Enter exactly five dice.")
