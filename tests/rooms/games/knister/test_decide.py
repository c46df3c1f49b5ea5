"""``KnisterGame.decide`` (docs/rules.md, "Knister", "Table mode"): the exact events of each
accepted action and the exact refusal, with the reason the player is told, of each other one."""

from __future__ import annotations

import pytest

from app.rooms.games.base import ActionError, Event
from app.rooms.games.knister import KnisterGame

GAME = KnisterGame()
NOT_PLAYING = ("not_playing", "You are not playing in this game.", 409)
BAD_CELL = ("bad_cell", "That is not a cell of your sheet.", 409)


def new(seats=(1, 2), dice: str = "screen"):
    return GAME.new_state({"dice": dice}, list(seats), 0)


def dice(*faces: int):
    """A dice source that must be asked for exactly ``len(faces)`` dice."""
    def roll(n: int) -> list[int]:
        assert n == len(faces), f"asked for {n} dice"
        return list(faces)
    return roll


def play(state, seat: int, action: dict, source=None) -> list[Event]:
    events = GAME.decide(state, seat, action, source or dice())
    for event in events:
        GAME.apply(state, event)
    return events


def refusal(state, seat: int, action: dict) -> tuple[str, str, int]:
    with pytest.raises(ActionError) as err:
        GAME.decide(state, seat, action, dice())
    return err.value.code, err.value.msgid, err.value.status


def test_the_roller_rolls_two_dice() -> None:
    state = new()
    assert play(state, 1, {"type": "roll"}, dice(3, 5)) == [
        Event("roll", {"dice": [3, 5], "auto": False}, 1)]
    assert (state.rolls, state.current_sum) == ([(3, 5)], 8)


def test_a_placement_writes_the_sum_in_the_named_cell() -> None:
    state = new()
    play(state, 1, {"type": "roll"}, dice(6, 4))
    assert play(state, 2, {"type": "place", "cell": "4,3"}) == [
        Event("place", {"cell": [4, 3], "value": 10, "auto": False}, 2)]
    assert play(state, 1, {"type": "place", "cell": [0, 0]}) == [
        Event("place", {"cell": [0, 0], "value": 10, "auto": False}, 1)]
    assert (state.sheets[2].grid[4][3], state.sheets[1].grid[0][0]) == (10, 10)


def test_only_a_seat_in_the_game_acts() -> None:
    state = new()
    assert refusal(state, 3, {"type": "roll"}) == NOT_PLAYING
    play(state, 1, {"type": "roll"}, dice(1, 1))
    assert refusal(state, 3, {"type": "place", "cell": "0,0"}) == NOT_PLAYING
    play(state, 2, {"type": "place", "cell": "0,0"})
    GAME.apply(state, GAME.remove_seat(state, 2)[0])  # seat 2 left the game
    assert refusal(state, 2, {"type": "place", "cell": "0,1"}) == NOT_PLAYING


def test_only_the_roller_rolls_and_only_when_everyone_placed() -> None:
    state = new()
    assert refusal(state, 2, {"type": "roll"}) == (
        "not_your_turn", "It is not your turn to roll.", 409)
    play(state, 1, {"type": "roll"}, dice(2, 2))
    waiting = ("waiting", "Not everyone has placed the last roll yet.", 409)
    assert refusal(state, 1, {"type": "roll"}) == waiting
    assert refusal(state, 2, {"type": "roll"}) == waiting
    play(state, 1, {"type": "place", "cell": "0,0"})
    assert refusal(state, 2, {"type": "roll"}) == waiting
    play(state, 2, {"type": "place", "cell": "0,0"})
    assert play(state, 2, {"type": "roll"}, dice(6, 1))[0].payload == {
        "dice": [6, 1], "auto": False}


