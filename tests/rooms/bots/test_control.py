"""Which seats a bot plays and the "bot takes over" option (docs/rules.md, "Bots"), as pure
rules on a room state built by hand: the takeover grace, the option on and off, the table the
plug-in decides its own automatic moves on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.rooms.bots.control import (
    TAKEOVER_GRACE,
    BotControl,
    Controller,
    as_takeover,
    bot_seats,
    controllers,
    parse_bot_options,
    takeover_on,
)
from app.rooms.games.base import Event, OptionError, Presence
from app.rooms.state import GameInfo, RoomState, SeatInfo

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
GRACE = timedelta(seconds=30)
STRONG, CASUAL = "bot-s-0123456789abcdef", "bot-c-0123456789abcdef"
ANN, BOB, CAT = "p-ann", "p-bob", "p-cat"


def room(options: dict | None = None, status: str = "playing",
         started: datetime | None = T0) -> RoomState:
    """Ann, Bob and Cat, a strong and a casual bot, and Dan who left; the game seats 1-5."""
    seats = [SeatInfo(1, ANN, "Ann", 0, "active"), SeatInfo(2, BOB, "Bob", 1, "active"),
             SeatInfo(3, STRONG, "Bot Anna", 2, "active"),
             SeatInfo(4, CASUAL, "Bot Bram", 3, "active"), SeatInfo(5, CAT, "Cat", 4, "active"),
             SeatInfo(6, "p-dan", "Dan", 5, "left")]
    game = GameInfo(id=1, number=1, kind="knister", options={}, seat_ids=[1, 2, 3, 4, 5, 6],
                    status=status, totals={}, started_at=started)
    return RoomState(id=1, code="abc", kind="knister", options=options or {},
                     host_player_id=ANN, status=status, version=4, seats=seats, games=[game])


def table(online=(), away=None, watching: datetime | None = None,
          seat_ids=(1, 2, 3, 4, 5)) -> Presence:
    return Presence(seat_ids=list(seat_ids), online=frozenset(online), away_since=away or {},
                 watching_since=watching)


# ---- the option -----------------------------------------------------------------------------

def test_takeover_is_on_unless_the_room_switched_it_off() -> None:
    assert takeover_on({}) is True
    assert takeover_on({"bot_takeover": True}) is True
    assert takeover_on({"bot_takeover": False}) is False


@pytest.mark.parametrize(("raw", "on"), [
    ("1", True), ("true", True), (" On ", True), ("YES", True), (True, True),
    ("0", False), ("false", False), ("off", False), ("No", False), ("", False), (False, False),
    (["false", "true"], True), (("true", "false"), False), ([], False), (["false"], False),
    (["true"], True), (["true", "true", "false"], False),
])
def test_the_lobby_form_switches_the_option(raw, on) -> None:
    assert parse_bot_options({"bot_takeover": raw}) == {"bot_takeover": on}


def test_an_absent_option_is_on() -> None:
    assert parse_bot_options({}) == {"bot_takeover": True}


@pytest.mark.parametrize("raw", ["maybe", "2", ["true", "sometimes"]])
def test_another_value_is_refused_naming_the_option(raw) -> None:
    with pytest.raises(OptionError) as err:
        parse_bot_options({"bot_takeover": raw})
    assert (err.value.code, err.value.status, err.value.field) == (
        "bad_option", 400, "bot_takeover")


# ---- who a bot plays -------------------------------------------------------------------------

def test_bot_seats_are_the_active_seats_of_bots() -> None:
    state = room()
    assert bot_seats(state) == {3, 4}
    state.seats[3].status = "removed"
    assert bot_seats(state) == {3}


def test_a_person_away_for_the_grace_is_taken_over_by_a_strong_bot() -> None:
    control = BotControl(GRACE)
    away = table(online={1, 2}, away={5: T0 + timedelta(seconds=15)})
    state = room()
    due = control.mark(state, away, T0 + timedelta(seconds=44))
    assert (due, state.away_due, state.taken_over) == (
        T0 + timedelta(seconds=45), {5: T0 + timedelta(seconds=45)}, set())
    assert 5 not in controllers(state)
    state = room()
    assert control.mark(state, away, T0 + timedelta(seconds=45)) is None
    assert (state.taken_over, state.away_due) == ({5}, {})
    assert controllers(state) == {3: Controller(STRONG, "strong", False),
                                  4: Controller(CASUAL, "casual", False),
                                  5: Controller(CAT, "strong", True)}


def test_the_grace_runs_from_when_they_left_or_the_game_started_whichever_is_later() -> None:
    control = BotControl(GRACE)
    state = room(started=T0 + timedelta(seconds=20))
    due = control.mark(state, table(online={1}, away={2: T0, 5: T0 + timedelta(seconds=40)}),
                       T0 + timedelta(seconds=21))
    assert state.away_due == {2: T0 + timedelta(seconds=50), 5: T0 + timedelta(seconds=70)}
    assert due == T0 + timedelta(seconds=50) and state.taken_over == set()


def test_a_person_not_seen_since_the_room_was_loaded_is_away_since_then() -> None:
    control = BotControl(GRACE)
    state = room(started=None)
    control.mark(state, table(online={1, 2}, watching=T0 + timedelta(seconds=7)),
                 T0 + timedelta(seconds=8))
    assert state.away_due == {5: T0 + timedelta(seconds=37)}
    state = room(started=None)
    control.mark(state, table(online={1, 2}), T0 + timedelta(seconds=8))
    assert state.away_due == {5: T0 + timedelta(seconds=38)}  # nothing known: from now


def test_bots_present_people_and_seats_out_of_the_game_are_not_taken_over() -> None:
    control = BotControl(timedelta(0))
    state = room()
    assert control.mark(state, table(online={1}, seat_ids=(1, 2, 3, 4)), T0) is None
    assert state.taken_over == {2} and state.away_due == {}


def test_the_default_grace_is_thirty_seconds() -> None:
    state = room()
    BotControl().mark(state, table(online={1, 2}, away={5: T0}), T0)
    assert TAKEOVER_GRACE == GRACE and state.away_due == {5: T0 + GRACE}


def test_with_takeover_off_nobody_is_taken_over_and_no_countdown_is_set() -> None:
    state = room({"bot_takeover": False})
    state.taken_over = {5}
    assert BotControl(timedelta(0)).mark(state, table(online={1}, away={5: T0}),
                                         T0 + timedelta(hours=1)) is None
    assert (state.taken_over, state.away_due) == (set(), {})
    assert controllers(state) == {3: Controller(STRONG, "strong", False),
                                  4: Controller(CASUAL, "casual", False)}


@pytest.mark.parametrize("status", ["lobby", "finished"])
def test_outside_a_running_game_nobody_is_taken_over(status) -> None:
    state = room(status=status)
    state.taken_over = {5}
    assert BotControl(timedelta(0)).mark(state, table(online={1}), T0) is None
    assert (state.taken_over, state.away_due) == (set(), {})
    assert controllers(state) == {}


def test_before_the_first_game_nobody_is_taken_over() -> None:
    state = room()
    state.games = []
    assert BotControl(timedelta(0)).mark(state, table(online={1}), T0) is None
    assert state.taken_over == set() and controllers(state) == {}


def test_a_bot_seat_not_in_the_running_game_is_not_played() -> None:
    state = room()
    state.games[0].seat_ids = [1, 2, 4]
    state.taken_over = {1, 5}
    assert controllers(state) == {4: Controller(CASUAL, "casual", False),
                                  1: Controller(ANN, "strong", True)}


# ---- what the plug-in sees -------------------------------------------------------------------

def test_with_takeover_on_the_plugin_sees_every_seat_present() -> None:
    adjusted = BotControl().adjust(room(), table(online={1}, away={5: T0}))
    assert adjusted.online == frozenset({1, 2, 3, 4, 5})
    assert adjusted.away_since == {5: T0} and list(adjusted.seat_ids) == [1, 2, 3, 4, 5]


def test_with_takeover_off_the_plugin_sees_the_people_online_and_the_bots() -> None:
    adjusted = BotControl().adjust(room({"bot_takeover": False}), table(online={1}))
    assert adjusted.online == frozenset({1, 3, 4})


def test_outside_a_game_the_plugin_sees_the_people_online_and_the_bots() -> None:
    adjusted = BotControl().adjust(room(status="lobby"), table(online={2}))
    assert adjusted.online == frozenset({2, 3, 4})


def test_moves_made_for_an_away_person_are_marked_auto_and_bot() -> None:
    events = [Event("roll", {"dice": [1, 2], "auto": False}, 5, T0),
              Event("hold", {"die": 0, "held": True}, 5, T0),
              Event("place", {"cell": [0, 0], "value": 3, "auto": True}, 5, T0)]
    assert as_takeover(events) == [
        Event("roll", {"dice": [1, 2], "auto": True, "bot": True}, 5, T0),
        Event("hold", {"die": 0, "held": True}, 5, T0),
        Event("place", {"cell": [0, 0], "value": 3, "auto": True, "bot": True}, 5, T0)]
