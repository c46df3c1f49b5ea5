"""Exact optimal solitaire strategy for Kniffel, KitKniff and Yatzy (docs/rules.md, Kniffel family).

"Optimal" means: the most points on average for a player alone at the table (the expected final
total, bonuses included). Method: backward induction over turn states, as in Glenn, "An optimal
strategy for Yahtzee" (2006) and Verhoeff's solitaire Yahtzee pages. A state at the start of a
turn is (open boxes, upper total capped at the bonus threshold, "the yahtzee box holds 50"); its
value is the expected sum of all points still to come. The turn inside (three rolls, keeping any
dice) is solved for thousands of states at once with numpy (app/engines/_kniffel_turn.py).

The rules are exactly those of app/engines/kniffel.py: the points per box are read from
Scorecard.options itself (with and without the yahtzee box filled, which is when the joker
applies), the extra bonus from Scorecard.extra_bonus. Two simplifications, both documented in
docs/rules.md, "Verified values": the KitKniff cap of 900 on extra bonuses is ignored (it changes
the expected score by less than 1e-9), and "several columns" is not solved.

This module answers strategy queries (:class:`Strategy`); the solver's rules and the value table
are built in :mod:`app.engines.kniffel_solver`. Pure: no I/O, no randomness. The cache on disk
lives in app/strategy/tables.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache

import numpy as np

from app.engines import _kniffel_turn as turn
from app.engines.kniffel import YAHTZEE_POINTS, BadDice, Ruleset, Scorecard, ScorecardError
from app.engines.kniffel_solver import (
    SOLVER_VERSION,
    Rules,
    cached_rules,
    extra_bonus_paid,
    follow_values,
    joker_applies,
    layout_of,
    rules_for,
    solve_table,
)

__all__ = ["SOLVER_VERSION", "Rules", "Strategy", "rules_for", "solve", "solve_from",
           "solve_table"]

_TURN_CACHE = 512  # turn solutions kept per Strategy (about 13 KB each)


@dataclass(frozen=True, eq=False)
class _Turn:
    """One state's turn, solved: boxes (len(boxes), 252) final total (minus the card's total)
    for each box and final roll, -inf for filled boxes; last / first (462,) value of each keep
    with one / two re-rolls left."""

    boxes: np.ndarray
    last: np.ndarray
    first: np.ndarray


def _roll_of(dice: Sequence[int]) -> int:
    """Index into turn.ROLLS of five dice in any order; BadDice unless five ints 1..6."""
    try:
        key = tuple(sorted(dice))
    except TypeError:
        key = ()
    if key not in turn.ROLL_INDEX or not all(type(d) is int for d in key):
        raise BadDice(f"dice are five ints 1..6, got {dice!r}")
    return turn.ROLL_INDEX[key]


class Strategy:
    """The optimal solitaire strategy for one game and its house rules (docs/rules.md, Kniffel
    family), answering from a solved value table.

    Args: rules (from rules_for), table (float64 array of rules.shape, from solve_table or the
    disk cache), scope (open-box mask the table was solved for; default all boxes). Raises
    ValueError when the table's shape does not fit the rules.

    Every value is an expected FINAL TOTAL of the card (points already on it included), for a
    player who plays optimally from then on. Methods take a Scorecard of the same game and house
    rules (ValueError otherwise) and dice as five ints 1..6 in any order (BadDice otherwise).
    Safe to share between threads; each Strategy keeps its last 512 solved turns (~7 MB).
    """

    def __init__(self, rules: Rules, table: np.ndarray, scope: int | None = None) -> None:
        if table.shape != rules.shape:
            raise ValueError(f"table shape {table.shape} does not fit {rules.name} {rules.shape}")
        self.rules = rules
        self.table = table
        self.scope = (1 << len(rules.boxes)) - 1 if scope is None else scope
        self._turn = lru_cache(maxsize=_TURN_CACHE)(self._solve_turn)

    @property
    def expected_score(self) -> float:
        """Expected final total from the empty card (from the scope's open boxes with an empty
        upper block, for a Strategy from solve_from), bonuses included."""
        return float(self.table[self.scope, 0, 0])

    def _state(self, card: Scorecard) -> tuple[int, int, int]:
        """(open-box mask, capped upper total, flag) of a card; ValueError if not this game."""
        if not isinstance(card, Scorecard):
            raise ValueError(f"a Scorecard is needed, got {card!r}")
        house = card.house_rules
        rules = cached_rules(card.ruleset, house.joker, house.five_alike_full_house,
                             house.extra_bonus)
        if rules.digest != self.rules.digest:
            raise ValueError(f"this strategy is for {self.rules.name}, not this card's rules")
        boxes = card.boxes
        mask = sum(1 << b for b, box in enumerate(self.rules.boxes) if boxes[box] is None)
        if mask & ~self.scope:
            raise ValueError("this strategy was solved for fewer open boxes than the card has")
        flag = int(self.rules.flags == 2 and boxes["yahtzee"] == YAHTZEE_POINTS)
        return mask, min(card.upper_total, self.rules.threshold), flag

    def value(self, card: Scorecard) -> float:
        """Expected final total of the card from the start of its next turn (its total when the
        card is complete). Raises ValueError for a card of other rules."""
        mask, u, flag = self._state(card)
        return card.total + float(self.table[mask, u, flag])

    def points(self, card: Scorecard, dice: Sequence[int]) -> dict[str, int]:
        """Points the solver credits each open box for these dice, in card order: the same as
        card.options(dice) (a test checks this). Raises BadDice, ValueError."""
        mask, _, _ = self._state(card)
        roll = _roll_of(dice)
        joker = not mask >> self.rules.boxes.index("yahtzee") & 1
        row = (self.rules.joker_points if joker else self.rules.points)[roll]
        return {box: int(row[b]) for b, box in enumerate(self.rules.boxes) if mask >> b & 1}

    def rank_boxes(self, card: Scorecard, dice: Sequence[int]) -> list[tuple[str, float]]:
        """Every open box with the expected final total after writing these dice there (upper
        bonus and extra bonus included), best first (ties: card order).

        Raises ScorecardError when the card is complete, BadDice, ValueError.
        """
        mask, u, flag = self._state(card)
        if not mask:
            raise ScorecardError("the scorecard is complete")
        roll = _roll_of(dice)
        values = self._turn(mask, u, flag).boxes[:, roll]
        ranked = sorted((b for b in range(len(self.rules.boxes)) if mask >> b & 1),
                        key=lambda b: -values[b])
        return [(self.rules.boxes[b], card.total + float(values[b])) for b in ranked]

    def best_box(self, card: Scorecard, dice: Sequence[int]) -> tuple[str, float]:
        """The box to write these dice in and the expected final total then; see rank_boxes."""
        return self.rank_boxes(card, dice)[0]

    def rank_keeps(
        self, card: Scorecard, dice: Sequence[int], rolls_left: int
    ) -> list[tuple[tuple[int, ...], float]]:
        """Every distinct choice of dice to keep (sorted faces; all five = roll no more) with
        the expected final total after keeping them and playing on optimally, best first (ties:
        more dice kept first).

        Args: rolls_left, the re-rolls still allowed this turn: 2 after the first roll, 1 after
        the second. Raises ValueError for another rolls_left or card, ScorecardError when the
        card is complete, BadDice.
        """
        if rolls_left not in (1, 2):
            raise ValueError(f"rolls_left is 1 or 2, got {rolls_left!r}")
        mask, u, flag = self._state(card)
        if not mask:
            raise ScorecardError("the scorecard is complete")
        solved = self._turn(mask, u, flag)
        keep_values = solved.last if rolls_left == 1 else solved.first
        choices = turn.sub_keeps(turn.ROLLS[_roll_of(dice)])
        ranked = sorted(choices, key=lambda k: (-keep_values[k], -len(turn.KEEPS[k])))
        return [(turn.KEEPS[k], card.total + float(keep_values[k])) for k in ranked]

    def best_keep(
        self, card: Scorecard, dice: Sequence[int], rolls_left: int
    ) -> tuple[tuple[int, ...], float]:
        """The dice to keep (sorted faces) and the expected final total then; see rank_keeps."""
        return self.rank_keeps(card, dice, rolls_left)[0]

    def _solve_turn(self, mask: int, u: int, flag: int) -> _Turn:
        """The turn of one state (cached by __init__)."""
        layout = layout_of(self.rules)
        state = (np.array([mask]), np.array([u]), np.array([flag]))
        follow = follow_values(self.rules, self.table, *state)[:, :, 0]
        boxes = follow[np.arange(len(self.rules.boxes))[:, None], layout.outcome]
        boxes += layout.joker_points if joker_applies(self.rules, state[0])[0] else layout.points
        boxes[:, turn.FIVE_ALIKE] += extra_bonus_paid(self.rules, state[2])
        last = turn.keep_values(boxes.max(axis=0)[:, None])
        first = turn.keep_values(turn.best_roll_values(last))
        return _Turn(boxes, last[:, 0], first[:, 0])


def solve(ruleset: str | Ruleset, **house_rules: bool) -> Strategy:
    """Solve a game exactly: the optimal solitaire strategy for a RULESETS name and Scorecard's
    house-rule keywords (joker, five_alike_full_house, extra_bonus).

    Takes about 3 s (Kniffel) to 8 s (Yatzy) of one core and ~60 MB (bench/README.md); the app
    loads cached tables instead (app/strategy/tables.py). Raises as rules_for.
    """
    rules = rules_for(ruleset, **house_rules)
    return Strategy(rules, solve_table(rules))


def solve_from(card: Scorecard) -> Strategy:
    """The optimal strategy for the positions that can follow this card (its open boxes and
    fewer): cheap when few boxes are open. Raises ValueError for a complete card."""
    rules = rules_for(card.ruleset, **asdict(card.house_rules))
    scope = sum(1 << b for b, box in enumerate(rules.boxes) if card.boxes[box] is None)
    if not scope:
        raise ValueError("the card is complete")
    return Strategy(rules, solve_table(rules, scope), scope)
