"""Kniffel family rules as data: the rule sets, house rules, box ids and points per roll.

Sources: rule text 004 (Kniffel), rule text 002 (KitKniff) and
docs/rules.md, section "Kniffel family", which settles every point the seeds leave open and stands
where they differ (noted at the rule). The scorecard and the turn that use these tables are in
:mod:`app.engines.kniffel`. Pure: no I/O, no randomness.
"""

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Literal

from app.engines._dice import longest_run, multiplicities

DICE = 5
FACES = range(1, 7)
MAX_ROLLS = 3  # docs/rules.md, Kniffel family: "at most three rolls in total"
YAHTZEE_POINTS = 50

UPPER_BOXES: tuple[str, ...] = ("ones", "twos", "threes", "fours", "fives", "sixes")
FACE_OF = {box: face for face, box in enumerate(UPPER_BOXES, start=1)}
# The order of the Kniffel / KitKniff block (rule text 004, "Die Punktetabelle").
KNIFFEL_BOXES: tuple[str, ...] = UPPER_BOXES + (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
# The Scandinavian Yatzy block order; one_pair and two_pairs only exist here (docs/rules.md).
YATZY_BOXES: tuple[str, ...] = UPPER_BOXES + (
    "one_pair",
    "two_pairs",
    "three_of_a_kind",
    "four_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "chance",
    "yahtzee",
)
# docs/rules.md, Kniffel family, joker: the fixed values full_house/straights score under the joker.
JOKER_POINTS: dict[str, int] = {"full_house": 25, "small_straight": 30, "large_straight": 40}

Scoring = Literal["kniffel", "yatzy"]


class ScorecardError(ValueError):
    """A move the scorecard refuses; the card is unchanged."""


class UnknownBox(ScorecardError):
    """The box id is not on this ruleset's card."""


class BoxFilled(ScorecardError):
    """The box already holds points (a box is filled once per game; docs/rules.md)."""


class BadDice(ScorecardError):
    """Dice are five ints 1..6."""


class TurnError(ValueError):
    """A roll or hold the turn refuses; the turn is unchanged."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One game of the family (docs/rules.md, Kniffel family).

    name: "kniffel" | "kitkniff" | "yatzy". boxes: the card's box ids in display order.
    scoring: which column of the docs/rules.md points table applies ("kniffel" or "yatzy").
    upper_bonus: points when ones..sixes reach upper_bonus_threshold. joker: whether the joker rule
    exists. extra_bonus_each / extra_bonus_cap: points per further five-alike and their maximum in
    all (0 = no extra bonus; None = uncapped).
    """

    name: str
    boxes: tuple[str, ...]
    scoring: Scoring
    upper_bonus: int
    joker: bool
    extra_bonus_each: int
    extra_bonus_cap: int | None
    upper_bonus_threshold: int = 63


RULESETS: dict[str, Ruleset] = {
    # rule text 004, "Die Punktetabelle", "Der 63er-Bonus", "Zweiter Kniffel"; docs/rules.md.
    "kniffel": Ruleset("kniffel", KNIFFEL_BOXES, "kniffel", 35, True, 50, None),
    # rule text 002, "Prämie - Bonus", "Kniffel als Joker", "Weitere KitKniff-Würfe"; docs/rules.md.
    "kitkniff": Ruleset("kitkniff", KNIFFEL_BOXES, "kniffel", 35, True, 100, 900),
    # rule text 004, "Häufige Hausregeln: Absteigend (Yatzy-Stil)"; docs/rules.md (+50 bonus,
    # no joker).
    "yatzy": Ruleset("yatzy", YATZY_BOXES, "yatzy", 50, False, 0, None),
}


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Room options (docs/rules.md, Kniffel family, house rules; rule text 004, "Häufige
    Hausregeln").

    joker: False = "no joker": full house and straights score only what the dice show; the extra
    bonus is still paid. five_alike_full_house: "Kniffel als Full House". extra_bonus: the KitKniff
    seed's "Administration" switch; False pays no extra bonus (in any ruleset).
    """

    joker: bool = True
    five_alike_full_house: bool = False
    extra_bonus: bool = True

    def __post_init__(self) -> None:
        if not all(isinstance(v, bool) for v in asdict(self).values()):
            raise ValueError(f"house rules are True or False: {self!r}")


def _kniffel_points(dice: tuple[int, ...], five_alike_full_house: bool) -> dict[str, int]:
    """docs/rules.md, Kniffel / KitKniff column; rule texts 004 ("Die Punktetabelle") and
    002."""
    shape, total, run = multiplicities(dice), sum(dice), longest_run(dice)
    full_house = shape == (3, 2) or (five_alike_full_house and shape == (5,))
    return {
        **{box: face * dice.count(face) for box, face in FACE_OF.items()},
        "three_of_a_kind": total if shape[0] >= 3 else 0,
        "four_of_a_kind": total if shape[0] >= 4 else 0,
        "full_house": JOKER_POINTS["full_house"] if full_house else 0,
        "small_straight": JOKER_POINTS["small_straight"] if run >= 4 else 0,
        "large_straight": JOKER_POINTS["large_straight"] if run == 5 else 0,
        "yahtzee": YAHTZEE_POINTS if shape == (5,) else 0,
        "chance": total,
    }


def _yatzy_points(dice: tuple[int, ...], five_alike_full_house: bool) -> dict[str, int]:
    """docs/rules.md, Yatzy column (sums of the dice that make the pattern); dice sorted."""
    shape, total = multiplicities(dice), sum(dice)
    pairs = sorted({face for face in dice if dice.count(face) >= 2}, reverse=True)

    def of_a_kind(n: int) -> int:
        faces = [face for face in dice if dice.count(face) >= n]
        return n * max(faces) if faces else 0

    full_house = shape == (3, 2) or (five_alike_full_house and shape == (5,))
    return {
        **{box: face * dice.count(face) for box, face in FACE_OF.items()},
        "one_pair": 2 * pairs[0] if pairs else 0,
        "two_pairs": 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0,
        "three_of_a_kind": of_a_kind(3),
        "four_of_a_kind": of_a_kind(4),
        "full_house": total if full_house else 0,
        "small_straight": 15 if dice == (1, 2, 3, 4, 5) else 0,
        "large_straight": 20 if dice == (2, 3, 4, 5, 6) else 0,
        "yahtzee": YAHTZEE_POINTS if shape == (5,) else 0,
        "chance": total,
    }


_POINTS = {"kniffel": _kniffel_points, "yatzy": _yatzy_points}
# The 252 distinct rolls, as sorted tuples.
ROLLS: frozenset[tuple[int, ...]] = frozenset(combinations_with_replacement(FACES, DICE))


@cache
def points_table(
    scoring: Scoring, five_alike_full_house: bool
) -> dict[tuple[int, ...], dict[str, int]]:
    """Sorted roll -> {box: points} for every box of the scoring style."""
    return {dice: _POINTS[scoring](dice, five_alike_full_house) for dice in ROLLS}


@cache
def joker_table(
    scoring: Scoring, five_alike_full_house: bool
) -> dict[tuple[int, ...], dict[str, int]]:
    """The six five-alike rolls with the joker's fixed values (docs/rules.md, joker)."""
    table = points_table(scoring, five_alike_full_house)
    return {(face,) * DICE: table[(face,) * DICE] | JOKER_POINTS for face in FACES}


def dice_key(dice: Iterable[int]) -> tuple[int, ...]:
    """Dice as a sorted tuple; BadDice unless five ints 1..6."""
    try:
        key = tuple(sorted(dice))
        valid = key in ROLLS
    except TypeError:
        valid = False
    if not valid or not all(type(d) is int for d in key):
        raise BadDice(f"dice are five ints 1..6, got {dice!r}")
    return key
