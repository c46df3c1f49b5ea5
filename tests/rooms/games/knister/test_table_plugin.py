"""Knister with real dice (docs/rules.md, "Table mode"), as pure plug-in rules: the roller
enters the dice or the sum, may correct it until the first placement, and a game of entered
dice scores exactly like the same dice rolled by the server."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engines.knister import auto_cell
from app.rooms.games.base import ActionError, Event, OptionError
from app.rooms.games.knister import KnisterGame

T0 = datetime(2026, 1, 1, tzinfo=UTC)
GAME = KnisterGame()


def new(real=True, seats=(1, 2)):
    return GAME.new_state(GAME.parse_options({"dice": "real" if real else "screen"}),
                          list(seats), 0)


def act(state, seat, action, dice=None):
    events = GAME.decide(state, seat, action, dice or (lambda n: []))
    for e in events:
        GAME.apply(state, Event(e.type, e.payload, e.seat_id, T0))
    return events


def refused(state, seat, action, code):
    before = (list(state.rolls), set(state.placed), state.entries)
    with pytest.raises(ActionError) as err:
        GAME.decide(state, seat, action, lambda n: [3] * n)
    assert err.value.code == code
    assert (list(state.rolls), set(state.placed), state.entries) == before
    return err.value


def test_dice_option_defaults_to_screen_and_takes_real() -> None:
    assert GAME.default_options()["dice"] == "screen"
    assert GAME.parse_options({"dice": "real"})["dice"] == "real"
    assert GAME.parse_options({"dice": ["screen", "real"]})["dice"] == "real"
    with pytest.raises(OptionError) as err:
        GAME.parse_options({"dice": "loaded"})
    assert err.value.field == "dice"


def test_the_roller_enters_two_dice_as_an_entered_roll_event() -> None:
    state = new()
    events = act(state, 1, {"type": "enter", "dice": [2, 5]})
    assert [(e.type, e.payload) for e in events] == [
        ("roll", {"dice": [2, 5], "auto": False, "entered": True})]
    assert state.current_sum == 7
    assert GAME.basis(state) == {"roll": 1, "entry": 1}


def test_the_roller_may_enter_the_sum_alone_or_the_face_fields() -> None:
    state = new()
    act(state, 1, {"type": "enter", "sum": "11"})
    assert state.current_sum == 11 and 0 in state.sum_only
    state = new()
    act(state, 1, {"type": "enter", "die0": "6", "die1": "6"})
    assert state.current_sum == 12 and not state.sum_only


@pytest.mark.parametrize(("action", "code", "message"), [
    ({"sum": 13}, "bad_sum", "Enter a sum from 2 to 12."),
    ({"sum": 1}, "bad_sum", "Enter a sum from 2 to 12."),
    ({"sum": "x"}, "bad_sum", "Enter a sum from 2 to 12."),
    ({"dice": [0, 3]}, "bad_face", "Each die shows a number from 1 to 6."),
    ({"dice": [3, 7]}, "bad_face", "Each die shows a number from 1 to 6."),
    ({"dice": [3]}, "dice_count", "Enter exactly two dice, or the sum."),
    ({"dice": [1, 2, 3]}, "dice_count", "Enter exactly two dice, or the sum."),
    ({"die0": "3"}, "dice_count", "Enter exactly two dice, or the sum."),
    ({}, "dice_count", "Enter exactly two dice, or the sum."),
    ({"sum": 7, "dice": [3, 4]}, "bad_message", "The message is malformed."),
])
def test_bad_entries_are_refused_with_a_clear_message(action, code, message) -> None:
    state = new()
    assert refused(state, 1, {"type": "enter", **action}, code).message == message


def test_only_the_roller_enters_and_rolling_is_refused_with_real_dice() -> None:
    state = new()
    refused(state, 2, {"type": "enter", "sum": 7}, "not_your_turn")
    refused(state, 1, {"type": "roll"}, "real_dice")


def test_entering_is_refused_when_the_server_rolls() -> None:
    state = new(real=False)
    refused(state, 1, {"type": "enter", "sum": 7}, "screen_dice")
    assert GAME.basis(state) == {"roll": 0}


def test_the_roller_corrects_until_the_first_placement_then_the_roll_is_final() -> None:
    state = new()
    act(state, 1, {"type": "enter", "sum": 7})
    act(state, 1, {"type": "enter", "dice": [4, 4]})  # a correction replaces the roll
    assert state.rolls == [(4, 4)] and state.current_sum == 8
    assert GAME.basis(state) == {"roll": 1, "entry": 2}
    refused(state, 2, {"type": "enter", "sum": 9}, "not_your_turn")
    act(state, 2, {"type": "place", "cell": "0,0"})
    assert state.sheets[2].grid[0][0] == 8
    err = refused(state, 1, {"type": "enter", "sum": 9}, "roll_final")
    assert err.message == "Someone has placed this roll already: it is final."


def test_the_next_roller_enters_once_everyone_placed() -> None:
    state = new()
    act(state, 1, {"type": "enter", "sum": 7})
    act(state, 1, {"type": "place", "cell": "0,0"})
    refused(state, 2, {"type": "enter", "sum": 5}, "not_your_turn")  # the roll is still pending
    act(state, 2, {"type": "place", "cell": "0,0"})
    refused(state, 1, {"type": "enter", "sum": 5}, "not_your_turn")
    act(state, 2, {"type": "enter", "sum": 5})
    assert state.rolls[-1] == (4, 1) and state.roll_rollers == [1, 2]


def test_no_away_takeovers_with_real_dice() -> None:
    from app.rooms.games.base import Presence
    state = new()
    table = Presence(seat_ids=[1, 2], online=frozenset(), started_at=T0, watching_since=T0)
    assert GAME.away_deadlines(state, table, T0) == {}
    assert GAME.deadline(state, table, T0) is None


def _play(rolls, entries, real):
    """Play a two-seat game: ``rolls`` are 25 dice pairs; each seat places where
    ``auto_cell`` puts the sum. With ``real`` the roller enters the pair (``entries[i]``:
    0 the dice, 1 the sum, 2 a wrong sum corrected to the dice)."""
    state = new(real=real)
    for i, (a, b) in enumerate(rolls):
        roller = state.roller
        if not real:
            act(state, roller, {"type": "roll"}, lambda n, d=[a, b]: list(d))
        elif entries[i] == 0:
            act(state, roller, {"type": "enter", "dice": [a, b]})
        elif entries[i] == 1:
            act(state, roller, {"type": "enter", "sum": a + b})
        else:
            act(state, roller, {"type": "enter", "sum": 2 if a + b != 2 else 12})
            act(state, roller, {"type": "enter", "dice": [a, b]})
        for seat in state.order:
            cell = auto_cell(state.sheets[seat], state.current_sum)
            act(state, seat, {"type": "place", "cell": list(cell)})
    assert GAME.is_over(state)
    return state


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=25, max_size=25),
       st.lists(st.integers(0, 2), min_size=25, max_size=25))
def test_entered_dice_score_exactly_like_the_same_dice_rolled_by_the_server(rolls,
                                                                             entries) -> None:
    served, entered = _play(rolls, entries, False), _play(rolls, entries, True)
    assert GAME.totals(entered) == GAME.totals(served)
    assert {s: sh.grid for s, sh in entered.sheets.items()} == {
        s: sh.grid for s, sh in served.sheets.items()}
    assert [sum(r) for r in entered.rolls] == [a + b for a, b in rolls]
