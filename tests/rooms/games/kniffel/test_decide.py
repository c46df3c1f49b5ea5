"""``KniffelGame.decide`` (docs/rules.md, "Kniffel family", "Table mode"): the exact events of
each accepted roll, hold and score, and the exact refusal, with the reason the player is told,
of each other action."""

from __future__ import annotations

import pytest

from app.rooms.games.base import ActionError, Event
from app.rooms.games.kniffel import KniffelGame

A, B = 11, 22
NOT_OPEN = ("bad_column", "That column is not open.", 409)
NO_ROLLS = ("no_rolls_left", "You have rolled three times: choose a box.", 409)
BAD_DIE = ("bad_die", "That die is not on the table.", 409)
MALFORMED = ("bad_message", "The message is malformed.", 409)


def new(kind: str = "kniffel", seats=(A, B), **options):
    game = KniffelGame(kind)
    return game, game.new_state(game.parse_options(options), list(seats), 0)


def dice(*faces: int):
    """A dice source that must be asked for exactly ``len(faces)`` dice."""
    def roll(n: int) -> list[int]:
        assert n == len(faces), f"asked for {n} dice"
        return list(faces)
    return roll


def play(game, state, seat: int, action: dict, source=None) -> list[Event]:
    events = game.decide(state, seat, action, source or dice())
    for event in events:
        game.apply(state, event)
    return events


def refusal(game, state, seat: int, action: dict) -> tuple[str, str, int]:
    with pytest.raises(ActionError) as err:
        game.decide(state, seat, action, dice())
    return err.value.code, err.value.msgid, err.value.status


# ---- roll -------------------------------------------------------------------------------------

def test_the_first_roll_throws_all_five_dice() -> None:
    game, state = new()
    assert play(game, state, A, {"type": "roll"}, dice(1, 2, 3, 4, 6)) == [
        Event("roll", {"dice": [1, 2, 3, 4, 6], "held": [False] * 5, "auto": False}, A)]


def test_later_rolls_throw_only_the_free_dice() -> None:
    game, state = new()
    play(game, state, A, {"type": "roll"}, dice(6, 2, 6, 3, 1))
    play(game, state, A, {"type": "hold", "die": 0, "held": True})
    play(game, state, A, {"type": "hold", "die": "2", "held": True})
    assert play(game, state, A, {"type": "roll"}, dice(5, 5, 4)) == [
        Event("roll", {"dice": [6, 5, 6, 5, 4], "held": [True, False, True, False, False],
                       "auto": False}, A)]
    assert play(game, state, A, {"type": "roll"}, dice(1, 1, 1))[0].payload["dice"] == [
        6, 1, 6, 1, 1]
    assert refusal(game, state, A, {"type": "roll"}) == NO_ROLLS


def test_a_roll_with_every_die_held_is_refused() -> None:
    game, state = new()
    play(game, state, A, {"type": "roll"}, dice(1, 2, 3, 4, 5))
    for die in range(5):
        play(game, state, A, {"type": "hold", "die": die, "held": True})
    assert refusal(game, state, A, {"type": "roll"}) == (
        "all_held", "All dice are held: release one to roll again.", 409)


# ---- hold -------------------------------------------------------------------------------------

def test_a_hold_sets_the_state_the_page_asked_for() -> None:
    game, state = new()
    play(game, state, A, {"type": "roll"}, dice(1, 2, 3, 4, 5))
    assert play(game, state, A, {"type": "hold", "die": " 4 ", "held": True}) == [
        Event("hold", {"die": 4, "held": True}, A)]
    assert play(game, state, A, {"type": "hold", "die": 4, "held": False}) == [
        Event("hold", {"die": 4, "held": False}, A)]


@pytest.mark.parametrize("die", [5, -1, "5", "x", "", None, True, 1.0, [1]])
def test_a_die_not_on_the_table_is_refused(die) -> None:
    game, state = new()
    play(game, state, A, {"type": "roll"}, dice(1, 2, 3, 4, 5))
    assert refusal(game, state, A, {"type": "hold", "die": die, "held": True}) == BAD_DIE


@pytest.mark.parametrize("held", [None, "true", 1])
def test_a_hold_must_say_whether_the_die_is_held(held) -> None:
    game, state = new()
    play(game, state, A, {"type": "roll"}, dice(1, 2, 3, 4, 5))
    action = {"type": "hold", "die": 0} | ({} if held is None else {"held": held})
    assert refusal(game, state, A, action) == MALFORMED


def test_no_hold_after_the_third_roll_but_a_bad_die_is_named_first() -> None:
    game, state = new()
    for _ in range(3):
        play(game, state, A, {"type": "roll"}, dice(2, 2, 2, 2, 2))
    assert refusal(game, state, A, {"type": "hold", "die": 1, "held": True}) == NO_ROLLS
    assert refusal(game, state, A, {"type": "hold", "die": 9, "held": True}) == BAD_DIE


def test_before_the_first_roll_there_is_nothing_to_hold_or_score() -> None:
    game, state = new()
    assert refusal(game, state, A, {"type": "hold", "die": 0, "held": True}) == (
        "no_dice", "Roll first: there are no dice to hold yet.", 409)
    assert refusal(game, state, A, {"type": "score", "box": "ones"}) == (
        "no_roll", "Roll the dice before choosing a box.", 409)


# ---- score ------------------------------------------------------------------------------------

