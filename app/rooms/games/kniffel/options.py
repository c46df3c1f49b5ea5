"""Kniffel-family room options: their defaults and the check of the host's lobby form.

Rules: docs/rules.md, "Kniffel family" ("House rules") and rule text 004, "Häufige Hausregeln".
"""

from __future__ import annotations

from typing import Any

from app.engines.kniffel import RULESETS
from app.rooms.games.base import OptionError, parse_int_options
from app.rooms.games.real_dice import parse_dice_mode

TIMER_CHOICES = (0, 60, 120)
MAX_COLUMNS = 6  # rule text 004, "Mehrere Spalten": a block has six columns
_TRUE = ("1", "true", "on", "yes")
_FALSE = ("0", "false", "off", "no", "")


def default_options() -> dict[str, Any]:
    """One column, no turn timer, joker on, five alike not a full house, extra bonus on
    (docs/rules.md, Kniffel family: house rules all off by default, extra bonus on), hints
    off ("Hints and game analysis"), dice on screen ("Table mode")."""
    return {"joker": True, "five_alike_full_house": False, "extra_bonus": True,
            "columns": 1, "timer": 0, "hints": False, "dice": "screen"}


def parse_options(kind: str, form: dict[str, Any]) -> dict[str, Any]:
    """Validate the lobby form of a ``kind`` room (``kniffel``, ``kitkniff``, ``yatzy``):
    see ``KniffelGame.parse_options``. Raises ``OptionError`` naming the bad field."""
    options = parse_int_options(form, default_options(), (
        ("columns", range(1, MAX_COLUMNS + 1)), ("timer", TIMER_CHOICES)))
    switches = ["five_alike_full_house", "hints"]
    if RULESETS[kind].joker:
        switches.append("joker")
    if kind == "kitkniff":
        switches.append("extra_bonus")
    for key in switches:
        if key in form:
            options[key] = _switch(key, form[key])
    return parse_dice_mode(form, options)


def _last(value: Any) -> Any:
    """A form value; for a repeated field (a list) its last value."""
    if isinstance(value, list | tuple):
        return value[-1] if value else ""
    return value


def _switch(key: str, raw: Any) -> bool:
    """A checkbox value as a bool; ``OptionError(key)`` when it is not one."""
    value = _last(raw)
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise OptionError(key)
