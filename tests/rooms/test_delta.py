"""Two processes, one room: the process that commits a game action announces its events
(``app.rooms.delta``), and the other process folds them into its cached room instead of
reading the database. Played through two real room services on one database (SQLite and
Postgres): after every announced version the other process's room, folded, is the room the
database rebuilds, down to what every viewer's page shows."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rooms.bots.moves import next_move
from app.rooms.delta import Delta
from app.rooms.dice import DiceSource
from app.rooms.games.base import Event
from app.rooms.service import RoomService
from app.rooms.state import RoomState
from app.store.db import Database
from app.web.room_view import render_update
from tests.support.room_service import ServiceRoom, service_room


async def _nobody(code: str, version: int, delta: str | None = None) -> None:
    return None


DEADLINE = re.compile(r'data-deadline="\d+"')


def _page(state: RoomState, player_id: str, lang: str, online: frozenset[str]) -> str:
    """The live area ``player_id`` sees, without the away countdowns' deadlines (each
    process counts those from when it began watching the room: not stored, not folded)."""
    return DEADLINE.sub("", render_update(state, player_id, lang, online)[0])


def _same_room(folded: RoomState, loaded: RoomState) -> None:
    """``folded`` (the other process's copy) shows exactly what ``loaded`` (the database's)
    shows: version, events, game, client action ids and every seat's page."""
    assert folded.version == loaded.version
    assert folded.last_seq == loaded.last_seq
    assert list(folded.recent_actions) == list(loaded.recent_actions)
    assert folded.plugin.public(folded.game_state) == loaded.plugin.public(loaded.game_state)
    online = frozenset(s.player_id for s in loaded.seats)
    for seat in loaded.seats:
        for lang in ("en", "de"):
            assert (_page(folded, seat.player_id, lang, online)
                    == _page(loaded, seat.player_id, lang, online))


async def _play_across(room: ServiceRoom, database_url: str, moves: int) -> tuple[int, int]:
    """Play up to ``moves`` moves in ``room`` (process A); after each, process B folds the
    announced delta. Returns ``(played, folded)``: the moves made, and the versions B
    folded without reading the database."""
    announced: list[tuple[int, str | None]] = []

    async def publish(code: str, version: int, delta: str | None = None) -> None:
        announced.append((version, delta))

    room.service.publish = publish
    other_db = Database(database_url)
    other = RoomService(other_db, _nobody, DiceSource())
    folded = played = 0
    try:
        await room.room_action(room.players[0], "start")
        held = await other.snapshot(room.code, -1)  # B has the room open at the start
        assert held is not None
        for _ in range(moves):
            state = await room.state()
            if state.status != "playing":
                break
            assert state.game is not None
            seat_id, (action_id, message) = next(
                (seat, move) for seat in state.game.seat_ids
                if (move := next_move(state, seat, "strong", lambda r, o: None)))
            await room.service.act(room.code, await room.player_of(seat_id),
                                   {**message, "action_id": action_id})
            played += 1
            version, delta = announced[-1]
            after = await other.snapshot(room.code, version, delta)
            assert after is not None
            if after is held:
                folded += 1
            held = after
            _same_room(after, await room.state(fresh=True))
    finally:
        other.close()
        await other_db.dispose()
    return played, folded


@pytest.mark.parametrize("kind", ["knister", "kniffel"])
async def test_the_other_process_folds_each_action_and_shows_what_the_database_shows(
        database_url: str, kind: str) -> None:
    async with service_room(database_url, kind, ["Ann", "Bob", "Cas"]) as room:
        played, folded = await _play_across(room, database_url, 40)
    assert played == folded == 40  # not one reload: every move was a game action's delta


async def test_the_move_that_ends_the_game_is_reloaded_not_folded(
        database_url: str) -> None:
    async with service_room(database_url, "kniffel", ["Ann"]) as room:
        played, folded = await _play_across(room, database_url, 400)
        state = await room.state()
        assert state.status == "finished"
        # the last commit ended the game: no delta
        assert room.service.delta_of(room.code, state.version) is None
    assert played < 400
    assert folded == played - 1  # every move but the last, which was reloaded


async def test_a_delta_that_does_not_follow_the_cached_room_is_not_folded(
        database_url: str) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        await room.room_action(room.players[0], "start")
        state = await room.state()
        before = (state.version, state.last_seq, room.code)
        game = state.game
        assert game is not None
        roll = Event("roll", {"dice": [1, 1]}, None, datetime(2026, 1, 1, tzinfo=UTC))
        for wrong in (Delta(state.version + 2, game.id, state.last_seq + 1, None, (roll,)),
                      Delta(state.version + 1, game.id + 1, state.last_seq + 1, None, (roll,)),
                      Delta(state.version + 1, game.id, state.last_seq + 2, None, (roll,))):
            assert not wrong.follows(state)
        # a delta that follows but does not apply: the room is rebuilt from the database
        bad = Delta(state.version + 1, game.id, state.last_seq + 1, None,
                    (Event("place", {"cell": [9, 9]}, 12345, None),))
        assert bad.follows(state)
        assert room.service._fold(state, bad.encode()) is None
        again = await room.state()
        assert (again.version, again.last_seq, room.code) == before
        assert again is not state


_payloads = st.dictionaries(st.text(max_size=5), st.one_of(
    st.integers(-10**6, 10**6), st.text(max_size=8), st.lists(st.integers(0, 6), max_size=5),
    st.booleans(), st.none()), max_size=4)
_events = st.builds(
    Event, st.sampled_from(["roll", "place", "hold", "score"]), _payloads,
    st.one_of(st.none(), st.integers(1, 10**6)),
    st.one_of(st.none(), st.datetimes(timezones=st.just(UTC))))


@given(st.integers(1, 10**6), st.integers(1, 10**6), st.integers(1, 10**6),
       st.one_of(st.none(), st.text(min_size=1, max_size=64)),
       st.lists(_events, min_size=1, max_size=5).map(tuple))
def test_a_delta_reads_back_as_it_was_written(version, game_id, first_seq, action_id,
                                              events) -> None:
    delta = Delta(version, game_id, first_seq, action_id, events)
    assert Delta.decode(delta.encode()) == delta


@pytest.mark.parametrize("text", [
    "", "{", "[]", '{"v":1}', '{"v":"x","g":1,"s":1,"a":null,"e":[]}',
    '{"v":1,"g":1,"s":1,"a":null,"e":[["roll",{},null]]}'])
def test_a_malformed_delta_is_refused(text: str) -> None:
    assert Delta.decode(text) is None