def test_a_score_writes_the_boxs_points_in_the_current_column() -> None:
    game, state = new()
    play(game, state, A, {"type": "roll"}, dice(3, 3, 3, 5, 5))
    assert play(game, state, A, {"type": "score", "box": "full_house"}) == [
        Event("score", {"box": "full_house", "column": 0, "points": 25, "auto": False}, A)]
    play(game, state, B, {"type": "roll"}, dice(6, 6, 1, 2, 6))
    assert play(game, state, B, {"type": "score", "box": "sixes", "column": "0"}) == [
        Event("score", {"box": "sixes", "column": 0, "points": 18, "auto": False}, B)]


@pytest.mark.parametrize("box", ["one_pair", "nothing", 5, None, ["ones"]])
def test_a_box_not_on_the_rule_sets_card_is_refused(box) -> None:
    game, state = new()
    play(game, state, A, {"type": "roll"}, dice(1, 1, 2, 2, 3))
    assert refusal(game, state, A, {"type": "score", "box": box}) == (
        "unknown_box", "That box is not on the score sheet.", 409)


def test_yatzy_has_its_own_card() -> None:
    game, state = new("yatzy")
    play(game, state, A, {"type": "roll"}, dice(1, 1, 2, 2, 3))
    assert play(game, state, A, {"type": "score", "box": "one_pair"})[0].payload["points"] == 4
    play(game, state, B, {"type": "roll"}, dice(1, 1, 2, 2, 3))
    assert play(game, state, B, {"type": "score", "box": "two_pairs"})[0].payload["points"] == 6


def test_a_filled_box_is_refused() -> None:
    game, state = new(seats=(A,))
    play(game, state, A, {"type": "roll"}, dice(1, 1, 2, 2, 3))
    play(game, state, A, {"type": "score", "box": "ones"})
    play(game, state, A, {"type": "roll"}, dice(1, 1, 2, 2, 3))
    assert refusal(game, state, A, {"type": "score", "box": "ones"}) == (
        "box_filled", "That box is already filled.", 409)


@pytest.mark.parametrize("column", ["x", None, -1, 2, 1, "1"])
def test_only_the_column_being_filled_takes_a_score(column) -> None:
    game, state = new(columns="2")
    play(game, state, A, {"type": "roll"}, dice(1, 1, 2, 2, 3))
    assert refusal(game, state, A, {"type": "score", "box": "ones", "column": column}
                   ) == NOT_OPEN


def test_a_full_column_says_its_box_is_filled_and_the_next_one_is_open() -> None:
    game, state = new(seats=(A,), columns="2")
    boxes = list(state.cards[A][0].boxes)
    for box in boxes:
        play(game, state, A, {"type": "roll"}, dice(2, 3, 4, 5, 6))
        play(game, state, A, {"type": "score", "box": box})
    play(game, state, A, {"type": "roll"}, dice(2, 3, 4, 5, 6))
    assert refusal(game, state, A, {"type": "score", "box": "ones", "column": 0}) == (
        "box_filled", "That box is already filled.", 409)
    assert play(game, state, A, {"type": "score", "box": "large_straight"}) == [
        Event("score", {"box": "large_straight", "column": 1, "points": 40, "auto": False},
              A)]


# ---- who may act ------------------------------------------------------------------------------

def test_only_a_seat_in_the_game_and_on_turn_acts() -> None:
    game, state = new()
    assert refusal(game, state, 99, {"type": "roll"}) == (
        "not_playing", "You are not playing in this game.", 409)
    assert refusal(game, state, B, {"type": "roll"}) == (
        "not_your_turn", "It is not your turn.", 409)
    assert refusal(game, state, B, {"type": "place"}) == ("unknown_action", "Unknown action.",
                                                          409)


def test_nothing_is_decided_after_the_last_box() -> None:
    game, state = new(seats=(A,))
    for box in list(state.cards[A][0].boxes):
        play(game, state, A, {"type": "roll"}, dice(2, 3, 4, 5, 6))
        play(game, state, A, {"type": "score", "box": box})
    assert game.is_over(state)
    assert refusal(game, state, A, {"type": "roll"}) == ("game_over", "The game is over.", 409)
    assert refusal(game, state, 99, {"type": "roll"})[0] == "not_playing"


# ---- real dice --------------------------------------------------------------------------------

def test_on_screen_dice_have_nothing_to_enter() -> None:
    game, state = new()
    assert refusal(game, state, A, {"type": "enter", "dice": [1, 2, 3, 4, 5]}) == (
        "screen_dice", "This room rolls the dice on screen: nothing to enter.", 409)


def test_with_real_dice_the_player_enters_the_throw_and_scores_it() -> None:
    game, state = new(dice="real")
    real = ("real_dice", "This room plays with real dice: enter what you threw.", 409)
    assert refusal(game, state, A, {"type": "roll"}) == real
    assert refusal(game, state, A, {"type": "score", "box": "ones"})[0] == "no_roll"
    assert play(game, state, A, {"type": "enter", "dice": [4, 4, 4, 1, 2]}) == [
        Event("roll", {"dice": [4, 4, 4, 1, 2], "held": [False] * 5, "auto": False,
                       "entered": True}, A)]
    assert refusal(game, state, A, {"type": "hold", "die": 0, "held": True}) == real
    assert play(game, state, A, {"type": "score", "box": "fours"})[0].payload == {
        "box": "fours", "column": 0, "points": 12, "auto": False}
    assert refusal(game, state, A, {"type": "enter", "dice": [1, 1, 1, 1, 1]})[0] == (
        "not_your_turn")
