"""Play feel on the server side: the rooms a guest sits in ("Your rooms" on the home page) and
personal bests stored with a finished game, on SQLite and Postgres through the room service."""

from __future__ import annotations

from app.rooms.listing import MyRoom, rooms_of
from app.store.db import Database
from tests.support.room_service import ServiceRoom, service_room

BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
         "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
         "chance")


async def _mine(database_url: str, player: str) -> list[MyRoom]:
    """The player's rooms as ``(code, kind, status)`` (``MyRoom`` without names and time)."""
    db = Database(database_url)
    try:
        async with db.sessionmaker() as session:
            return [MyRoom(*room[:3]) for room in await rooms_of(session, player)]
    finally:
        await db.dispose()


async def _solo_game(room: ServiceRoom, faces: list[int]) -> None:
    """One whole solo Kniffel game: every turn rolls ``faces`` once and fills the next box."""
    (player,) = room.players
    for box in BOXES:
        room.load(faces)
        assert (await room.act(player, {"type": "roll"})).version
        assert (await room.act(player, {"type": "score", "box": box})).version


async def test_your_rooms_lists_open_rooms_with_an_active_seat_newest_first(settings) -> None:
    url = settings.database_url
    async with service_room(url, "knister", ["Anna", "Bram"]) as first, \
            service_room(url, "kniffel", ["Cora"]) as second:
        anna = first.players[0]
        await second.service.join(second.code, anna, "Anna")  # the same guest, two rooms
        assert await _mine(url, anna) == [MyRoom(second.code, "kniffel", "lobby"),
                                           MyRoom(first.code, "knister", "lobby")]
        await first.room_action(anna, "start")
        assert (await _mine(url, anna))[1] == MyRoom(first.code, "knister", "playing")
        # a seat the guest left no longer counts; other guests see only their own rooms
        await second.room_action(anna, "leave")
        assert await _mine(url, anna) == [MyRoom(first.code, "knister", "playing")]
        assert await _mine(url, first.players[1]) == [MyRoom(first.code, "knister", "playing")]
        assert await _mine(url, "nobody") == []


async def test_a_finished_game_leaves_your_rooms_and_stores_personal_bests(settings) -> None:
    url = settings.database_url
    async with service_room(url, "kniffel", ["Anna"]) as room:
        (anna,) = room.players
        await room.room_action(anna, "start")
        await _solo_game(room, [1, 1, 1, 2, 2])
        state = await room.state(fresh=True)
        seat = state.seats[0].id
        first_total = state.game.totals[seat]
        assert state.status == "finished"
        assert state.game.records == []  # a first game has nothing to beat
        assert await _mine(url, anna) == []
        # a better second game is a new personal best, a worse third one is not
        await room.room_action(anna, "rematch")
        await room.room_action(anna, "start")
        await _solo_game(room, [6, 6, 6, 5, 5])
        state = await room.state(fresh=True)
        assert state.game.totals[seat] > first_total
        assert state.game.records == [seat]
        await room.room_action(anna, "rematch")
        await room.room_action(anna, "start")
        await _solo_game(room, [1, 1, 2, 2, 3])
        state = await room.state(fresh=True)
        assert state.game.records == []
        assert (await room.state()).game.records == []  # the service's own state agrees
