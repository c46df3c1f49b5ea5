"""The Kniffel-family room plug-in on its own: options, decide, apply, timers (no server)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.engines.kniffel import Scorecard
from app.rooms.errors import RoomError
from app.rooms.games import GAMES
from app.rooms.games.base import ActionError, Event, OptionError, Presence
from app.rooms.games.kniffel import AWAY_GRACE, KniffelGame
from app.rooms.rules import check_basis

T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
A, B = 11, 22


def faces(*values: int):
    """A ``Dice`` that hands out ``values`` in order (and records each request)."""
    queue = list(values)
    asked: list[int] = []

    def draw(n: int) -> list[int]:
        asked.append(n)
        out, queue[:] = queue[:n], queue[n:]
        assert len(out) == n, "test dice ran out"
        return out

    draw.asked = asked  # type: ignore[attr-defined]
    return draw


def act(game, state, seat, action, dice=None, at=T0):
    """Decide and apply like the room service does; returns the events."""
    events = game.decide(state, seat, action, dice or faces())
    for e in events:
        game.apply(state, Event(e.type, e.payload, e.seat_id, at))
    return events


def new(kind="kniffel", seats=(A, B), **options):
    game = KniffelGame(kind)
    return game, game.new_state(game.parse_options(options), list(seats), 0)


def refused(game, state, seat, action, code, dice=None):
    before = game.public(state)
    with pytest.raises(ActionError) as err:
        game.decide(state, seat, action, dice or faces(1, 2, 3, 4, 5))
    assert err.value.code == code
    assert game.public(state) == before
    return err.value


# ----- options ---------------------------------------------------------------------------------

def test_registry_has_the_three_rule_sets() -> None:
    assert {k: GAMES[k].kind for k in ("kniffel", "kitkniff", "yatzy")} == {
        "kniffel": "kniffel", "kitkniff": "kitkniff", "yatzy": "yatzy"}
    assert GAMES["kniffel"].template == "rooms/kniffel/game.html"


def test_default_options_are_one_column_no_timer_joker_on_house_rules_off() -> None:
    assert KniffelGame("kniffel").default_options() == {
        "joker": True, "five_alike_full_house": False, "extra_bonus": True,
        "columns": 1, "timer": 0, "hints": False, "dice": "screen"}


def test_parse_options_reads_form_strings_and_the_last_of_repeated_switches() -> None:
    parsed = KniffelGame("kitkniff").parse_options({
        "type": "options", "columns": "3", "timer": "120", "joker": ["false"],
        "five_alike_full_house": ["false", "true"], "extra_bonus": "false",
        "hints": ["false", "true"]})
    assert parsed == {"joker": False, "five_alike_full_house": True, "extra_bonus": False,
                      "columns": 3, "timer": 120, "hints": True, "dice": "screen"}


@pytest.mark.parametrize(("field", "value"), [
    ("columns", "0"), ("columns", "7"), ("columns", "x"), ("timer", "30"), ("joker", "maybe"),
])
def test_parse_options_refuses_values_outside_the_choices(field, value) -> None:
    with pytest.raises(OptionError) as err:
        KniffelGame("kniffel").parse_options({field: value})
    assert err.value.field == field


def test_extra_bonus_switch_exists_only_for_kitkniff_and_joker_not_for_yatzy() -> None:
    assert KniffelGame("kniffel").parse_options({"extra_bonus": "false"})["extra_bonus"] is True
    assert KniffelGame("yatzy").parse_options({"joker": "false"})["joker"] is True


# ----- a turn ----------------------------------------------------------------------------------

def test_first_seat_rolls_all_five_dice() -> None:
    game, state = new()
    dice = faces(6, 6, 2, 3, 6)
    events = act(game, state, A, {"type": "roll"}, dice)
    assert dice.asked == [5]
    assert [(e.type, e.payload, e.seat_id) for e in events] == [
        ("roll", {"dice": [6, 6, 2, 3, 6], "held": [False] * 5, "auto": False}, A)]
    assert game.public(state)["dice"] == [6, 6, 2, 3, 6]
    assert game.public(state)["rolls"] == 1


def test_held_dice_keep_their_faces_and_only_free_dice_are_rolled() -> None:
    game, state = new()
    act(game, state, A, {"type": "roll"}, faces(6, 6, 2, 3, 6))
    act(game, state, A, {"type": "hold", "die": 0, "held": True})
    act(game, state, A, {"type": "hold", "die": "1", "held": True})
    act(game, state, A, {"type": "hold", "die": 4, "held": True})
    dice = faces(6, 1)
    events = act(game, state, A, {"type": "roll"}, dice)
    assert dice.asked == [2]
    assert events[0].payload == {"dice": [6, 6, 6, 1, 6], "held": [True, True, False, False, True],
                                 "auto": False}
    assert game.public(state)["held"] == [True, True, False, False, True]


def test_a_hold_sets_the_state_the_page_asked_for_so_a_repeat_changes_nothing() -> None:
    game, state = new()
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    act(game, state, A, {"type": "hold", "die": 2, "held": True})
    act(game, state, A, {"type": "hold", "die": 2, "held": True})  # a double tap
    assert game.public(state)["held"] == [False, False, True, False, False]
    events = act(game, state, A, {"type": "hold", "die": 2, "held": False})
    assert events[0].payload == {"die": 2, "held": False}
    assert game.public(state)["held"] == [False] * 5


def test_a_hold_without_the_wanted_state_is_refused() -> None:
    game, state = new()
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    refused(game, state, A, {"type": "hold", "die": 2}, "bad_message")
    refused(game, state, A, {"type": "hold", "die": 2, "held": "yes"}, "bad_message")
    assert game.public(state)["held"] == [False] * 5


def test_a_fourth_roll_is_refused() -> None:
    game, state = new()
    for _ in range(3):
        act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    refused(game, state, A, {"type": "roll"}, "no_rolls_left")
    refused(game, state, A, {"type": "hold", "die": 0, "held": True}, "no_rolls_left")


def test_rolling_with_every_die_held_is_refused() -> None:
    game, state = new()
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    for i in range(5):
        act(game, state, A, {"type": "hold", "die": i, "held": True})
    refused(game, state, A, {"type": "roll"}, "all_held")


@pytest.mark.parametrize("die", [5, -1, "x", None, 1.5, True])
def test_holding_a_die_not_on_the_table_is_refused(die) -> None:
    game, state = new()
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    refused(game, state, A, {"type": "hold", "die": die, "held": True}, "bad_die")


def test_holding_or_scoring_before_the_first_roll_is_refused() -> None:
    game, state = new()
    refused(game, state, A, {"type": "hold", "die": 0, "held": True}, "no_dice")
    refused(game, state, A, {"type": "score", "box": "chance"}, "no_roll")


def test_only_the_seat_on_turn_may_roll_hold_or_score() -> None:
    game, state = new()
    refused(game, state, B, {"type": "roll"}, "not_your_turn")
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    refused(game, state, B, {"type": "hold", "die": 0, "held": True}, "not_your_turn")
    refused(game, state, B, {"type": "score", "box": "chance"}, "not_your_turn")
    refused(game, state, 99, {"type": "roll"}, "not_playing")


def test_unknown_box_and_unknown_action_are_refused() -> None:
    game, state = new()
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    refused(game, state, A, {"type": "score", "box": "one_pair"}, "unknown_box")  # Yatzy only
    refused(game, state, A, {"type": "score", "box": ["chance"]}, "unknown_box")
    refused(game, state, A, {"type": "shuffle"}, "unknown_action")


def test_scoring_writes_the_engine_points_and_passes_the_turn() -> None:
    game, state = new()
    act(game, state, A, {"type": "roll"}, faces(2, 3, 4, 5, 1))
    events = act(game, state, A, {"type": "score", "box": "large_straight", "column": 0})
    assert events[0].payload == {"box": "large_straight", "column": 0, "points": 40,
                                 "auto": False}
    public = game.public(state)
    assert public["sheets"][str(A)][0]["boxes"]["large_straight"] == 40
    assert public["sheets"][str(A)][0]["last_box"] == "large_straight"
    assert (public["current"], public["rolls"], public["dice"]) == (B, 0, [])
    assert game.totals(state) == {A: 40, B: 0}


def test_a_filled_box_is_refused() -> None:
    game, state = new(seats=(A,))
    act(game, state, A, {"type": "roll"}, faces(1, 1, 1, 1, 1))
    act(game, state, A, {"type": "score", "box": "ones"})
    act(game, state, A, {"type": "roll"}, faces(1, 1, 2, 2, 3))
    refused(game, state, A, {"type": "score", "box": "ones"}, "box_filled")


def test_second_five_alike_gets_the_extra_bonus_and_joker_values() -> None:
    game, state = new("kniffel", seats=(A,))
    act(game, state, A, {"type": "roll"}, faces(4, 4, 4, 4, 4))
    act(game, state, A, {"type": "score", "box": "yahtzee"})
    act(game, state, A, {"type": "roll"}, faces(3, 3, 3, 3, 3))
    assert game.public(state)["options"]["full_house"] == 25  # joker
    act(game, state, A, {"type": "score", "box": "large_straight"})
    sheet = game.public(state)["sheets"][str(A)][0]
    assert sheet["boxes"]["large_straight"] == 40
    assert sheet["extra_bonus"] == 50
    assert game.totals(state) == {A: 50 + 40 + 50}


def test_kitkniff_without_extra_bonus_pays_none() -> None:
    game, state = new("kitkniff", seats=(A,), extra_bonus="false")
    for box in ("yahtzee", "sixes"):
        act(game, state, A, {"type": "roll"}, faces(6, 6, 6, 6, 6))
        act(game, state, A, {"type": "score", "box": box})
    assert game.totals(state) == {A: 50 + 30}


def test_no_joker_house_rule_scores_only_what_the_dice_show() -> None:
    game, state = new("kniffel", seats=(A,), joker="false")
    act(game, state, A, {"type": "roll"}, faces(2, 2, 2, 2, 2))
    act(game, state, A, {"type": "score", "box": "yahtzee"})
    act(game, state, A, {"type": "roll"}, faces(5, 5, 5, 5, 5))
    assert game.public(state)["options"]["full_house"] == 0


# ----- columns and the end ---------------------------------------------------------------------

def play_column(game, state, seat, boxes, value=6):
    for box in boxes:
        act(game, state, seat, {"type": "roll"}, faces(*[value] * 5))
        act(game, state, seat, {"type": "score", "box": box})


def test_columns_are_filled_one_after_the_other_and_totals_add_up() -> None:
    game, state = new("yatzy", seats=(A,), columns="2")
    boxes = list(Scorecard("yatzy").boxes)
    play_column(game, state, A, boxes, value=1)
    assert game.public(state)["column"] == 1
    act(game, state, A, {"type": "roll"}, faces(1, 1, 1, 1, 1))
    refused(game, state, A, {"type": "score", "box": "twos", "column": 0}, "box_filled")
    refused(game, state, A, {"type": "score", "box": "twos", "column": 2}, "bad_column")
    act(game, state, A, {"type": "score", "box": "twos", "column": 1})
    play_column(game, state, A, [b for b in boxes if b != "twos"], value=1)
    assert game.is_over(state)
    # five ones in every box of a Yatzy column (docs/rules.md, "Kniffel"): ones 5, no upper
    # bonus; one pair 2, three of a kind 3, four of a kind 4, chance 5, Yatzy 50; two pairs,
    # straights and full house (five alike is none) 0
    column = 5 + 2 + 3 + 4 + 5 + 50
    assert game.totals(state) == {A: 2 * column}
    sheets = game.public(state)["sheets"][str(A)]
    assert [c["running"] for c in sheets] == [column, 2 * column]
    refused(game, state, A, {"type": "roll"}, "game_over")


def test_a_bad_column_in_the_future_is_refused() -> None:
    game, state = new(seats=(A,), columns="2")
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    refused(game, state, A, {"type": "score", "box": "chance", "column": 1}, "bad_column")
    refused(game, state, A, {"type": "score", "box": "chance", "column": "x"}, "bad_column")


def test_turns_go_round_the_table_and_a_leaving_seat_passes_its_turn() -> None:
    game, state = new(seats=(A, B, 33))
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    act(game, state, A, {"type": "score", "box": "chance"})
    act(game, state, B, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    for e in game.remove_seat(state, B):
        game.apply(state, Event(e.type, e.payload, e.seat_id, T0))
    assert game.public(state)["current"] == 33
    assert game.public(state)["rolls"] == 0
    assert game.remove_seat(state, B) == []


def test_the_game_ends_when_every_box_of_every_seat_is_filled() -> None:
    game, state = new(seats=(A, B))
    boxes = list(Scorecard("kniffel").boxes)
    for box in boxes:
        for seat in (A, B):
            assert not game.is_over(state)
            act(game, state, seat, {"type": "roll"}, faces(2, 2, 3, 3, 3))
            act(game, state, seat, {"type": "score", "box": box})
    assert game.is_over(state)
    assert game.public(state)["current"] is None


def test_replaying_the_events_rebuilds_the_turn() -> None:
    game, state = new()
    log = []
    log += act(game, state, A, {"type": "roll"}, faces(5, 5, 1, 2, 5))
    log += act(game, state, A, {"type": "hold", "die": 0, "held": True})
    log += act(game, state, A, {"type": "hold", "die": 4, "held": True})
    log += act(game, state, A, {"type": "roll"}, faces(5, 3, 2))
    log += act(game, state, A, {"type": "hold", "die": 1, "held": True})
    replay = game.new_state(game.default_options(), [A, B], 0)
    for e in log:
        game.apply(replay, e)
    assert game.public(replay) == game.public(state)
    assert game.public(replay)["dice"] == [5, 5, 3, 2, 5]
    assert game.public(replay)["held"] == [True, True, False, False, True]
    assert game.public(replay)["rolls"] == 2


# ----- timers ----------------------------------------------------------------------------------

def test_no_deadline_with_the_timer_off_while_the_player_on_turn_is_online() -> None:
    game, state = new()
    table = Presence([A, B], online=frozenset({A, B}), started_at=T0)
    assert game.deadline(state, table, T0) is None
    assert game.on_timer(state, table, T0 + timedelta(hours=1), faces()) == []


def test_turn_timer_runs_from_the_game_start_then_from_the_last_box() -> None:
    game, state = new(timer="60")
    table = Presence([A, B], online=frozenset({A, B}), started_at=T0)
    assert game.deadline(state, table, T0) == T0 + timedelta(seconds=60)
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    act(game, state, A, {"type": "score", "box": "chance"}, at=T0 + timedelta(seconds=10))
    assert game.deadline(state, table, T0) == T0 + timedelta(seconds=70)


def test_timer_finishes_an_unrolled_turn_with_a_roll_and_the_auto_box() -> None:
    game, state = new(timer="60")
    table = Presence([A, B], online=frozenset({A, B}), started_at=T0)
    assert game.on_timer(state, table, T0 + timedelta(seconds=59), faces()) == []
    events = game.on_timer(state, table, T0 + timedelta(seconds=60), faces(3, 3, 3, 2, 2))
    assert [(e.type, e.payload, e.seat_id) for e in events] == [
        ("roll", {"dice": [3, 3, 3, 2, 2], "held": [False] * 5, "auto": True}, A),
        ("score", {"box": "full_house", "column": 0, "points": 25, "auto": True}, A)]
    for e in events:
        game.apply(state, e)
    assert game.public(state)["current"] == B
    assert game.public(state)["auto"] == [[A, 0, "full_house"]]


def test_timer_scores_the_dice_on_the_table_when_the_player_had_rolled() -> None:
    game, state = new(timer="120")
    act(game, state, A, {"type": "roll"}, faces(6, 6, 6, 6, 1))
    table = Presence([A, B], online=frozenset({A, B}), started_at=T0)
    events = game.on_timer(state, table, T0 + timedelta(seconds=121), faces())
    assert [(e.type, e.payload["box"], e.payload["points"]) for e in events] == [
        ("score", "three_of_a_kind", 25)]  # auto_box: most points, ties in card order


def test_an_away_player_on_turn_is_finished_after_the_grace_period() -> None:
    game, state = new()
    left = T0 + timedelta(seconds=5)
    table = Presence([A, B], online=frozenset({B}), away_since={A: left}, started_at=T0)
    assert game.deadline(state, table, T0) == left + AWAY_GRACE
    assert [e.type for e in game.on_timer(state, table, left + AWAY_GRACE,
                                          faces(1, 2, 3, 4, 6))] == ["roll", "score"]


def test_after_a_restart_the_away_clock_starts_when_the_server_began_watching() -> None:
    game, state = new()
    back = T0 + timedelta(minutes=10)
    table = Presence([A, B], online=frozenset({B}), started_at=T0, watching_since=back)
    assert game.deadline(state, table, back) == back + AWAY_GRACE


def test_the_basis_is_the_turn_and_its_roll_count() -> None:
    # a score, hold or roll decided on dice that are gone is refused by the room service
    # (found: Roll and a score sent back to back scored the new dice)
    game, state = new()
    assert game.basis(state) == {"turn": 1, "rolls": 0}
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    assert game.basis(state) == {"turn": 1, "rolls": 1}
    act(game, state, A, {"type": "hold", "die": 0, "held": True})
    assert game.basis(state) == {"turn": 1, "rolls": 1}  # holds commute: no new basis
    act(game, state, A, {"type": "score", "box": "chance"})
    assert game.basis(state) == {"turn": 2, "rolls": 0}
    with pytest.raises(RoomError) as err:
        check_basis(game.basis(state), {"type": "roll", "turn": 1, "rolls": 1})
    assert err.value.code == "stale"
    with pytest.raises(RoomError) as err:
        check_basis(game.basis(state), {"type": "roll", "turn": 2})
    assert err.value.code == "stale"
    check_basis(game.basis(state), {"type": "roll", "turn": 2, "rolls": 0})


def test_a_leave_of_the_player_on_turn_starts_a_new_turn() -> None:
    game, state = new()
    act(game, state, A, {"type": "roll"}, faces(1, 2, 3, 4, 5))
    game.apply(state, Event("leave", {}, A, T0))
    assert state.current == B
    assert game.basis(state) == {"turn": 2, "rolls": 0}
