"""The Knister room plug-in as pure rules: order of rollers, placements, timers (no I/O)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.rooms.errors import RoomError
from app.rooms.games.base import ActionError, Event, Presence
from app.rooms.games.knister import KnisterGame
from app.rooms.rules import check_basis

T0 = datetime(2026, 1, 1, tzinfo=UTC)
GAME = KnisterGame()


def _state(seats=(11, 12, 13), timer=0, start=0):
    return GAME.new_state({"timer": timer}, list(seats), start)


def _apply_all(state, events, at=T0):
    for e in events:
        GAME.apply(state, Event(e.type, e.payload, e.seat_id, at))


def fixed(*faces):
    queue = list(faces)
    return lambda n: [queue.pop(0) for _ in range(n)]


def test_start_player_rolls_first_then_seat_order() -> None:
    state = _state(start=1)
    assert state.order == [12, 13, 11]
    assert state.roller == 12
    _apply_all(state, GAME.decide(state, 12, {"type": "roll"}, fixed(3, 4)))
    for seat in (11, 12, 13):
        _apply_all(state, GAME.decide(state, seat, {"type": "place", "cell": "0,0"}, fixed()))
    assert state.roller == 13


def test_only_the_roller_may_roll_and_only_once() -> None:
    state = _state()
    with pytest.raises(ActionError) as err:
        GAME.decide(state, 12, {"type": "roll"}, fixed(1, 1))
    assert err.value.code == "not_your_turn"
    _apply_all(state, GAME.decide(state, 11, {"type": "roll"}, fixed(2, 5)))
    assert state.current_sum == 7
    with pytest.raises(ActionError) as err:
        GAME.decide(state, 11, {"type": "roll"}, fixed(1, 1))
    assert err.value.code == "waiting"


def test_a_placement_is_final_and_once_per_roll() -> None:
    state = _state(seats=(1, 2))
    _apply_all(state, GAME.decide(state, 1, {"type": "roll"}, fixed(6, 6)))
    _apply_all(state, GAME.decide(state, 1, {"type": "place", "cell": [2, 3]}, fixed()))
    with pytest.raises(ActionError) as err:
        GAME.decide(state, 1, {"type": "place", "cell": [2, 4]}, fixed())
    assert err.value.code == "already_placed"
    assert state.sheets[1].grid[2][3] == 12


@pytest.mark.parametrize("cell", ["5,0", "-1,2", "a,b", [1], None, "1,2,3", 7])
def test_malformed_cells_are_refused(cell) -> None:
    state = _state(seats=(1,))
    _apply_all(state, GAME.decide(state, 1, {"type": "roll"}, fixed(1, 2)))
    with pytest.raises(ActionError) as err:
        GAME.decide(state, 1, {"type": "place", "cell": cell}, fixed())
    assert err.value.code == "bad_cell"


def test_timer_places_automatically_for_those_who_did_not() -> None:
    state = _state(seats=(1, 2, 3), timer=30)
    _apply_all(state, GAME.decide(state, 1, {"type": "roll"}, fixed(4, 4)), at=T0)
    _apply_all(state, GAME.decide(state, 2, {"type": "place", "cell": "0,0"}, fixed()), at=T0)
    table = Presence(seat_ids=[1, 2, 3], online=frozenset({1, 2, 3}))
    assert GAME.deadline(state, table, T0) == T0 + timedelta(seconds=30)
    assert GAME.on_timer(state, table, T0 + timedelta(seconds=29), fixed()) == []
    events = GAME.on_timer(state, table, T0 + timedelta(seconds=30), fixed())
    assert sorted(e.seat_id for e in events) == [1, 3]
    assert all(e.payload["auto"] and e.payload["value"] == 8 for e in events)
    _apply_all(state, events)
    assert not state.roll_pending
    assert (1, tuple(events[0].payload["cell"])) in state.auto_cells


def test_without_timer_an_away_player_is_placed_for_after_30_seconds() -> None:
    state = _state(seats=(1, 2, 3))
    _apply_all(state, GAME.decide(state, 1, {"type": "roll"}, fixed(4, 4)), at=T0)
    away_at = T0 + timedelta(seconds=10)
    table = Presence(seat_ids=[1, 2, 3], online=frozenset({1, 2}), away_since={3: away_at})
    assert GAME.deadline(state, table, T0) == away_at + timedelta(seconds=30)
    assert GAME.on_timer(state, table, away_at + timedelta(seconds=29), fixed()) == []
    (event,) = GAME.on_timer(state, table, away_at + timedelta(seconds=30), fixed())
    assert event.seat_id == 3 and event.payload["auto"] is True  # online 1 and 2 still choose


def test_no_timer_means_nobody_is_placed_for() -> None:
    state = _state(seats=(1, 2))
    _apply_all(state, GAME.decide(state, 1, {"type": "roll"}, fixed(4, 4)))
    table = Presence(seat_ids=[1, 2], online=frozenset({1, 2}))
    assert GAME.deadline(state, table, T0) is None


def test_away_roller_is_rolled_for_after_a_grace_period() -> None:
    state = _state(seats=(1, 2))
    table = Presence(seat_ids=[1, 2], online=frozenset({2}), away_since={1: T0})
    due = GAME.deadline(state, table, T0)
    assert due == T0 + timedelta(seconds=15)
    assert GAME.on_timer(state, table, T0 + timedelta(seconds=14), fixed(1, 1)) == []
    (event,) = GAME.on_timer(state, table, due, fixed(3, 5))
    assert event.type == "roll" and event.seat_id == 1 and event.payload == {
        "dice": [3, 5], "auto": True}


def test_online_roller_is_never_rolled_for() -> None:
    state = _state(seats=(1, 2))
    table = Presence(seat_ids=[1, 2], online=frozenset({1, 2}))
    assert GAME.deadline(state, table, T0) is None


def test_game_ends_after_25_rolls_all_placed() -> None:
    state = _state(seats=(1, 2))
    for i in range(25):
        roller = state.roller
        _apply_all(state, GAME.decide(state, roller, {"type": "roll"}, fixed(1 + i % 6, 2)))
        for seat in (1, 2):
            cell = state.sheets[seat].empty_cells()[0]
            _apply_all(state, GAME.decide(state, seat, {"type": "place", "cell": list(cell)},
                                          fixed()))
    assert GAME.is_over(state)
    assert state.roller is None
    totals = GAME.totals(state)
    assert totals[1] == totals[2]  # same numbers in the same cells


def test_a_removed_seat_no_longer_holds_up_the_table() -> None:
    state = _state(seats=(1, 2))
    _apply_all(state, GAME.decide(state, 1, {"type": "roll"}, fixed(2, 2)))
    _apply_all(state, GAME.decide(state, 1, {"type": "place", "cell": "0,0"}, fixed()))
    assert state.roll_pending
    _apply_all(state, GAME.remove_seat(state, 2))
    assert not state.roll_pending and state.roller == 1


@pytest.mark.parametrize(("form", "field"), [
    ({"match": "2"}, "match"), ({"straight_without_seven": "11"}, "straight_without_seven"),
    ({"timer": "x"}, "timer"),
])
def test_bad_options_are_refused(form, field) -> None:
    from app.rooms.games.base import OptionError

    with pytest.raises(OptionError) as err:
        GAME.parse_options(form)
    assert err.value.field == field


def test_options_are_parsed_from_form_strings() -> None:
    assert GAME.parse_options({"match": "3", "straight_without_seven": "12", "timer": "60"}) == {
        "match": 3, "straight_without_seven": 12, "timer": 60, "dice": "screen"}


def test_first_roller_away_since_before_a_restart_is_still_rolled_for() -> None:
    state = _state(seats=(1, 2))
    watching = T0 + timedelta(minutes=5)  # the restarted process began watching here
    table = Presence(seat_ids=[1, 2], online=frozenset({2}), started_at=T0,
                  watching_since=watching)
    later = watching + timedelta(minutes=1)
    assert GAME.deadline(state, table, later) == watching + timedelta(seconds=15)
    assert len(GAME.on_timer(state, table, later, fixed(2, 3))) == 1


def test_the_basis_is_the_number_of_rolls_seen() -> None:
    # a placement or roll decided on an earlier roll is refused by the room service, which
    # compares the page's basis with this one (found by a fresh-user test: a page that was
    # offline placed the new roll's sum in a cell tapped for the old one)
    state = _state(seats=(11, 12))
    assert GAME.basis(state) == {"roll": 0}
    _apply_all(state, GAME.decide(state, 11, {"type": "roll"}, fixed(3, 4)))
    assert GAME.basis(state) == {"roll": 1}
    _apply_all(state, GAME.decide(state, 12, {"type": "place", "cell": "0,0"}, fixed()))
    assert GAME.basis(state) == {"roll": 1}  # another player's placement changes nothing
    with pytest.raises(RoomError) as err:
        check_basis(GAME.basis(state), {"type": "place", "cell": "0,1", "roll": 0})
    assert err.value.code == "stale"
    with pytest.raises(RoomError) as err:
        check_basis(GAME.basis(state), {"type": "place", "cell": "0,1"})  # none: refused too
    assert err.value.code == "stale"
    check_basis(GAME.basis(state), {"type": "place", "cell": "0,1", "roll": 1})
