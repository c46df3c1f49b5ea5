"""Seats without a phone (docs/rules.md, "Table mode"), as pure room rules: who may act for
which seat, whose sheet the host's device fills, presence and the host hand-over."""

from __future__ import annotations

import pytest

from app.rooms.errors import RoomError
from app.rooms.pass_and_play import (
    acting_seat,
    is_table_seat,
    new_table_player_id,
    present_seats,
    proxy_seat,
)
from app.rooms.rules import heir
from app.rooms.state import RoomState, SeatInfo
from tests.support.room_service import ServiceRoom, service_room

HOST, GUEST = "a" * 32, "b" * 32
TABLE, GONE = new_table_player_id(), new_table_player_id()


def room() -> RoomState:
    seats = [SeatInfo(1, HOST, "Anna", 0, "active"), SeatInfo(2, GUEST, "Bram", 1, "active"),
             SeatInfo(3, TABLE, "Cor", 2, "active"), SeatInfo(4, GONE, "Dirk", 3, "removed")]
    return RoomState(id=1, code="c", kind="kniffel", options={}, host_player_id=HOST,
                     status="playing", version=5, seats=seats, games=[])


def test_table_player_ids_are_no_guest_ids() -> None:
    assert len(TABLE) == 32 and TABLE != GONE and not TABLE.isalnum()
    assert [is_table_seat(s) for s in room().seats] == [False, False, True, True]


def test_a_player_acts_for_their_own_seat() -> None:
    state = room()
    assert acting_seat(state, GUEST, None).id == 2
    assert acting_seat(state, GUEST, "2").id == 2
    assert acting_seat(state, "c" * 32, None) is None  # a spectator


def test_only_the_host_acts_for_an_active_table_seat() -> None:
    state = room()
    assert acting_seat(state, HOST, 3).id == 3
    for player, claimed in ((GUEST, 3), (HOST, 2), (GUEST, 1), (HOST, 4), (HOST, 99),
                            (HOST, "x"), ("c" * 32, 3)):
        with pytest.raises(RoomError) as err:
            acting_seat(state, player, claimed)
        assert (err.value.code, err.value.msgid, err.value.status) == (
            "not_your_seat", "You can only act for your own seat.", 403)


def test_the_host_page_fills_in_for_the_first_awaited_table_seat_before_the_host() -> None:
    state = room()
    host, guest = state.seats[0], state.seats[1]
    assert proxy_seat(state, host, [1, 2, 3]) is None
    assert proxy_seat(state, host, [2, 3]) == 3
    assert proxy_seat(state, host, [3, 1]) == 3  # e.g. its Knister entry comes first
    assert proxy_seat(state, host, [2]) is None
    assert proxy_seat(state, guest, [3]) is None
    assert proxy_seat(state, None, [3]) is None


def test_table_seats_are_present_while_the_host_is() -> None:
    state = room()
    assert present_seats(state, {HOST}) == {1, 3}
    assert present_seats(state, {GUEST}) == {2}


def test_a_table_seat_never_becomes_host() -> None:
    state = room()
    assert heir(state, online=set()).id == 2
    state.seats[1].status = "left"
    assert heir(state, online=set()) is None


# ---- the host adds a seat without a phone (through the room service) ------------------------

async def _add_refused(room, name: str = "Cor") -> tuple[str, str, int]:
    before = await room.state(fresh=True)
    with pytest.raises(RoomError) as err:
        await room.room_action(room.players[0], "add_table_seat", name=name)
    after = await room.state(fresh=True)
    assert (after.version, [s.player_id for s in after.seats]) == (
        before.version, [s.player_id for s in before.seats])
    return err.value.code, err.value.msgid, err.value.status


async def test_the_host_adds_a_table_seat_by_name(database_url) -> None:
    async with service_room(database_url, "kniffel", ["Ann"]) as room:
        version = (await room.state()).version
        outcome = await room.room_action(room.players[0], "add_table_seat", name="  Cor  ")
        state = await room.state()
        added = state.seats[-1]
        assert outcome.version == state.version == version + 1
        assert (added.name, added.status, is_table_seat(added)) == ("Cor", "active", True)
        assert added.player_id.startswith("table-") and len(added.player_id) == 32
        assert state.host_player_id == room.players[0]


async def test_a_table_seats_name_carries_at_most_two_combining_marks(database_url) -> None:
    """docs/rules.md, "Text others see": the seat is named, the marks beyond two dropped."""
    async with service_room(database_url, "kniffel", ["Ann"]) as room:
        await room.room_action(room.players[0], "add_table_seat", name="Cort" + "\u0301" * 150)
        assert (await room.state(fresh=True)).seats[-1].name == "Cort\u0301\u0301"


@pytest.mark.parametrize("name", ["", "   ", "x" * 25])
async def test_a_table_seat_needs_a_valid_name(database_url, name) -> None:
    async with service_room(database_url, "knister", ["Ann"]) as room:
        assert await _add_refused(room, name) == (
            "bad_name", "Enter a name of 1 to 24 characters.", 400)


async def test_no_table_seat_in_a_game_without_turns_or_in_a_solo_room(database_url) -> None:
    no_seats = ("no_table_seats", "This game has no seats without a phone.", 409)
    async with service_room(database_url, "knikkers_race", ["Ann"]) as room:
        assert await _add_refused(room) == no_seats
    async with service_room(database_url, "knister", ["Ann"]) as room:
        code = await room.service.create_room("p-sam", "Sam", "knister", solo=True)
        solo = ServiceRoom(room.service, room.dice, code, ["p-sam"])
        assert await _add_refused(solo) == no_seats


async def test_no_table_seat_during_a_game_or_in_a_full_room(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann"] + [f"P{i}" for i in range(11)]
                            ) as room:
        assert await _add_refused(room) == ("room_full", "This room is full.", 409)
        await room.room_action(room.players[0], "start")
        assert await _add_refused(room) == ("game_running", "The game has already started.",
                                            409)
