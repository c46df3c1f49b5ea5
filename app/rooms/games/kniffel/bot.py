"""The Kniffel family's bot (docs/rules.md, "Bots"): the engine's ``kniffel_bot.next_step``
(the optimal strategy for the strong bot) decides; this turns its step into the message a
page would send."""

from __future__ import annotations

from typing import Any

from app.engines.kniffel_bot import decision_rng, next_step
from app.rooms.games.base import Strategies
from app.rooms.games.kniffel.state import KniffelState


class KniffelBot:
    """The ``GameBot`` of the Kniffel family: holds, rolls and scores as ``next_step``
    says for the dice of its turn."""

    def move(self, state: KniffelState, seat: int, level: str, key: str, last_seq: int,
             options: dict[str, Any], strategies: Strategies) -> dict[str, Any] | None:
        """``{"type": "hold"|"roll"|"score", ...}`` or None when it is not ``seat``'s turn
        (see ``GameBot.move``); ``strategies`` gives the rule set's optimal strategy for the
        game's ``options`` (None while it is built: the bot plays by rule of thumb). Random
        choices are seeded by ``key``, the turn and the rolls made."""
        if state.over or state.current != seat:
            return None
        card = state.card(seat)
        if card is None:
            return None
        turn = state.turn
        strategy = strategies(state.ruleset, options)
        step = next_step(card, turn.dice, turn.held, turn.rolls, strategy, level,
                         decision_rng(key, state.turn_no, turn.rolls))
        if step.kind == "hold":
            return {"type": "hold", "die": step.die, "held": step.held}
        if step.kind == "score":
            return {"type": "score", "box": step.box, "column": state.column_of(seat)}
        return {"type": "roll"}
