"""Brute force for a Kniffel-family card with one or two open boxes, independent of the solver.

Every throw is enumerated as ordered dice (6^n equally likely outcomes), every choice of dice to
keep as a subset of die positions, and every final total comes from Scorecard.fill and
Scorecard.total: no multiset probabilities, no tables shared with app/engines/kniffel_optimal.
"""

from collections.abc import Callable
from functools import cache
from itertools import combinations, product

from app.engines.kniffel import Scorecard

DICE = 5


def best_turn(final: Callable[[tuple[int, ...]], float]) -> float:
    """Expected value of one turn of three throws, played to maximise final(sorted dice)."""

    @cache
    def keep_value(rerolls: int, kept: tuple[int, ...]) -> float:
        outcomes = list(product(range(1, 7), repeat=DICE - len(kept)))
        return sum(roll_value(rerolls, tuple(sorted(kept + o))) for o in outcomes) / len(outcomes)

    @cache
    def roll_value(rerolls: int, dice: tuple[int, ...]) -> float:
        if rerolls == 0:
            return final(dice)
        return max(
            keep_value(rerolls - 1, tuple(dice[i] for i in chosen))
            for size in range(DICE + 1)
            for chosen in combinations(range(DICE), size)
        )

    return keep_value(2, ())


def open_boxes(card: Scorecard) -> list[str]:
    """The boxes of the card still open, in card order."""
    return [box for box, points in card.boxes.items() if points is None]


def filled(card: Scorecard, box: str, dice: tuple[int, ...]) -> Scorecard:
    """A copy of the card with the dice written into box."""
    after = card.copy()
    after.fill(box, dice)
    return after


def one_box_left(card: Scorecard) -> float:
    """Expected final total of a card with exactly one open box, played optimally."""
    (box,) = open_boxes(card)
    return best_turn(lambda dice: filled(card, box, dice).total)


def two_boxes_left(card: Scorecard) -> float:
    """Expected final total of a card with exactly two open boxes, played optimally: each final
    roll goes where the brute-forced last turn is worth most."""
    first, second = open_boxes(card)
    memo: dict[str, float] = {}

    def after(box: str, dice: tuple[int, ...]) -> float:
        card_after = filled(card, box, dice)
        key = repr(card_after.to_dict()["boxes"]) + repr(card_after.extra_yahtzees)
        if key not in memo:
            memo[key] = one_box_left(card_after)
        return memo[key]

    return best_turn(lambda dice: max(after(first, dice), after(second, dice)))
