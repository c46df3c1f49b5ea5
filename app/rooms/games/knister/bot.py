"""Knister's bot (docs/rules.md, "Bots"): the engine's ``knister_bot.choose_cell`` picks the
cell; this turns it, or the roll, into the message a page would send."""

from __future__ import annotations

from typing import Any

from app.engines.kniffel_bot import decision_rng
from app.engines.knister_bot import choose_cell
from app.rooms.games.base import Strategies
from app.rooms.games.knister.state import KnisterState

ROLLS = 25  # a game's rolls (one per cell)


class KnisterBot:
    """The ``GameBot`` of Knister: places the current sum where ``choose_cell`` says, and
    rolls when the table waits for its roll."""

    def move(self, state: KnisterState, seat: int, level: str, key: str, last_seq: int,
             options: dict[str, Any], strategies: Strategies) -> dict[str, Any] | None:
        """``{"type": "place", "cell": [r, c]}``, ``{"type": "roll"}`` or None (see
        ``GameBot.move``); its random choices are seeded by ``key`` and ``last_seq``."""
        if seat not in state.active:
            return None
        if state.roll_pending:
            if seat in state.placed:
                return None
            grid = state.sheets[seat].grid
            filled = sum(v is not None for row in grid for v in row)
            value = state.current_sum
            assert value is not None
            cell = choose_cell(grid, value, filled, state.rules.straight_without_seven,
                               decision_rng(f"{key}.{last_seq}"), level=level)
            return {"type": "place", "cell": list(cell)}
        if state.roller == seat and len(state.rolls) < ROLLS:
            return {"type": "roll"}
        return None
