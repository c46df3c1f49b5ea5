"""One place applies committed events (``RoomState.fold`` / ``folding``, issue 26): the room a
commit leaves in the committing process (``GameActions.append``), the room another process
folds from the commit's announcement (``Delta.fold``) and the room the database rebuilds
(``app.rooms.repository.load_room``) are the same room, move after move. Played through two
real room services on one database (SQLite and Postgres)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from app.rooms.bots.moves import next_move
from app.rooms.delta import Delta
from app.rooms.dice import DiceSource
from app.rooms.games.base import Event
from app.rooms.repository import load_room
from app.rooms.service import RoomService
from app.rooms.state import RoomState
from app.store.db import Database
from tests.support.room_service import ServiceRoom, service_room


async def _nobody(code: str, version: int, delta: str | None = None) -> None:
    return None


def _room(state: RoomState) -> dict[str, Any]:
    """What a room state is, as the database keeps it: everything but what one process
    computes for itself (countdowns, seats taken over: ``RoomTimers.arm``). Action ids
    without the versions they made: a room read back from the database knows only that they
    were applied (a repeat is answered with the version it finds)."""
    return {
        "room": (state.id, state.code, state.kind, state.options, state.host_player_id,
                 state.status),
        "version": state.version,
        "last_seq": state.last_seq,
        "seats": state.seats,
        "games": state.games,
        "game": state.plugin.public(state.game_state),
        "actions": list(state.recent_actions),
    }


async def _load(room: ServiceRoom) -> RoomState:
    """The room as ``load_room`` rebuilds it from the database now (a restarted process)."""
    async with room.service.db.sessionmaker() as session:
        loaded = await load_room(session, room.code)
    assert loaded is not None
    return loaded


def _move(state: RoomState) -> tuple[str, dict[str, Any], int]:
    """The next bot move of the first seat that has one: ``(action_id, message, seat)``."""
    assert state.game is not None
    return next((action_id, message, seat) for seat in state.game.seat_ids
                if (move := next_move(state, seat, "strong", lambda r, o: None))
                for action_id, message in (move,))


@pytest.mark.parametrize("kind", ["knister", "kniffel"])
async def test_commit_delta_and_load_give_the_same_room(database_url: str, kind: str) -> None:
    """Process A commits each move; process B, which holds the room, folds the delta A
    announced; the database rebuilds the room. After every move the three are one room:
    version, last event, seats, games, the game's public state, the remembered action ids."""
    announced: list[tuple[int, str | None]] = []

    async def publish(code: str, version: int, delta: str | None = None) -> None:
        announced.append((version, delta))

    async with service_room(database_url, kind, ["Ann", "Bob"]) as room:
        room.service.publish = publish
        other_db = Database(database_url)
        other = RoomService(other_db, _nobody, DiceSource())
        try:
            await room.room_action(room.players[0], "start")
            held = await other.snapshot(room.code, -1)  # B holds the room from the start
            assert held is not None
            assert _room(held) == _room(await room.state()) == _room(await _load(room))
            for _ in range(30):
                live = await room.state()
                action_id, message, seat = _move(live)
                await room.service.act(room.code, await room.player_of(seat),
                                       {**message, "action_id": action_id})
                assert await room.state() is live  # A's own room, moved on by its commit
                version, text = announced[-1]
                assert text is not None and version == live.version
                delta = Delta.decode(text)
                assert delta is not None and delta.follows(held)
                delta.fold(held)
                loaded = await _load(room)
                assert _room(live) == _room(held) == _room(loaded)
                assert action_id in live.recent_actions
                assert live.recent_actions[action_id] == held.recent_actions[action_id] == version
        finally:
            other.close()
            await other_db.dispose()


async def test_a_failed_commit_moves_nothing_but_the_game(database_url: str) -> None:
    """``folding`` applies the events first (the write stores the result they make) and moves
    the room on only when the block around the commit ends without an error: a failed write
    leaves the version, the last event and the action ids as they were (the game's state is
    in doubt; ``GameActions.append`` drops it). ``fold`` is ``folding`` around nothing."""
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        await room.room_action(room.players[0], "start")
        state = await _load(room)
        _, message, seat = _move(state)
        events = [Event(e.type, e.payload, e.seat_id, None) for e in state.plugin.decide(
            state.game_state, seat, message, DiceSource().for_room(room.code))]
        assert events
        before = (state.version, state.last_seq, dict(state.recent_actions))
        public = state.plugin.public(state.game_state)
        with pytest.raises(ConnectionError), \
                state.folding(events, state.last_seq + 1, state.version + 1, "a-1"):
            raise ConnectionError("the write failed")
        assert (state.version, state.last_seq, dict(state.recent_actions)) == before
        assert state.plugin.public(state.game_state) != public  # applied: in doubt

        fresh = await _load(room)
        fresh.fold(events, fresh.last_seq + 1, fresh.version + 1, "a-1")
        assert (fresh.version, fresh.last_seq) == (before[0] + 1, before[1] + len(events))
        assert fresh.recent_actions["a-1"] == fresh.version
        assert list(fresh.recent_actions)[-1] == "a-1"
        assert fresh.plugin.public(fresh.game_state) == state.plugin.public(state.game_state)


async def test_a_delta_that_does_not_follow_is_refused_and_changes_nothing(
        database_url: str) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        await room.room_action(room.players[0], "start")
        state = await _load(room)
        game = state.game
        assert game is not None
        before = _room(state)
        roll = Event("roll", {"dice": [1, 1]}, None, None)
        for wrong in (Delta(state.version + 2, game.id, state.last_seq + 1, None, (roll,)),
                      Delta(state.version + 1, game.id, state.last_seq + 2, None, (roll,))):
            with pytest.raises(ValueError):
                wrong.fold(state)
        assert _room(state) == before


def test_a_room_state_is_state_only() -> None:
    """No database session, no render cache, no transport in a room's state: its fields are
    the room, its seats and games, the folded game, and what this process computed for its
    timers (``app.rooms.state`` imports no database layer: an import-linter contract)."""
    assert [f.name for f in fields(RoomState)] == [
        "id", "code", "kind", "options", "host_player_id", "status", "version", "seats",
        "games", "game_state", "last_seq", "recent_actions", "away_due", "host_handoff",
        "taken_over", "turns"]