def test_no_roll_after_the_last_placement_of_the_game() -> None:
    state = new(seats=(1,))
    for n in range(25):
        play(state, 1, {"type": "roll"}, dice(1, 2))
        play(state, 1, {"type": "place", "cell": [n // 5, n % 5]})
    assert GAME.is_over(state)
    assert refusal(state, 1, {"type": "roll"}) == ("game_over", "The game is over.", 409)


def test_the_game_is_over_after_25_rolls_only_once_all_placed() -> None:
    state = new()
    for n in range(25):
        assert not GAME.is_over(state)
        play(state, state.roller, {"type": "roll"}, dice(1, 2))
        play(state, 1, {"type": "place", "cell": [n // 5, n % 5]})
        assert not GAME.is_over(state)
        play(state, 2, {"type": "place", "cell": [n // 5, n % 5]})
    assert GAME.is_over(state)


def test_placing_needs_a_roll_a_free_cell_and_once_per_roll() -> None:
    state = new()
    assert refusal(state, 1, {"type": "place", "cell": "0,0"}) == (
        "no_roll", "There is no roll to place yet.", 409)
    play(state, 1, {"type": "roll"}, dice(3, 3))
    play(state, 1, {"type": "place", "cell": "2,2"})
    assert refusal(state, 1, {"type": "place", "cell": "2,3"}) == (
        "already_placed", "You have already placed this roll.", 409)
    play(state, 2, {"type": "place", "cell": "2,2"})
    play(state, 2, {"type": "roll"}, dice(4, 4))
    assert refusal(state, 1, {"type": "place", "cell": "2,2"}) == (
        "cell_taken", "That cell is already filled.", 409)


def test_a_roll_everyone_placed_is_already_placed_not_missing() -> None:
    """Found by a fresh user: the last placement of a roll sent from two tabs at once; the
    second tab was told "There is no roll to place yet." (the roll was written down by the
    first), though it had been placed."""
    state = new()
    play(state, 1, {"type": "roll"}, dice(3, 3))
    play(state, 2, {"type": "place", "cell": "0,0"})
    play(state, 1, {"type": "place", "cell": "2,2"})
    assert not state.roll_pending
    for seat in (1, 2):
        assert refusal(state, seat, {"type": "place", "cell": "2,3"}) == (
            "already_placed", "You have already placed this roll.", 409)
    play(state, 2, {"type": "roll"}, dice(4, 4))
    play(state, 1, {"type": "place", "cell": "2,3"})  # a new roll: placed again


@pytest.mark.parametrize("cell", ["5,0", "0,5", "-1,0", "x", None, [1], [0, 0, 0]])
def test_a_cell_off_the_sheet_is_refused_before_anything_else(cell) -> None:
    state = new()
    assert refusal(state, 1, {"type": "place", "cell": cell}) == BAD_CELL  # no roll yet
    play(state, 1, {"type": "roll"}, dice(1, 1))
    assert refusal(state, 1, {"type": "place", "cell": cell}) == BAD_CELL


@pytest.mark.parametrize("kind", [None, "hold", "score", "ROLL"])
def test_another_action_is_unknown(kind) -> None:
    assert refusal(new(), 1, {"type": kind}) == ("unknown_action", "Unknown action.", 409)


def test_on_screen_dice_have_nothing_to_enter() -> None:
    assert refusal(new(), 1, {"type": "enter", "sum": 7}) == (
        "screen_dice", "This room rolls the dice on screen: nothing to enter.", 409)


def test_with_real_dice_the_roller_enters_the_throw_instead_of_rolling() -> None:
    state = new(dice="real")
    assert refusal(state, 1, {"type": "roll"}) == (
        "real_dice", "This room plays with real dice: enter what you threw.", 409)
    assert play(state, 1, {"type": "enter", "dice": [2, 6]}) == [
        Event("roll", {"dice": [2, 6], "auto": False, "entered": True}, 1)]
    assert refusal(state, 3, {"type": "enter", "sum": 4}) == NOT_PLAYING


def test_with_real_dice_an_entry_after_the_last_roll_is_refused() -> None:
    state = new(seats=(1,), dice="real")
    for n in range(25):
        play(state, 1, {"type": "enter", "sum": 5})
        play(state, 1, {"type": "place", "cell": [n // 5, n % 5]})
    assert refusal(state, 1, {"type": "enter", "sum": 5}) == (
        "game_over", "The game is over.", 409)
