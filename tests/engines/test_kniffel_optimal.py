"""The optimal Kniffel-family strategy (app/engines/kniffel_optimal.py; docs/rules.md, Kniffel
family and "Verified values").

Yatzy and Kniffel are solved once per session (about 8 s and 3 s of one core); other rules and
house rules through solve_from on cards with a few open boxes. Expected values are checked
against published numbers, exact fractions and an independent brute force (kniffel_brute.py).
"""

from collections import Counter
from fractions import Fraction
from itertools import product
from math import factorial, prod

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engines import kniffel_optimal as ko
from app.engines.kniffel import RULESETS, UPPER_BOXES, BadDice, Scorecard, ScorecardError
from tests.engines import kniffel_brute as brute

SCRATCH = (1, 2, 3, 4, 6)  # four in a row (a small straight in Kniffel), nothing else of note
HOUSE_RULES = [
    {},
    {"joker": False},
    {"five_alike_full_house": True},
    {"extra_bonus": False},
    {"joker": False, "five_alike_full_house": True, "extra_bonus": False},
]
SLOW = settings(max_examples=15, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="session")
def yatzy() -> ko.Strategy:
    return ko.solve("yatzy")


@pytest.fixture(scope="session")
def kniffel() -> ko.Strategy:
    return ko.solve("kniffel")


def card_with(ruleset: str, filled: dict, **house) -> Scorecard:
    """A card whose given boxes hold what the given dice score there: {box: dice}."""
    card = Scorecard(ruleset, **house)
    for box, dice in filled.items():
        card.fill(box, dice)
    return card


def all_but(ruleset: str, open_boxes: set[str], dice=SCRATCH, **house) -> Scorecard:
    """A card with every box but open_boxes filled with the same dice."""
    card = Scorecard(ruleset, **house)
    return card_with(ruleset, {b: dice for b in card.boxes if b not in open_boxes}, **house)


def chance_of(dice: tuple[int, ...]) -> Fraction:
    """Probability that five dice show this multiset (5! / prod(count!) / 6^5)."""
    ways = factorial(5) // prod(factorial(c) for c in Counter(dice).values())
    return Fraction(ways, 6**5)


# --- random cards ------------------------------------------------------------------------

dice_strategy = st.one_of(
    st.lists(st.integers(1, 6), min_size=5, max_size=5),
    st.integers(1, 6).map(lambda face: [face] * 5),  # five alike: 50s, jokers, extra bonuses
    st.tuples(st.integers(1, 6), st.integers(2, 4)).map(lambda f: [f[0]] * f[1] + [1] * (5 - f[1])),
)


@st.composite
def cards(draw, ruleset: str, house: dict | None = None, min_open: int = 1, max_open: int = 99):
    """A card reached by writing random (often five-alike or face-heavy) dice into random boxes."""
    card = Scorecard(ruleset, **(house or {}))
    order = draw(st.permutations(list(card.boxes)))
    lowest = max(0, len(order) - max_open)
    for box in order[: draw(st.integers(lowest, len(order) - min_open))]:
        card.fill(box, draw(dice_strategy))
    return card


# --- published and exact values -----------------------------------------------------------


def test_yatzy_expected_score_is_the_published_248_439989(yatzy):
    # Scandinavian Yatzy, 15 boxes, bonus 50 at 63: 248.4399894 (two independent solvers).
    assert yatzy.expected_score == pytest.approx(248.439989, abs=1e-6)
    assert yatzy.value(Scorecard("yatzy")) == yatzy.expected_score


def test_kniffel_expected_score_is_250_099292(kniffel):
    # Our own number, confirmed by simulation (bench/kniffel_strategy.py, docs/rules.md).
    assert kniffel.expected_score == pytest.approx(250.099292, abs=1e-6)


def test_only_chance_left_is_worth_70_thirds_more(yatzy):
    # One die, best play: 3 rolls are worth 14/3 (keep 5 or 6, then keep 4-6, then any): x5.
    card = all_but("yatzy", {"chance"})
    assert yatzy.value(card) == pytest.approx(card.total + 70 / 3, abs=1e-9)


