"""A bot's next move in a running room game, as the message a page would send (docs/rules.md,
"Bots"): the engines' bots choose (``knister_bot.choose_cell``, ``kniffel_bot.next_step``),
this turns their choice into ``{"type": ..., basis fields..., ...}`` for ``RoomService.act``.

Each move has an action id fixed by the state it was decided on (game, last event, seat), so
the same move sent twice, by one process or two, is applied once (the room service's
duplicate check), and a move decided on a state that is gone is refused (basis check).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.engines.kniffel_bot import decision_rng, next_step
from app.engines.kniffel_optimal import Strategy
from app.engines.knister_bot import choose_cell
from app.rooms.games.kniffel.state import KniffelState
from app.rooms.games.knister.state import KnisterState
from app.rooms.rules import required_basis
from app.rooms.state import RoomState

Strategies = Callable[[str, dict[str, Any]], Strategy | None]
"""``strategies(ruleset, room options)``: the optimal strategy, None while it is being built
(``StrategyTables.for_options``)."""


def _knister(state: KnisterState, seat: int, level: str, rng_key: str) -> dict[str, Any] | None:
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
                           decision_rng(rng_key), level=level)
        return {"type": "place", "cell": list(cell)}
    if state.roller == seat and len(state.rolls) < 25:
        return {"type": "roll"}
    return None


def _kniffel(state: KniffelState, seat: int, level: str, rng_key: str,
             strategy: Strategy | None) -> dict[str, Any] | None:
    if state.over or state.current != seat:
        return None
    card = state.card(seat)
    if card is None:
        return None
    turn = state.turn
    step = next_step(card, turn.dice, turn.held, turn.rolls, strategy, level,
                     decision_rng(rng_key, state.turn_no, turn.rolls))
    if step.kind == "hold":
        return {"type": "hold", "die": step.die, "held": step.held}
    if step.kind == "score":
        return {"type": "score", "box": step.box, "column": state.column_of(seat)}
    return {"type": "roll"}


def next_move(state: RoomState, seat: int, level: str,
              strategies: Strategies) -> tuple[str, dict[str, Any]] | None:
    """``(action_id, message)`` of ``seat``'s next move at ``level`` in the running game of
    ``state``, or None when it has nothing to do now. The message carries the basis it was
    decided on. Rules: docs/rules.md, "Bots"."""
    game, game_state = state.game, state.game_state
    if game is None or game_state is None or state.status != "playing":
        return None
    key = f"{game.id}.{seat}"
    message: dict[str, Any] | None
    if isinstance(game_state, KnisterState):
        message = _knister(game_state, seat, level, f"{key}.{state.last_seq}")
    elif isinstance(game_state, KniffelState):
        strategy = strategies(game_state.ruleset, game.options)
        message = _kniffel(game_state, seat, level, key, strategy)
    else:
        return None
    if message is None:
        return None
    message.update(required_basis(state, message["type"]))
    return f"bot.{game.id}.{state.last_seq}.{seat}", message
