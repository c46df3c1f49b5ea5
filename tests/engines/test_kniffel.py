"""Kniffel family rules (docs/rules.md, Kniffel family; seeds 004_158bafdd44373e34.txt, 002_...)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engines.kniffel import (
    RULESETS,
    UPPER_BOXES,
    BadDice,
    BoxFilled,
    Scorecard,
    ScorecardError,
    Turn,
    TurnError,
    UnknownBox,
    auto_box,
)

SCRATCH = [1, 2, 3, 4, 6]  # not five alike: writes 0 into the yahtzee box


def kniffel(dice, box):
    return Scorecard("kniffel").options(dice)[box]


def yatzy(dice, box):
    return Scorecard("yatzy").options(dice)[box]


def card_with(ruleset, filled, **house_rules):
    """A card whose given boxes hold whatever the given dice score: {box: dice}."""
    card = Scorecard(ruleset, **house_rules)
    for box, dice in filled.items():
        card.fill(box, dice)
    return card


# --- rulesets ---


def test_kniffel_and_kitkniff_have_13_boxes_and_yatzy_15():
    assert [len(RULESETS[name].boxes) for name in ("kniffel", "kitkniff", "yatzy")] == [13, 13, 15]


def test_yatzy_alone_has_one_pair_and_two_pairs():
    assert {"one_pair", "two_pairs"} <= set(RULESETS["yatzy"].boxes)
    assert "one_pair" not in RULESETS["kniffel"].boxes


def test_upper_bonus_is_35_in_kniffel_and_kitkniff_and_50_in_yatzy():
    assert [RULESETS[n].upper_bonus for n in ("kniffel", "kitkniff", "yatzy")] == [35, 35, 50]
    assert {r.upper_bonus_threshold for r in RULESETS.values()} == {63}


def test_yatzy_has_no_joker():
    assert [RULESETS[n].joker for n in ("kniffel", "kitkniff", "yatzy")] == [True, True, False]


# --- Kniffel / KitKniff column of the table (seed 004 examples) ---


@pytest.mark.parametrize(
    ("dice", "box", "points"),
    [
        ([1, 1, 1, 4, 6], "ones", 3),
        ([2, 2, 5, 5, 6], "twos", 4),
        ([3, 3, 3, 3, 1], "threes", 12),
        ([4, 4, 4, 2, 6], "fours", 12),
        ([5, 5, 1, 2, 3], "fives", 10),
        ([6, 6, 6, 6, 3], "sixes", 24),
    ],
)
def test_upper_box_scores_the_sum_of_that_face(dice, box, points):
    assert kniffel(dice, box) == points
    assert yatzy(dice, box) == points


def test_kniffel_three_of_a_kind_scores_all_five_dice():
    assert kniffel([6, 6, 6, 3, 1], "three_of_a_kind") == 22


def test_kniffel_three_of_a_kind_needs_three_alike():
    assert kniffel([6, 6, 3, 3, 1], "three_of_a_kind") == 0


def test_kniffel_four_alike_also_counts_as_three_of_a_kind():
    assert kniffel([3, 3, 3, 3, 5], "three_of_a_kind") == 17


def test_kniffel_four_of_a_kind_scores_all_five_dice():
    assert kniffel([3, 3, 3, 3, 5], "four_of_a_kind") == 17


def test_kniffel_four_of_a_kind_needs_four_alike():
    assert kniffel([3, 3, 3, 5, 5], "four_of_a_kind") == 0


def test_kniffel_full_house_scores_25():
    assert kniffel([4, 3, 4, 3, 4], "full_house") == 25


def test_four_alike_and_one_is_no_full_house():
    assert kniffel([1, 4, 4, 4, 4], "full_house") == 0


def test_five_alike_is_no_full_house_while_the_yahtzee_box_is_open():
    assert kniffel([2, 2, 2, 2, 2], "full_house") == 0


@pytest.mark.parametrize("dice", [[1, 2, 3, 4, 6], [5, 2, 3, 4, 5], [6, 1, 4, 3, 5]])
def test_kniffel_small_straight_is_four_consecutive_anywhere_for_30(dice):
    assert kniffel(dice, "small_straight") == 30


def test_1_2_3_4_6_is_a_small_straight_worth_30():
    assert kniffel([1, 2, 3, 4, 6], "small_straight") == 30
    assert kniffel([1, 2, 3, 4, 6], "large_straight") == 0


def test_1_2_4_4_5_has_no_straight():
    assert kniffel([1, 2, 4, 4, 5], "small_straight") == 0
    assert kniffel([1, 2, 4, 4, 5], "large_straight") == 0


@pytest.mark.parametrize("dice", [[1, 2, 3, 4, 5], [6, 5, 4, 3, 2]])
def test_kniffel_large_straight_scores_40(dice):
    assert kniffel(dice, "large_straight") == 40


def test_kniffel_large_straight_also_fills_the_small_straight_for_30():
    assert kniffel([2, 3, 4, 5, 6], "small_straight") == 30


def test_five_alike_scores_50_in_the_yahtzee_box():
    assert kniffel([5, 5, 5, 5, 5], "yahtzee") == 50


def test_four_alike_scores_0_in_the_yahtzee_box():
    assert kniffel([5, 5, 5, 5, 4], "yahtzee") == 0


def test_chance_scores_the_sum_of_all_five():
    assert kniffel([1, 3, 4, 6, 6], "chance") == 20
    assert yatzy([1, 3, 4, 6, 6], "chance") == 20


def test_kitkniff_scores_like_kniffel():
    dice = [3, 3, 3, 4, 4]
    assert Scorecard("kitkniff").options(dice) == Scorecard("kniffel").options(dice)


# --- Yatzy column of the table ---


def test_yatzy_one_pair_scores_the_highest_pair():
    assert yatzy([3, 3, 5, 5, 1], "one_pair") == 10


def test_yatzy_one_pair_without_a_pair_scores_0():
    assert yatzy([1, 2, 3, 4, 6], "one_pair") == 0


def test_yatzy_two_pairs_scores_the_four_dice():
    assert yatzy([3, 3, 5, 5, 1], "two_pairs") == 16


def test_yatzy_two_pairs_need_two_different_values():
    assert yatzy([4, 4, 4, 4, 2], "two_pairs") == 0


def test_yatzy_full_house_holds_two_different_pairs():
    assert yatzy([2, 2, 2, 5, 5], "two_pairs") == 14


def test_yatzy_three_of_a_kind_scores_only_those_three():
    assert yatzy([4, 4, 4, 4, 2], "three_of_a_kind") == 12


def test_yatzy_four_of_a_kind_scores_only_those_four():
    assert yatzy([4, 4, 4, 4, 2], "four_of_a_kind") == 16


def test_yatzy_three_of_a_kind_needs_three_alike():
    assert yatzy([4, 4, 2, 2, 1], "three_of_a_kind") == 0


def test_yatzy_full_house_scores_the_sum_of_all_five():
    assert yatzy([2, 2, 2, 5, 5], "full_house") == 16


def test_yatzy_five_alike_is_no_full_house():
    assert yatzy([3, 3, 3, 3, 3], "full_house") == 0


def test_yatzy_1_2_3_4_5_is_only_the_small_straight_for_15():
    assert yatzy([5, 4, 3, 2, 1], "small_straight") == 15
    assert yatzy([5, 4, 3, 2, 1], "large_straight") == 0


def test_yatzy_2_3_4_5_6_is_only_the_large_straight_for_20():
    assert yatzy([2, 3, 4, 5, 6], "large_straight") == 20
    assert yatzy([2, 3, 4, 5, 6], "small_straight") == 0


def test_yatzy_four_in_a_row_is_no_straight():
    assert yatzy([1, 2, 3, 4, 6], "small_straight") == 0


def test_yatzy_five_alike_scores_50():
    assert yatzy([6, 6, 6, 6, 6], "yahtzee") == 50


# --- upper bonus ---

# Three of each face, the other two dice showing the next face: 3 + 6 + 9 + 12 + 15 + 18 = 63.
THREE_OF_EACH = {
    box: [face] * 3 + [face % 6 + 1] * 2 for face, box in enumerate(UPPER_BOXES, start=1)
}


def test_upper_bonus_is_paid_at_exactly_63():
    card = card_with("kniffel", THREE_OF_EACH)
    assert card.upper_total == 63
    assert card.upper_bonus == 35


def test_upper_bonus_is_not_paid_at_62():
    card = card_with("kniffel", THREE_OF_EACH | {"ones": [1, 1, 2, 3, 4]})
    assert card.upper_total == 62
    assert card.upper_bonus == 0


def test_yatzy_upper_bonus_is_50():
    card = card_with("yatzy", THREE_OF_EACH)
    assert card.upper_bonus == 50


# --- joker ---

JOKER_BOXES = {"full_house": 25, "small_straight": 30, "large_straight": 40}


def test_joker_with_the_yahtzee_box_at_50_scores_full_values():
    card = card_with("kniffel", {"yahtzee": [2, 2, 2, 2, 2]})
    options = card.options([3, 3, 3, 3, 3])
    assert {box: options[box] for box in JOKER_BOXES} == JOKER_BOXES
    assert (options["threes"], options["ones"], options["chance"]) == (15, 0, 15)
    assert (options["three_of_a_kind"], options["four_of_a_kind"]) == (15, 15)


def test_joker_with_the_yahtzee_box_at_0_scores_full_values():
    card = card_with("kniffel", {"yahtzee": SCRATCH})
    options = card.options([3, 3, 3, 3, 3])
    assert {box: options[box] for box in JOKER_BOXES} == JOKER_BOXES


def test_joker_may_fill_any_open_box_even_with_the_upper_box_open():
    card = card_with("kniffel", {"yahtzee": [2, 2, 2, 2, 2]})
    assert card.fill("large_straight", [4, 4, 4, 4, 4]) == 40
    assert card.boxes["fours"] is None


def test_joker_works_in_kitkniff():
    card = card_with("kitkniff", {"yahtzee": SCRATCH})
    assert card.fill("full_house", [6, 6, 6, 6, 6]) == 25


def test_no_joker_house_rule_scores_only_what_the_dice_show():
    card = card_with("kniffel", {"yahtzee": [2, 2, 2, 2, 2]}, joker=False)
    options = card.options([3, 3, 3, 3, 3])
    assert {box: options[box] for box in JOKER_BOXES} == dict.fromkeys(JOKER_BOXES, 0)
    assert options["threes"] == 15


def test_no_joker_house_rule_still_pays_the_extra_bonus():
    card = card_with("kniffel", {"yahtzee": [2, 2, 2, 2, 2]}, joker=False)
    card.fill("full_house", [3, 3, 3, 3, 3])
    assert card.extra_bonus == 50


def test_yatzy_has_no_joker_even_with_the_yahtzee_box_filled():
    card = card_with("yatzy", {"yahtzee": [2, 2, 2, 2, 2]})
    options = card.options([3, 3, 3, 3, 3])
    assert {box: options[box] for box in JOKER_BOXES} == dict.fromkeys(JOKER_BOXES, 0)


# --- extra bonus ---


def fill_extra_yahtzees(card, count):
    """Fill the yahtzee box with 50, then `count` more boxes with five alike."""
    card.fill("yahtzee", [1, 1, 1, 1, 1])
    open_boxes = [box for box in card.ruleset.boxes if card.boxes[box] is None]
    for box in open_boxes[:count]:
        card.fill(box, [6, 6, 6, 6, 6])
    return card


def test_kniffel_pays_50_per_extra_yahtzee_uncapped():
    card = fill_extra_yahtzees(Scorecard("kniffel"), 12)
    assert card.extra_yahtzees == 12
    assert card.extra_bonus == 600


def test_kitkniff_pays_100_per_extra_yahtzee():
    assert fill_extra_yahtzees(Scorecard("kitkniff"), 3).extra_bonus == 300


def test_kitkniff_extra_bonus_reaches_900_at_9_extra_yahtzees():
    assert fill_extra_yahtzees(Scorecard("kitkniff"), 9).extra_bonus == 900


def test_kitkniff_extra_bonus_is_capped_at_900():
    card = fill_extra_yahtzees(Scorecard("kitkniff"), 10)
    assert card.extra_yahtzees == 10
    assert card.extra_bonus == 900


def test_kitkniff_pays_no_extra_bonus_when_the_admin_switch_is_off():
    assert fill_extra_yahtzees(Scorecard("kitkniff", extra_bonus=False), 3).extra_bonus == 0


def test_yatzy_pays_no_extra_bonus():
    assert fill_extra_yahtzees(Scorecard("yatzy"), 3).extra_bonus == 0


def test_no_extra_bonus_when_the_yahtzee_box_holds_0():
    card = card_with("kniffel", {"yahtzee": SCRATCH})
    card.fill("sixes", [6, 6, 6, 6, 6])
    assert card.extra_bonus == 0


def test_the_first_yahtzee_earns_no_extra_bonus():
    card = card_with("kniffel", {"yahtzee": [5, 5, 5, 5, 5]})
    assert card.extra_bonus == 0


def test_extra_bonus_counts_in_the_total():
    card = card_with("kniffel", {"yahtzee": [5, 5, 5, 5, 5], "fives": [5, 5, 5, 5, 5]})
    assert card.total == 50 + 25 + 50


# --- five alike as full house ---


def test_five_alike_full_house_house_rule_scores_25_in_kniffel():
    card = Scorecard("kniffel", five_alike_full_house=True)
    assert card.options([2, 2, 2, 2, 2])["full_house"] == 25


def test_five_alike_full_house_house_rule_scores_the_sum_in_yatzy():
    card = Scorecard("yatzy", five_alike_full_house=True)
    assert card.options([2, 2, 2, 2, 2])["full_house"] == 10


def test_five_alike_full_house_house_rule_works_without_joker():
    card = card_with("kniffel", {"yahtzee": SCRATCH}, joker=False, five_alike_full_house=True)
    assert card.options([4, 4, 4, 4, 4])["full_house"] == 25


# --- the card ---


def test_options_lists_only_open_boxes():
    card = card_with("kniffel", {"ones": [1, 1, 2, 3, 4]})
    assert "ones" not in card.options([1, 1, 1, 1, 2])
    assert len(card.options([1, 1, 1, 1, 2])) == 12


def test_fill_returns_the_points_and_records_the_box():
    card = Scorecard("kniffel")
    assert card.fill("fours", [4, 4, 1, 2, 3]) == 8
    assert card.boxes["fours"] == 8
    assert card.last_box == "fours"


def test_fill_with_dice_that_do_not_fit_writes_0():
    assert Scorecard("kniffel").fill("large_straight", [1, 1, 2, 3, 4]) == 0


def test_fill_refuses_a_filled_box_and_changes_nothing():
    card = card_with("kniffel", {"ones": [1, 1, 2, 3, 4]})
    before = card.to_dict()
    with pytest.raises(BoxFilled):
        card.fill("ones", [1, 1, 1, 1, 1])
    assert card.to_dict() == before


@pytest.mark.parametrize("box", ["one_pair", "bonus", "", None, 3])
def test_fill_refuses_an_unknown_box(box):
    card = Scorecard("kniffel")
    with pytest.raises(UnknownBox):
        card.fill(box, [1, 2, 3, 4, 5])
    assert card.to_dict() == Scorecard("kniffel").to_dict()


@pytest.mark.parametrize(
    "dice",
    [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7], [1, 2, 3, 4, 5.0]]
    + [[True, 2, 3, 4, 5], ["1", "2", "3", "4", "5"], [None] * 5, 12345],
)
def test_fill_refuses_bad_dice_and_changes_nothing(dice):
    card = Scorecard("kniffel")
    with pytest.raises(BadDice):
        card.fill("chance", dice)
    assert card.boxes["chance"] is None


def test_options_refuses_bad_dice():
    with pytest.raises(BadDice):
        Scorecard("yatzy").options([1, 2, 3])


def test_unknown_ruleset_is_refused():
    with pytest.raises(ValueError):
        Scorecard("poker")


def test_a_ruleset_of_the_wrong_type_is_refused():
    with pytest.raises(ValueError):
        Scorecard(3)  # type: ignore[arg-type]


def test_unknown_house_rule_is_refused():
    with pytest.raises(TypeError):
        Scorecard("kniffel", triple_yahtzee=True)  # type: ignore[call-arg]


def test_non_bool_house_rule_is_refused():
    with pytest.raises(ValueError):
        Scorecard("kniffel", joker="yes")  # type: ignore[arg-type]


def test_boxes_is_a_copy():
    card = Scorecard("kniffel")
    card.boxes["ones"] = 5
    assert card.boxes["ones"] is None


def test_card_is_complete_when_every_box_is_filled():
    card = Scorecard("kniffel")
    for box in card.ruleset.boxes:
        assert not card.is_complete
        card.fill(box, [1, 2, 3, 4, 5])
    assert card.is_complete
    assert card.options([1, 2, 3, 4, 5]) == {}


def test_to_dict_and_from_dict_round_trip():
    card = fill_extra_yahtzees(Scorecard("kitkniff", joker=False), 2)
    again = Scorecard.from_dict(card.to_dict())
    assert again.to_dict() == card.to_dict()
    assert again.total == card.total


def test_copy_is_independent():
    card = Scorecard("yatzy")
    twin = card.copy()
    twin.fill("chance", [6, 6, 6, 6, 6])
    assert card.boxes["chance"] is None


@pytest.mark.parametrize(
    "change",
    [
        {"ruleset": "poker"},
        {"boxes": {"ones": 3}},
        {"extra_yahtzees": -1},
        {"last_box": "ones"},
        {"last_box": "bonus"},
        {"last_box": ["ones"]},
        {"boxes": ["ones"]},
        {"house_rules": {"joker": 1}},
    ],
)
def test_from_dict_refuses_data_that_is_no_card(change):
    with pytest.raises(ValueError):
        Scorecard.from_dict(Scorecard("kniffel").to_dict() | change)


# --- the turn ---


def test_first_roll_sets_all_five_dice():
    turn = Turn()
    assert turn.roll([6, 1, 3, 3, 2]) == (6, 1, 3, 3, 2)
    assert (turn.dice, turn.rolls) == ((6, 1, 3, 3, 2), 1)


def test_a_turn_starts_without_dice():
    turn = Turn()
    assert (turn.dice, turn.held, turn.rolls, turn.can_roll) == ((), (False,) * 5, 0, True)


def test_first_roll_needs_five_values():
    turn = Turn()
    with pytest.raises(TurnError):
        turn.roll([1, 2, 3, 4])
    assert (turn.dice, turn.rolls) == ((), 0)


def test_a_reroll_replaces_only_the_free_dice_left_to_right():
    turn = Turn()
    turn.roll([1, 2, 3, 4, 5])
    turn.hold(0)
    turn.hold(2)
    assert turn.roll([6, 6, 5]) == (1, 6, 3, 6, 5)
    assert turn.held == (True, False, True, False, False)


def test_turn_refuses_a_fourth_roll_and_changes_nothing():
    turn = Turn()
    for faces in ([1, 2, 3, 4, 5], [6, 6, 6, 6, 6], [2, 2, 2, 2, 2]):
        turn.roll(faces)
    assert not turn.can_roll
    with pytest.raises(TurnError):
        turn.roll([3, 3, 3, 3, 3])
    assert (turn.dice, turn.rolls) == ((2, 2, 2, 2, 2), 3)


def test_turn_refuses_a_roll_whose_value_count_differs_from_the_free_dice():
    turn = Turn()
    turn.roll([1, 2, 3, 4, 5])
    turn.hold(4)
    with pytest.raises(TurnError):
        turn.roll([6, 6, 6, 6, 6])
    assert (turn.dice, turn.rolls) == ((1, 2, 3, 4, 5), 1)


@pytest.mark.parametrize("faces", [[0, 1, 2, 3, 4], [1, 2, 3, 4, 7], [1, 2, 3, 4, 5.0], None])
def test_turn_refuses_faces_outside_1_to_6(faces):
    turn = Turn()
    with pytest.raises(TurnError):
        turn.roll(faces)
    assert turn.rolls == 0


def test_turn_refuses_a_hold_before_the_first_roll():
    turn = Turn()
    with pytest.raises(TurnError):
        turn.hold(0)
    assert turn.held == (False,) * 5


@pytest.mark.parametrize("index", [5, -1, 1.0, "0"])
def test_turn_refuses_a_bad_hold_and_changes_nothing(index):
    turn = Turn()
    turn.roll([1, 2, 3, 4, 5])
    turn.hold(1)
    with pytest.raises(TurnError):
        turn.hold(index)
    assert turn.held == (False, True, False, False, False)


def test_turn_refuses_a_bad_set_held_and_changes_nothing():
    turn = Turn()
    turn.roll([1, 2, 3, 4, 5])
    turn.hold(1)
    with pytest.raises(TurnError):
        turn.set_held([0, 7])
    assert turn.held == (False, True, False, False, False)


def test_held_dice_may_be_released_before_a_reroll():
    turn = Turn()
    turn.roll([1, 2, 3, 4, 5])
    turn.hold(0)
    turn.roll([6, 6, 6, 6])
    turn.release(0)
    assert turn.roll([2, 2, 2, 2, 2]) == (2, 2, 2, 2, 2)


def test_toggle_holds_then_releases():
    turn = Turn()
    turn.roll([1, 2, 3, 4, 5])
    turn.toggle(3)
    assert turn.held[3]
    turn.toggle(3)
    assert not turn.held[3]


def test_set_held_holds_exactly_the_given_dice():
    turn = Turn()
    turn.roll([1, 2, 3, 4, 5])
    turn.hold(0)
    turn.set_held([2, 4])
    assert turn.held == (False, False, True, False, True)


def test_turn_refuses_a_roll_with_all_five_dice_held():
    turn = Turn()
    turn.roll([1, 2, 3, 4, 5])
    turn.set_held(range(5))
    assert not turn.can_roll
    with pytest.raises(TurnError):
        turn.roll([])
    assert turn.rolls == 1


# --- automatic box ---


def test_auto_box_takes_the_highest_scoring_box_but_chance():
    assert auto_box(Scorecard("kniffel"), [6, 6, 6, 5, 5]) == "three_of_a_kind"


def test_auto_box_takes_a_yahtzee():
    assert auto_box(Scorecard("kniffel"), [2, 2, 2, 2, 2]) == "yahtzee"


def test_auto_box_breaks_ties_in_card_order():
    assert auto_box(Scorecard("kniffel"), [1, 2, 3, 3, 6]) == "threes"


def test_auto_box_uses_chance_when_nothing_else_scores():
    boxes = set(RULESETS["kniffel"].boxes) - {"ones", "chance"}
    card = card_with("kniffel", dict.fromkeys(boxes, [1, 2, 3, 4, 5]))
    assert auto_box(card, [2, 3, 4, 6, 6]) == "chance"


def test_auto_box_scratches_yahtzee_before_twos():
    boxes = set(RULESETS["kniffel"].boxes) - {"twos", "yahtzee", "large_straight"}
    card = card_with("kniffel", dict.fromkeys(boxes, [1, 2, 3, 4, 5]))
    assert auto_box(card, [1, 1, 3, 4, 6]) == "yahtzee"


def test_auto_box_refuses_a_complete_card():
    card = card_with("kniffel", dict.fromkeys(RULESETS["kniffel"].boxes, [1, 2, 3, 4, 5]))
    with pytest.raises(ScorecardError):
        auto_box(card, [1, 2, 3, 4, 5])


# --- properties: whole games ---

faces = st.integers(min_value=1, max_value=6)
rolls = st.one_of(
    st.lists(faces, min_size=5, max_size=5),
    faces.map(lambda face: [face] * 5),  # five alike often, to exercise joker and extra bonus
)
house_rules = st.fixed_dictionaries(
    {"joker": st.booleans(), "five_alike_full_house": st.booleans(), "extra_bonus": st.booleans()}
)


@st.composite
def games(draw):
    """A ruleset, house rules and one (dice, box) per box, the boxes in a random order."""
    name = draw(st.sampled_from(sorted(RULESETS)))
    boxes = draw(st.permutations(RULESETS[name].boxes))
    moves = [(draw(rolls), box) for box in boxes]
    return name, draw(house_rules), moves


@given(games())
def test_fill_writes_exactly_what_options_promised(game):
    name, rules, moves = game
    card = Scorecard(name, **rules)
    for dice, box in moves:
        promised = card.options(dice)
        assert set(promised) == {b for b, v in card.boxes.items() if v is None}
        assert card.fill(box, dice) == promised[box]


@given(games())
def test_a_complete_game_totals_its_parts(game):
    name, rules, moves = game
    card = Scorecard(name, **rules)
    for dice, box in moves:
        card.fill(box, dice)
    assert card.is_complete
    assert card.total == card.upper_total + card.upper_bonus + card.lower_total + card.extra_bonus
    assert card.upper_total + card.lower_total == sum(card.boxes.values())


@given(games())
def test_auto_box_always_names_an_open_box(game):
    name, rules, moves = game
    card = Scorecard(name, **rules)
    for dice, _ in moves:
        box = auto_box(card, dice)
        assert card.boxes[box] is None
        card.fill(box, dice)
    assert card.is_complete


@given(games())
def test_a_card_survives_to_dict_and_from_dict_mid_game(game):
    name, rules, moves = game
    card = Scorecard(name, **rules)
    for dice, box in moves[: len(moves) // 2]:
        card.fill(box, dice)
    again = Scorecard.from_dict(card.to_dict())
    for dice, box in moves[len(moves) // 2 :]:
        assert again.fill(box, dice) == card.fill(box, dice)
    assert again.total == card.total


@given(
    st.lists(faces, min_size=5, max_size=5),
    st.lists(st.tuples(st.sets(st.integers(0, 4), max_size=4), st.lists(faces, min_size=5)),
             min_size=2, max_size=2),  # the turn's second and third roll, every time
)
def test_held_dice_never_change_on_a_reroll(first, rerolls):
    turn = Turn()
    turn.roll(first)
    for held, values in rerolls:
        turn.set_held(held)
        before = turn.dice
        after = turn.roll(values[: turn.free_count()])
        assert all(after[i] == before[i] for i in held)
    assert turn.rolls == 3
