"""Room-level rules as pure functions (docs/rules.md, "Rooms": stale actions, host hand-over,
turn order, rematch and ready): each decided on a room state built by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.rooms.errors import RoomError
from app.rooms.games import get_game
from app.rooms.rules import (
    HOST_GRACE,
    ROOM_BASIS,
    SEATED_ACTIONS,
    basis_matches,
    check_basis,
    check_room_actor,
    heir,
    host_handoff,
    next_game,
    page_basis,
    required_basis,
    room_basis,
)
from app.rooms.state import GameInfo, RoomState, SeatInfo
from tests.support.room_service import service_room

ANN, BOB, CAT, DAN, EVE = (f"p-{name}" for name in ("ann", "bob", "cat", "dan", "eve"))
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
STALE = ("stale", "The table changed before your action arrived. Have a look and try again.",
         409)


def seat(seat_id: int, player: str, status: str = "active") -> SeatInfo:
    return SeatInfo(seat_id, player, player[2:].title(), seat_id, status)


def room(seats: list[SeatInfo], host: str | None = ANN, status: str = "lobby",
         games: list[GameInfo] | None = None, options: dict | None = None,
         version: int = 7) -> RoomState:
    return RoomState(id=1, code="abc", kind="knister", options=options or {},
                     host_player_id=host, status=status, version=version, seats=seats,
                     games=games or [])


def game(number: int, **options) -> GameInfo:
    return GameInfo(id=number, number=number, kind="knister", options=options,
                    seat_ids=[1, 2], status="finished", totals={})


def five() -> list[SeatInfo]:
    return [seat(1, ANN), seat(2, BOB), seat(3, CAT), seat(4, DAN), seat(5, EVE)]


def refusal(required: dict, message: dict) -> tuple[str, str, int]:
    with pytest.raises(RoomError) as err:
        check_basis(required, message)
    return err.value.code, err.value.message, err.value.status


# ---- what an action is decided on (docs/rules.md, "Stale actions") -------------------------

def test_each_room_action_names_the_basis_it_is_decided_on() -> None:
    assert ROOM_BASIS == {
        "start": ("version",), "options": ("game",), "next_game": ("version",),
        "rematch": ("version",), "play_again": ("version",), "remove": ("version",),
        "add_bot": ("version",),
        "add_table_seat": ("version",), "leave": ("game",), "ready": ("game",),
    }


def test_the_room_basis_is_the_version_and_the_latest_game_number() -> None:
    assert room_basis(room(five(), version=3)) == {"version": 3, "game": 0}
    assert room_basis(room(five(), version=9, games=[game(1), game(2)])) == {
        "version": 9, "game": 2}


def test_the_page_basis_adds_the_running_games_own() -> None:
    state = room(five(), status="playing", games=[game(4)], version=11)
    assert page_basis(state) == {"version": 11, "game": 4}  # no game state yet
    state.game_state = get_game("knister").new_state({}, [1, 2], 0)
    assert page_basis(state) == {"version": 11, "game": 4, "roll": 0}


@pytest.mark.parametrize(("kind", "expected"), [
    ("start", {"version": 7}), ("options", {"game": 2}), ("add_bot", {"version": 7}),
    ("add_table_seat", {"version": 7}), ("remove", {"version": 7}),
    ("next_game", {"version": 7}), ("rematch", {"version": 7}),
    ("leave", {"game": 2}), ("ready", {"game": 2}),
])
def test_room_actions_require_their_fields_with_current_values(kind, expected) -> None:
    state = room(five(), games=[game(1), game(2)])
    state.game_state = get_game("knister").new_state({}, [1, 2], 0)
    assert required_basis(state, kind) == expected


def test_game_actions_require_the_games_whole_basis_and_nothing_without_a_game() -> None:
    state = room(five(), status="playing", games=[game(1)])
    assert required_basis(state, "roll") == {}
    state.game_state = get_game("knister").new_state({}, [1, 2], 0)
    assert required_basis(state, "roll") == {"roll": 0}
    assert required_basis(state, "place") == {"roll": 0}


def test_a_message_carrying_the_current_basis_passes() -> None:
    assert check_basis({"version": 7, "game": 2}, {"version": 7, "game": 2, "x": 1}) is None
    assert check_basis({}, {}) is None


@pytest.mark.parametrize("message", [
    {"game": 2},                       # the version missing
    {"version": 6, "game": 2},         # an older version
    {"version": 8, "game": 2},         # a newer one
    {"version": "7", "game": 2},       # not an integer
    {"version": 7.0, "game": 2},
    {"version": True, "game": 2},
    {"version": 7, "game": 1},         # the second field differs
    {"version": 7},                    # the second field missing
])
def test_a_message_decided_on_another_state_is_refused_as_stale(message) -> None:
    assert refusal({"version": 7, "game": 2}, message) == STALE


# ---- who takes over as host (docs/rules.md, "Host hand-over") ------------------------------

NOT_HOST = ("not_host", "Only the host can do that.", 403)
NOT_SEATED = ("not_seated", "Only seated players can do that.", 403)


def actor_refusal(state: RoomState, player: str, kind: str) -> tuple[str, str, int] | None:
    try:
        check_room_actor(state, player, kind)
    except RoomError as err:
        return err.code, err.message, err.status
    return None


def test_leave_and_ready_are_any_seated_players_every_other_room_action_the_hosts() -> None:
    assert SEATED_ACTIONS == {"leave", "ready"}
    state = room(five()[:2] + [seat(3, CAT, "left")])
    for kind in ROOM_BASIS:
        host_only = kind not in SEATED_ACTIONS
        assert actor_refusal(state, ANN, kind) is None
        assert actor_refusal(state, BOB, kind) == (NOT_HOST if host_only else None)
        # a seat that left, or none: not seated (nor, for the host's actions, the host)
        for player in (CAT, EVE):
            assert actor_refusal(state, player, kind) == (NOT_HOST if host_only else NOT_SEATED)


def test_a_host_without_a_seat_takes_no_host_action() -> None:
    state = room([seat(2, BOB)], host=ANN)
    assert actor_refusal(state, ANN, "start") == NOT_HOST
    assert actor_refusal(state, ANN, "ready") == NOT_SEATED


def test_the_basis_matches_only_with_every_field_an_equal_integer() -> None:
    required = {"version": 3, "roll": 2}
    assert basis_matches(required, {"version": 3, "roll": 2, "type": "place"})
    assert basis_matches({}, {})
    for message in ({"version": 3}, {"roll": 2}, {}, {"version": 3, "roll": 1},
                    {"version": 4, "roll": 2}, {"version": 3, "roll": "2"},
                    {"version": 3, "roll": 2.0}, {"version": True, "roll": 2},
                    {"version": 3, "roll": None}):
        assert not basis_matches(required, message), message
    assert basis_matches({"version": 1}, {"version": 1, "roll": 1})
    assert not basis_matches({"version": 1}, {"version": True})


def test_the_heir_is_the_next_present_seat_after_the_host_going_round() -> None:
    state = room(five(), host=CAT)
    assert heir(state, {ANN, BOB, CAT, DAN, EVE}).id == 4
    assert heir(state, {ANN, BOB}).id == 1  # round the table past the end
    assert heir(state, {BOB}).id == 2


def test_without_anyone_present_the_heir_is_the_next_active_seat() -> None:
    state = room(five(), host=CAT)
    assert heir(state, set()).id == 4
    state.seats[3].status = "left"
    assert heir(state, set()).id == 5


def test_the_heir_skips_seats_that_left_table_seats_and_bots() -> None:
    seats = [seat(1, ANN), seat(2, "table-" + "0" * 26), seat(3, "bot-s-1234"),
             seat(4, BOB, "left"), seat(5, CAT, "removed"), seat(6, DAN)]
    state = room(seats)
    assert heir(state, {s.player_id for s in seats}).id == 6
    assert heir(state, set()).id == 6
    seats[5].status = "left"
    assert heir(state, {s.player_id for s in seats}) is None


def test_the_heir_after_a_leaving_seat_follows_that_seat() -> None:
    state = room(five(), host=ANN)
    assert heir(state, {ANN, BOB, CAT, DAN, EVE}, leaving=3).id == 4
    assert heir(state, {ANN, BOB}, leaving=5).id == 1
    assert heir(state, {ANN, BOB, CAT}, leaving=1).id == 2


def test_with_the_host_not_seated_the_heir_is_the_first_present_seat() -> None:
    state = room(five(), host="p-gone")
    assert heir(state, {CAT, DAN}).id == 3
    assert heir(state, set()).id == 1


def test_an_away_host_hands_over_a_grace_after_leaving_to_the_next_present_seat() -> None:
    state = room(five(), host=ANN)
    left = T0 + timedelta(minutes=5)
    assert host_handoff(state, {CAT, DAN}, {ANN: left}, T0) == (left + HOST_GRACE,
                                                                state.seats[2])
    assert HOST_GRACE == timedelta(seconds=30)


def test_the_host_grace_runs_from_when_the_host_left_not_from_the_load() -> None:
    state = room(five(), host=ANN)
    left = T0 + timedelta(seconds=100)
    due, _ = host_handoff(state, {BOB}, {ANN: left, CAT: T0}, T0)
    assert due == T0 + timedelta(seconds=130)


def test_a_host_not_seen_since_the_room_was_loaded_is_away_since_then() -> None:
    state = room(five(), host=ANN)
    due, to = host_handoff(state, {BOB}, {CAT: T0 + timedelta(seconds=50)},
                           T0 + timedelta(seconds=20), grace=timedelta(seconds=5))
    assert (due, to.id) == (T0 + timedelta(seconds=25), 2)


def test_the_result_screen_hands_over_too() -> None:
    state = room(five(), host=ANN, status="finished", games=[game(1)])
    assert host_handoff(state, {BOB}, {ANN: T0}, T0)[0] == T0 + HOST_GRACE


def test_no_host_hand_over_during_a_running_game() -> None:
    state = room(five(), host=ANN, status="playing", games=[game(1)])
    assert host_handoff(state, {BOB}, {ANN: T0}, T0) is None


def test_no_host_hand_over_while_the_host_is_online_or_not_seated() -> None:
    assert host_handoff(room(five(), host=ANN), {ANN, BOB}, {}, T0) is None
    assert host_handoff(room(five(), host="p-gone"), {BOB}, {}, T0) is None
    assert host_handoff(room(five(), host=None), {BOB}, {}, T0) is None


def test_no_host_hand_over_when_nobody_else_is_present() -> None:
    assert host_handoff(room(five(), host=ANN), set(), {ANN: T0}, T0) is None
    alone = room([seat(1, ANN), seat(2, BOB, "left")], host=ANN)
    assert host_handoff(alone, {BOB}, {ANN: T0}, T0) is None


# ---- the next game of a match (docs/rules.md, "Turn order", "Rematch and ready") -----------

def test_the_first_game_is_number_one_of_a_new_match_from_the_first_seat() -> None:
    state = room([seat(1, ANN), seat(2, BOB, "left"), seat(3, CAT)], options={"timer": 30})
    assert next_game(state, continue_match=False) == (
        1, {"timer": 30, "match": 1, "match_no": 1, "match_game": 1}, [1, 3])


def test_the_match_size_comes_from_the_rooms_options() -> None:
    state = room(five()[:2], options={"match": "3"})
    assert next_game(state, continue_match=False)[1] == {
        "match": 3, "match_no": 1, "match_game": 1}


def test_the_next_game_of_a_match_keeps_its_number_and_size_and_moves_the_start_on() -> None:
    previous = game(1, match=3, match_no=4, match_game=1)
    state = room(five()[:3], options={"match": 1}, games=[previous])
    assert next_game(state, continue_match=True) == (
        2, {"match": 3, "match_no": 4, "match_game": 2}, [2, 3, 1])


def test_a_match_game_without_match_fields_counts_as_the_first_of_one() -> None:
    state = room(five()[:2], options={"match": 3}, games=[game(1)])
    assert next_game(state, continue_match=True) == (
        2, {"match": 1, "match_no": 1, "match_game": 2}, [2, 1])


def test_a_rematch_starts_the_next_match_with_the_rooms_size() -> None:
    previous = game(3, match=3, match_no=2, match_game=3)
    state = room(five()[:2], options={"match": 1}, games=[game(1), game(2), previous])
    assert next_game(state, continue_match=False) == (
        4, {"match": 1, "match_no": 3, "match_game": 1}, [2, 1])


def test_after_a_game_without_a_match_number_the_next_match_is_the_second() -> None:
    state = room(five()[:3], games=[game(1)])
    assert next_game(state, continue_match=False) == (
        2, {"match": 1, "match_no": 2, "match_game": 1}, [2, 3, 1])


def test_the_start_seat_goes_round_the_table_one_seat_per_game() -> None:
    starts = [next_game(room(five()[:3], games=[game(n)]), False)[2][0] for n in range(1, 7)]
    assert starts == [2, 3, 1, 2, 3, 1]


# ---- the basis checked through the room service (on the test databases) --------------------

STALE_VERSION = [
    ("start", {}), ("add_bot", {"level": "strong"}),
    ("add_table_seat", {"name": "Cor"}), ("remove", {"target": "Bob"}), ("next_game", {}),
    ("rematch", {}),
]


@pytest.mark.parametrize(("kind", "fields"), STALE_VERSION)
async def test_a_room_action_decided_on_an_older_version_is_refused_and_changes_nothing(
        database_url, kind, fields) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as table:
        before = await table.state(fresh=True)
        seats = [(s.id, s.player_id, s.status) for s in before.seats]
        if "target" in fields:
            fields = {"target": before.seat_of(table.players[1]).id}
        with pytest.raises(RoomError) as err:
            await table.room_action(table.players[0], kind, version=before.version - 1,
                                    **fields)
        assert (err.value.code, err.value.status) == ("stale", 409)
        after = await table.state(fresh=True)
        assert (after.version, after.options, after.status) == (
            before.version, before.options, "lobby")
        assert [(s.id, s.player_id, s.status) for s in after.seats] == seats
        assert [s[1:] for s in seats] == [(table.players[0], "active"),
                                          (table.players[1], "active")]


@pytest.mark.parametrize(("kind", "fields"), [("ready", {"ready": True}), ("leave", {})])
async def test_ready_and_leave_are_decided_on_the_game_shown_not_the_version(
        database_url, kind, fields) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as table:
        bob = table.players[1]
        version = (await table.state()).version
        with pytest.raises(RoomError) as err:  # a page showing a game that is not there
            await table.room_action(bob, kind, game=1, **fields)
        assert err.value.code == "stale"
        assert (await table.state(fresh=True)).version == version
        await table.room_action(table.players[0], "options", timer="30")
        await table.room_action(bob, kind, version=version, **fields)  # an older version
        seat = (await table.state(fresh=True)).seats[1]
        assert (seat.ready, seat.status) == ((True, "active") if kind == "ready"
                                             else (False, "left"))


async def test_the_hosts_options_are_decided_on_the_game_shown_not_the_version(
        database_url) -> None:
    """The options form carries every option: two changes sent before the page saw the
    first one's update both stay (the second form holds both); a form from a page showing
    another game is refused."""
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as table:
        ann = table.players[0]
        version = (await table.state()).version
        with pytest.raises(RoomError) as err:
            await table.room_action(ann, "options", game=1, match="3")
        assert err.value.code == "stale"
        await table.room_action(ann, "options", version=version, match="3", timer="0")
        await table.room_action(ann, "options", version=version, match="3", timer="30")
        after = await table.state(fresh=True)
        assert (after.version, after.options["match"], after.options["timer"]) == (
            version + 2, 3, 30)
        assert after.status == "lobby"
