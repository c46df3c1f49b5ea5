"""A room's pace (docs/rules.md, "Turn-based rooms"): ``live`` (everyone at the table at
once, the default) or ``turns`` (players take their turn when they like, each within a turn
deadline of ``turn_deadline_hours``: 1, 12, 24 or 72). A lobby option of every game whose
plug-in is ``turn_based`` (all but the Knikkers race).
"""

from __future__ import annotations

from typing import Any

from app.rooms.games.base import OptionError, is_turn_based, parse_int_options

PACES = ("live", "turns")
DEADLINE_HOURS = (1, 12, 24, 72)
DEFAULT_DEADLINE_HOURS = 24


def parse_pace(form: dict[str, Any], options: dict[str, Any], turn_based: bool
               ) -> dict[str, Any]:
    """``{"pace": "live"|"turns", "turn_deadline_hours": 1|12|24|72}`` from the lobby form
    ``form`` (absent: live, 24 h), for a game whose plug-in is ``turn_based`` (otherwise
    always live). ``options``: the game's options parsed from the same form; a turn-based
    room has no seconds timer (its ``timer`` becomes 0) and no real dice (they need everyone
    at one table: its ``dice`` become ``screen``; the lobby hides both then). Raises
    ``OptionError`` naming ``pace`` or ``turn_deadline_hours`` for a value not offered."""
    raw = form.get("pace", "live")
    if isinstance(raw, list | tuple):
        raw = raw[-1] if raw else "live"
    pace = str(raw).strip().lower()
    if pace not in PACES or (pace == "turns" and not turn_based):
        raise OptionError("pace")
    chosen = parse_int_options(form, {"turn_deadline_hours": DEFAULT_DEADLINE_HOURS},
                               (("turn_deadline_hours", DEADLINE_HOURS),))
    if pace == "turns":
        if "dice" in options:
            options["dice"] = "screen"
        if "timer" in options:
            options["timer"] = 0
    return {"pace": pace, **chosen}


__all__ = ["DEADLINE_HOURS", "PACES", "deadline_hours", "is_turn_based", "parse_pace"]


def deadline_hours(options: dict[str, Any]) -> int:
    """The turn deadline in hours of a turn-based room with ``options`` (24 when unset)."""
    hours = options.get("turn_deadline_hours", DEFAULT_DEADLINE_HOURS)
    return hours if hours in DEADLINE_HOURS else DEFAULT_DEADLINE_HOURS
