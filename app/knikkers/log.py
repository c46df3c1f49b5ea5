"""A Knikkers game's stored shape: its options and its event log, and the engine state they give.

``games`` row: kind ``knikkers``, ``seed``, ``options`` = ``{"min_line": 5|4, "daily":
"YYYY-MM-DD"|None}`` plus, for test positions only, ``"start": {"board": 9x9, "upcoming": [3]}``.
``game_events`` rows: ``type`` ``move`` with payload ``{"src": [r, c], "dst": [r, c]}`` or ``undo``
with ``{}``, ``seq`` from 1. The state is always ``Game.replay`` over that log (README: "every
state is the engine folded over them").
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from app.engines import knikkers as engine
from app.store.models import Game, GameEvent

Start = tuple[list[list[int | None]], list[int]]


def game_options(variant: int, daily: date | None = None, start: Start | None = None) -> dict:
    """The ``options`` JSON of a new game (see the module docstring)."""
    options: dict[str, Any] = {
        "min_line": variant,
        "daily": daily.isoformat() if daily else None,
    }
    if start is not None:
        board, upcoming = start
        options["start"] = {"board": [list(row) for row in board], "upcoming": list(upcoming)}
    return options


def variant_of(row: Game) -> int:
    """The game's variant (its minimum line length, 5 or 4)."""
    return int(row.options.get("min_line", 5))


def daily_of(row: Game) -> date | None:
    """The date of the daily seed this game plays, or None for an ordinary game."""
    value = row.options.get("daily")
    return date.fromisoformat(value) if value else None


def start_of(row: Game) -> Start | None:
    """The stored start position ``(board, upcoming)`` of a test-position game, else None."""
    start = row.options.get("start")
    if not start:
        return None
    return start["board"], start["upcoming"]


def event_action(event: GameEvent) -> dict[str, Any]:
    """One stored event as an engine action dict (``{"type": "move", "src", "dst"}`` / undo)."""
    if event.type == "move":
        return {"type": "move", "src": event.payload["src"], "dst": event.payload["dst"]}
    return {"type": event.type}


def counted_moves(actions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves that count, in order: ``actions`` (engine action dicts, moves and undos as
    stored) with every undone move and its undo left out. Replaying them gives the same
    position as the whole log, because an undo puts back the spawn position too (docs/rules.md,
    Knikkers: Undo), so the replay viewer shows exactly ``moves`` steps."""
    kept: list[dict[str, Any]] = []
    for action in actions:
        if action["type"] == "undo":
            if kept:
                kept.pop()
        else:
            kept.append(action)
    return kept


def rebuild(row: Game, actions: Sequence[Any]) -> engine.Game:
    """The engine state after ``actions`` (engine action forms) from the game's seed.

    Raises ``engine.IllegalMove`` if the log holds an action the rules refuse (a corrupt log).
    """
    return engine.Game.replay(row.seed or 0, variant_of(row), actions, start=start_of(row))