def test_only_the_yahtzee_box_left_is_worth_50_times_the_chance_of_five_alike(yatzy):
    # P(five alike in three throws, keeping the most common face) = 2,783,176 / 60,466,176.
    card = all_but("yatzy", {"yahtzee"})
    assert yatzy.value(card) == pytest.approx(card.total + 50 * 2783176 / 60466176, abs=1e-9)


# --- brute force: one and two boxes left ---------------------------------------------------

ONE_BOX_CASES = [
    # (ruleset, house rules, open box, dice written into every other box)
    ("kniffel", {}, "sixes", (4, 4, 4, 5, 5)),  # upper 12+15=27 of 63: bonus out of reach
    ("kniffel", {}, "full_house", (6, 6, 6, 6, 6)),  # yahtzee 50: a joker is 25 + 50 extra
    ("kniffel", {"joker": False}, "large_straight", (6, 6, 6, 6, 6)),  # extra 50, straight 0
    ("kniffel", {"five_alike_full_house": True}, "full_house", (2, 2, 2, 3, 3)),
    ("kitkniff", {}, "small_straight", (5, 5, 5, 5, 5)),  # extra bonus 100
    ("kitkniff", {"extra_bonus": False}, "small_straight", (5, 5, 5, 5, 5)),
    ("yatzy", {}, "two_pairs", SCRATCH),
    ("yatzy", {"five_alike_full_house": True}, "full_house", SCRATCH),
]


@pytest.mark.parametrize(("ruleset", "house", "box", "dice"), ONE_BOX_CASES)
def test_one_box_left_equals_brute_force(ruleset, house, box, dice):
    card = all_but(ruleset, {box}, dice, **house)
    assert ko.solve_from(card).value(card) == pytest.approx(brute.one_box_left(card), abs=1e-9)


def test_last_sixes_reach_the_bonus_with_three_sixes(kniffel):
    # ones..fives hold 45: three sixes (18) make 63 and the +35 bonus.
    upper = {"ones": (1, 1, 1, 2, 2), "twos": (2, 2, 2, 1, 1), "threes": (3, 3, 3, 1, 1),
             "fours": (4, 4, 4, 1, 1), "fives": (5, 5, 5, 1, 1)}
    lower = {box: SCRATCH for box in RULESETS["kniffel"].boxes if box not in UPPER_BOXES}
    card = card_with("kniffel", {**upper, **lower})
    assert card.upper_total == 45 and brute.open_boxes(card) == ["sixes"]
    expected = brute.one_box_left(card)
    assert kniffel.value(card) == pytest.approx(expected, abs=1e-9)
    assert ko.solve_from(card).value(card) == pytest.approx(expected, abs=1e-9)


def test_yahtzee_scratched_still_gives_the_joker_without_extra_bonus(kniffel):
    card = all_but("kniffel", {"full_house"}, (3, 3, 3, 3, 3))
    scratched = card_with("kniffel", {**{b: (3, 3, 3, 3, 3) for b in card.boxes
                                         if b not in ("full_house", "yahtzee")},
                                      "yahtzee": SCRATCH})
    assert kniffel.rank_boxes(scratched, (2, 2, 2, 2, 2)) == [
        ("full_house", pytest.approx(scratched.total + 25))]
    assert kniffel.value(scratched) == pytest.approx(brute.one_box_left(scratched), abs=1e-9)
    assert kniffel.value(card) == pytest.approx(brute.one_box_left(card), abs=1e-9)


TWO_BOX_CASES = [
    # ones and yahtzee open with 60 in twos..sixes: three ones make the bonus
    ("kniffel", {"twos": (2, 2, 2, 2, 1), "threes": (3, 3, 3, 3, 1), "fours": (4, 4, 4, 1, 1),
                 "fives": (5, 5, 5, 1, 1), "sixes": (6, 6, 6, 1, 1)}, {"ones", "yahtzee"}),
    ("yatzy", {}, {"yahtzee", "large_straight"}),
]


