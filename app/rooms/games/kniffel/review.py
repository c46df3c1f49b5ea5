"""The Kniffel family's ``GameReview`` (``app.rooms.games.capabilities``): hints for the player
on turn and the analysis of a finished game, from the optimal strategy (docs/rules.md, "Hints
and game analysis"). Pure: the strategy comes in as an argument."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.engines.kniffel import Scorecard
from app.engines.kniffel_optimal import Strategy
from app.rooms.games.base import Event
from app.rooms.games.kniffel.analysis import GameAnalysis, analyse
from app.rooms.games.kniffel.hints import Hint, hint
from app.rooms.games.kniffel.state import KniffelState


@dataclass(frozen=True)
class HintPosition:
    """What a hint is computed on: a copy of the ``card`` being filled, the ``dice`` on the
    table, which are ``held``, and the turn's ``rolls`` so far (1..3)."""

    card: Scorecard
    dice: tuple[int, ...]
    held: tuple[bool, ...]
    rolls: int


class KniffelReview:
    """Hints and analyses of a Kniffel-family game (``capabilities.GameReview``)."""

    hint_template = "rooms/kniffel/_hint.html"
    review_template = "rooms/kniffel/review.html"

    def on_turn(self, state: KniffelState, seat_id: int) -> bool:
        """True when ``seat_id`` takes the current turn."""
        return state.current == seat_id

    def position(self, state: KniffelState, seat_id: int) -> HintPosition | None:
        """The ``HintPosition`` of ``seat_id``'s turn; None before its first roll or without a
        card to fill."""
        turn, card = state.turn, state.card(seat_id)
        if not turn.rolls or card is None:
            return None
        return HintPosition(card.copy(), tuple(turn.dice), tuple(turn.held), turn.rolls)

    def hint_context(self, state: KniffelState) -> dict[str, Any]:
        """The turn number, the turn's rolls, the columns and the rule set."""
        return {"turn": state.turn_no, "rolls": state.turn.rolls, "columns": state.columns,
                "ruleset": state.ruleset}

    def hint(self, strategy: Strategy, position: HintPosition) -> Hint:
        """``hints.hint`` for ``position``; raises as it does."""
        return hint(strategy, position.card, position.dice, position.held, position.rolls)

    def analyse(self, strategy: Strategy, kind: str, options: dict[str, Any],
                seat_ids: Sequence[int], events: Sequence[Event]) -> GameAnalysis:
        """``analysis.analyse`` of the finished game."""
        return analyse(strategy, kind, options, seat_ids, list(events))
