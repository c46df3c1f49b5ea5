"""The Kniffel family with real dice (docs/rules.md, "Table mode"), as pure plug-in rules:
the player on turn enters the five dice they have after their last throw and chooses a box;
a game of entered dice scores exactly like the same dice rolled by the server."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engines.kniffel import RULESETS
from app.rooms.games.base import ActionError, Event, OptionError, Presence
from app.rooms.games.kniffel import KniffelGame

T0 = datetime(2026, 1, 1, tzinfo=UTC)
A, B = 11, 22


def new(kind="kniffel", real=True, **options):
    game = KniffelGame(kind)
    form = {"dice": "real" if real else "screen", **options}
    return game, game.new_state(game.parse_options(form), [A, B], 0)


def act(game, state, seat, action, dice=None):
    events = game.decide(state, seat, action, dice or (lambda n: []))
    for e in events:
        game.apply(state, Event(e.type, e.payload, e.seat_id, T0))
    return events


def refused(game, state, seat, action, code):
    before = (state.turn.dice, state.turn_no, state.entries, game.totals(state))
    with pytest.raises(ActionError) as err:
        game.decide(state, seat, action, lambda n: [3] * n)
    assert err.value.code == code
    assert (state.turn.dice, state.turn_no, state.entries, game.totals(state)) == before
    return err.value


@pytest.mark.parametrize("kind", ["kniffel", "kitkniff", "yatzy"])
def test_every_rule_set_has_the_dice_option(kind) -> None:
    game = KniffelGame(kind)
    assert game.default_options()["dice"] == "screen"
    assert game.parse_options({"dice": "real"})["dice"] == "real"
    with pytest.raises(OptionError):
        game.parse_options({"dice": "both"})


def test_the_player_on_turn_enters_five_dice_then_chooses_a_box() -> None:
    game, state = new()
    events = act(game, state, A, {"type": "enter", "dice": [6, 6, 6, 2, 2]})
    assert events[0].payload == {"dice": [6, 6, 6, 2, 2], "held": [False] * 5, "auto": False,
                                 "entered": True}
    assert state.options()["full_house"] == 25
    assert game.basis(state) == {"turn": 1, "rolls": 1, "entry": 1}
    act(game, state, A, {"type": "score", "box": "full_house"})
    assert game.totals(state)[A] == 25 and state.current == B


def test_the_dice_may_be_entered_again_before_the_box_and_come_from_face_fields() -> None:
    game, state = new()
    act(game, state, A, {"type": "enter", "dice": [1, 2, 3, 4, 6]})
    act(game, state, A, {"type": "enter", **{f"die{i}": str(f) for i, f in
                                             enumerate((1, 2, 3, 4, 5))}})
    assert state.turn.dice == (1, 2, 3, 4, 5)
    assert game.basis(state) == {"turn": 1, "rolls": 1, "entry": 2}
    act(game, state, A, {"type": "score", "box": "large_straight"})
    assert game.totals(state)[A] == 40


@pytest.mark.parametrize(("dice", "code", "message"), [
    ([1, 2, 3, 4, 5, 6], "dice_count", "Enter exactly five dice."),
    ([1, 2, 3, 4], "dice_count", "Enter exactly five dice."),
    ([1, 2, 3, 4, 7], "bad_face", "Each die shows a number from 1 to 6."),
    ([0, 2, 3, 4, 5], "bad_face", "Each die shows a number from 1 to 6."),
    ("1,2,x,4,5", "bad_face", "Each die shows a number from 1 to 6."),
    ({"a": 1}, "bad_face", "Each die shows a number from 1 to 6."),
])
def test_bad_entries_are_refused_with_a_clear_message(dice, code, message) -> None:
    game, state = new()
    assert refused(game, state, A, {"type": "enter", "dice": dice}, code).message == message


def test_a_missing_face_picker_is_refused() -> None:
    game, state = new()
    refused(game, state, A, {"type": "enter", "die0": "1", "die1": "2", "die2": "3",
                             "die3": "4"}, "dice_count")


def test_entry_by_another_seat_rolling_holding_and_screen_entry_are_refused() -> None:
    game, state = new()
    refused(game, state, B, {"type": "enter", "dice": [1, 1, 1, 1, 1]}, "not_your_turn")
    refused(game, state, A, {"type": "roll"}, "real_dice")
    act(game, state, A, {"type": "enter", "dice": [1, 1, 1, 1, 1]})
    refused(game, state, A, {"type": "hold", "die": 0, "held": True}, "real_dice")
    game, state = new(real=False)
    refused(game, state, A, {"type": "enter", "dice": [1, 1, 1, 1, 1]}, "screen_dice")
    assert game.basis(state) == {"turn": 1, "rolls": 0}


def test_scoring_before_any_entry_is_refused() -> None:
    game, state = new()
    refused(game, state, A, {"type": "score", "box": "chance"}, "no_roll")


def test_no_away_takeovers_with_real_dice() -> None:
    game, state = new()
    table = Presence(seat_ids=[A, B], online=frozenset(), started_at=T0, watching_since=T0)
    assert game.away_deadlines(state, table, T0) == {}
    assert game.deadline(state, table, T0) is None


def _play(kind, house, turns, picks, real):
    """Play a two-seat game of ``kind``: turn i has the five dice ``turns[i]`` (one roll by
    the server, or entered: ``picks[i] % 2`` also enters wrong dice first, corrected); the
    box is the open box numbered ``picks[i]`` modulo the open boxes."""
    game, state = new(kind, real, **house)
    for i in range(len(RULESETS[kind].boxes) * 2):
        seat, dice = state.current, list(turns[i])
        if real:
            if picks[i] % 2:
                act(game, state, seat, {"type": "enter", "dice": [1, 2, 3, 4, 6]})
            act(game, state, seat, {"type": "enter", "dice": dice})
        else:
            act(game, state, seat, {"type": "roll"}, lambda n, d=dice: list(d))
        open_boxes = sorted(state.options())
        act(game, state, seat, {"type": "score", "box": open_boxes[picks[i] % len(open_boxes)]})
    assert game.is_over(state)
    return game, state


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["kniffel", "kitkniff", "yatzy"]),
       st.fixed_dictionaries({"joker": st.sampled_from(["true", "false"]),
                              "five_alike_full_house": st.sampled_from(["true", "false"])}),
       st.lists(st.one_of(st.lists(st.integers(1, 6), min_size=5, max_size=5),
                          st.integers(1, 6).map(lambda face: [face] * 5)),  # jokers, bonuses
                min_size=30, max_size=30),
       st.lists(st.integers(0, 20), min_size=30, max_size=30))
def test_entered_dice_score_exactly_like_the_same_dice_rolled_by_the_server(
        kind, house, turns, picks) -> None:
    game, served = _play(kind, house, turns, picks, False)
    _, entered = _play(kind, house, turns, picks, True)
    assert game.totals(entered) == game.totals(served)
    assert [[c.boxes for c in entered.cards[s]] for s in (A, B)] == [
        [c.boxes for c in served.cards[s]] for s in (A, B)]