@pytest.mark.parametrize(("ruleset", "upper", "open_boxes"), TWO_BOX_CASES)
def test_two_boxes_left_equal_brute_force(ruleset, upper, open_boxes, yatzy, kniffel):
    full = {"yatzy": yatzy, "kniffel": kniffel}[ruleset]
    rest = {b: SCRATCH for b in RULESETS[ruleset].boxes if b not in open_boxes and b not in upper}
    card = card_with(ruleset, {**upper, **rest})
    assert set(brute.open_boxes(card)) == open_boxes
    expected = brute.two_boxes_left(card)
    assert full.value(card) == pytest.approx(expected, abs=1e-9)
    assert ko.solve_from(card).value(card) == pytest.approx(expected, abs=1e-9)


# --- agreement with Scorecard ----------------------------------------------------------------


@pytest.mark.parametrize("house", HOUSE_RULES)
@pytest.mark.parametrize("ruleset", ["kniffel", "kitkniff", "yatzy"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_points_per_box_equal_scorecard_options(ruleset, house, data):
    rules = ko.rules_for(ruleset, **house)
    strategy = ko.Strategy(rules, np.zeros(rules.shape))  # points() needs no solved values
    card = data.draw(cards(ruleset, house))
    dice = data.draw(dice_strategy)
    assert strategy.points(card, dice) == card.options(dice)


@SLOW
@given(card=cards("kniffel"), dice=dice_strategy)
def test_each_box_is_worth_the_value_of_the_card_it_makes(kniffel, card, dice):
    # Immediate points, upper bonus, joker and extra bonus as Scorecard.fill/total count them.
    for box, value in kniffel.rank_boxes(card, dice):
        after = card.copy()
        after.fill(box, dice)
        assert value == pytest.approx(kniffel.value(after), abs=1e-9)


@pytest.mark.parametrize("house", HOUSE_RULES)
@pytest.mark.parametrize("ruleset", ["kitkniff", "yatzy"])
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_house_rule_boxes_are_worth_the_card_they_make(ruleset, house, data):
    card = data.draw(cards(ruleset, house, min_open=2, max_open=5))
    strategy = ko.solve_from(card)
    dice = data.draw(dice_strategy)
    for box, value in strategy.rank_boxes(card, dice):
        after = card.copy()
        after.fill(box, dice)
        assert value == pytest.approx(strategy.value(after), abs=1e-9)


# --- the turn: keeps and boxes are consistent with each other ---------------------------


@SLOW
@given(card=cards("kniffel"))
def test_value_is_the_average_first_roll_played_best(kniffel, card):
    expected = sum(float(chance_of(roll)) * kniffel.best_keep(card, roll, 2)[1]
                   for roll in {tuple(sorted(d)) for d in product(range(1, 7), repeat=5)})
    assert kniffel.value(card) == pytest.approx(expected, abs=1e-9)


@SLOW
@given(card=cards("yatzy", min_open=1), dice=dice_strategy, pick=st.integers(0, 31))
def test_a_keep_before_the_last_roll_is_worth_the_average_best_box(yatzy, card, dice, pick):
    ranked = yatzy.rank_keeps(card, dice, 1)
    keep, value = ranked[pick % len(ranked)]
    outcomes = list(product(range(1, 7), repeat=5 - len(keep)))
    average = sum(yatzy.best_box(card, keep + o)[1] for o in outcomes) / len(outcomes)
    assert value == pytest.approx(average, abs=1e-9)


@SLOW
@given(card=cards("kniffel", min_open=1), dice=dice_strategy, pick=st.integers(0, 31))
def test_a_keep_before_the_second_roll_is_worth_the_average_best_next_keep(kniffel, card, dice,
                                                                           pick):
    ranked = kniffel.rank_keeps(card, dice, 2)
    keep, value = ranked[pick % len(ranked)]
    outcomes = list(product(range(1, 7), repeat=5 - len(keep)))
    average = sum(kniffel.best_keep(card, keep + o, 1)[1] for o in outcomes) / len(outcomes)
    assert value == pytest.approx(average, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(card=cards("kniffel"), dice=dice_strategy, rolls_left=st.sampled_from([1, 2]))
def test_rank_keeps_lists_every_sub_multiset_once_best_first(kniffel, card, dice, rolls_left):
    ranked = kniffel.rank_keeps(card, dice, rolls_left)
    keeps = [keep for keep, _ in ranked]
    counts = Counter(dice)
    assert len(keeps) == len(set(keeps)) == prod(c + 1 for c in counts.values())
    assert all(Counter(keep) <= counts and list(keep) == sorted(keep) for keep in keeps)
    values = [value for _, value in ranked]
    assert values == sorted(values, reverse=True)
    assert kniffel.best_keep(card, dice, rolls_left) == ranked[0]


@settings(max_examples=60, deadline=None)
@given(card=cards("kniffel"), dice=dice_strategy)
def test_best_box_is_open_and_the_best_of_rank_boxes(kniffel, card, dice):
    ranked = kniffel.rank_boxes(card, dice)
    assert sorted(box for box, _ in ranked) == sorted(brute.open_boxes(card))
    values = [value for _, value in ranked]
    assert values == sorted(values, reverse=True)
    assert kniffel.best_box(card, dice) == ranked[0]


@settings(max_examples=60, deadline=None)
@given(card=cards("kniffel"), dice=dice_strategy)
def test_another_roll_never_hurts(kniffel, card, dice):
    # Keeping all five dice is always allowed, so a roll more is worth at least as much.
    two, one = kniffel.best_keep(card, dice, 2)[1], kniffel.best_keep(card, dice, 1)[1]
    assert two >= one - 1e-9 and one >= kniffel.best_box(card, dice)[1] - 1e-9
    assert kniffel.value(card) >= card.total


# --- errors ------------------------------------------------------------------------------


def test_bad_arguments_are_refused(kniffel, yatzy):
    card = Scorecard("kniffel")
    with pytest.raises(ValueError, match="rolls_left"):
        kniffel.best_keep(card, SCRATCH, 3)
    with pytest.raises(BadDice):
        kniffel.best_box(card, (1, 2, 3, 4, 7))
    with pytest.raises(BadDice):
        kniffel.best_keep(card, (1, 2, 3, 4), 2)
    with pytest.raises(ValueError, match="kniffel"):
        kniffel.value(Scorecard("yatzy"))
    with pytest.raises(ValueError, match="kniffel"):
        kniffel.value(Scorecard("kniffel", joker=False))
    complete = all_but("yatzy", set())
    assert yatzy.value(complete) == complete.total
    with pytest.raises(ScorecardError):
        yatzy.best_box(complete, SCRATCH)
    with pytest.raises(ValueError, match="unknown ruleset"):
        ko.solve("yahtzee")
    with pytest.raises(TypeError):
        ko.rules_for("kniffel", columns=2)
    with pytest.raises(ValueError, match="shape"):
        ko.Strategy(ko.rules_for("kniffel"), np.zeros(ko.rules_for("yatzy").shape))


def test_a_strategy_from_a_card_refuses_cards_with_more_open_boxes():
    card = all_but("kniffel", {"chance", "ones"})
    strategy = ko.solve_from(card)
    with pytest.raises(ValueError, match="fewer open boxes"):
        strategy.value(Scorecard("kniffel"))
    with pytest.raises(ValueError, match="complete"):
        ko.solve_from(all_but("kniffel", set()))


def test_kniffel_without_extra_bonus_shares_kitkniffs_tables():
    # Same boxes, points and bonus once no extra bonus is paid: one table serves both.
    assert ko.rules_for("kniffel", extra_bonus=False).digest == \
        ko.rules_for("kitkniff", extra_bonus=False).digest
    assert ko.rules_for("kniffel").digest != ko.rules_for("kitkniff").digest
