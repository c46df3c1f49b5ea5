"""Room-level actions through the room service on the test databases (docs/rules.md, "Rooms"):
joining, the lobby options, start, ready, next game and rematch, leaving and removing; each
refusal with the reason the player is told, and nothing changed by it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from app.clock import as_utc
from app.rooms.errors import RoomError
from app.rooms.games.base import ActionError
from app.rooms.rules import page_basis
from app.rooms.state import RoomState
from app.store.models import Game, GameEvent
from tests.support.room_service import ServiceRoom, service_room

NOT_HOST = ("not_host", "Only the host can do that.", 403)
RUNNING = ("game_running", "The game has already started.", 409)
MALFORMED = ("bad_message", "The message is malformed.", 400)
NO_SEAT = ("no_such_seat", "There is no such seat.", 404)


async def refused(room: ServiceRoom, player: str, kind: str, **fields) -> tuple[str, str, int]:
    """The refusal of ``kind`` by ``player``, after checking the room did not change."""
    before = await room.state(fresh=True)
    with pytest.raises(ActionError) as err:
        await room.room_action(player, kind, **fields)
    after = await room.state(fresh=True)
    assert snapshot(after) == snapshot(before)
    return err.value.code, err.value.msgid, err.value.status


def snapshot(state: RoomState) -> tuple:
    return (state.version, state.status, state.host_player_id, state.options,
            [(s.id, s.player_id, s.name, s.status, s.ready) for s in state.seats],
            [g.number for g in state.games])


async def join_refused(room: ServiceRoom, player: str) -> tuple[str, str, int]:
    with pytest.raises(RoomError) as err:
        await room.service.join(room.code, player, "Zoe")
    return err.value.code, err.value.msgid, err.value.status


async def finish_knister(room: ServiceRoom) -> None:
    """Every active seat places 25 rolls of (1, 1), each in its next empty cell."""
    for _ in range(25):
        state = await room.state()
        room.load([1, 1])
        await room.act(state.seat(state.game_state.roller).player_id, {"type": "roll"})
        state = await room.state()
        for seat_id in state.game_state.active:
            grid = state.game_state.sheets[seat_id].grid
            r, c = next((r, c) for r in range(5) for c in range(5) if grid[r][c] is None)
            await room.act(state.seat(seat_id).player_id, {"type": "place", "cell": [r, c]})


# ---- joining ----------------------------------------------------------------------------------

async def test_joining_seats_the_player_once(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann"]) as room:
        version = await room.service.join(room.code, "p-bob", "Bob")
        state = await room.state()
        assert version == state.version
        assert [(s.player_id, s.name, s.status) for s in state.seats] == [
            ("p-0-ann", "Ann", "active"), ("p-bob", "Bob", "active")]
        assert await room.service.join(room.code, "p-bob", "Bob") == version  # a second tab
        assert (await room.state(fresh=True)).version == version


async def test_nobody_joins_a_running_game_a_full_room_or_a_solo_room(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann"] + [f"P{i}" for i in range(11)]
                            ) as room:
        assert await join_refused(room, "p-zoe") == ("room_full", "This room is full.", 409)
        await room.room_action(room.players[1], "leave")
        await room.room_action(room.players[0], "start")
        assert await join_refused(room, "p-zoe") == RUNNING
        assert await room.service.join(room.code, room.players[2], "P1") == (
            await room.state()).version  # already seated: no error
        solo = await room.service.create_room("p-sam", "Sam", "kniffel", solo=True)
        with pytest.raises(RoomError) as err:
            await room.service.join(solo, "p-zoe", "Zoe")
        assert (err.value.code, err.value.msgid) == ("solo_room", "This is a game for one player.")


# ---- who may do what -------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "fields"), [
    ("options", {"timer": "30"}), ("start", {}), ("add_bot", {}),
    ("add_table_seat", {"name": "Cor"}), ("remove", {"target": 1}), ("next_game", {}),
    ("rematch", {}), ("play_again", {}),
])
async def test_only_the_host_decides_for_the_room(database_url, kind, fields) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        assert await refused(room, room.players[1], kind, **fields) == NOT_HOST
        assert await refused(room, "p-spectator", kind, **fields) == NOT_HOST


@pytest.mark.parametrize("kind", ["leave", "ready"])
async def test_a_spectator_cannot_leave_or_be_ready(database_url, kind) -> None:
    async with service_room(database_url, "knister", ["Ann"]) as room:
        assert await refused(room, "p-spectator", kind, ready=True) == (
            "not_seated", "Only seated players can do that.", 403)


# ---- the lobby -------------------------------------------------------------------------------

async def test_the_host_sets_the_options_in_the_lobby_only(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        host = room.players[0]
        await room.room_action(host, "options", match="3", timer="60", bot_takeover="false")
        assert (await room.state()).options == {
            "match": 3, "straight_without_seven": 10, "timer": 60, "dice": "screen",
            "bot_takeover": False, "pace": "live", "turn_deadline_hours": 24}
        assert await refused(room, host, "options", timer="45") == (
            "bad_option", "That option is not available.", 400)
        await room.room_action(host, "start")
        assert await refused(room, host, "options", timer="30") == RUNNING


async def test_a_solo_room_stays_solo_whatever_the_options(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann"]) as room:
        code = await room.service.create_room("p-sam", "Sam", "kniffel", solo=True)
        solo = ServiceRoom(room.service, room.dice, code, ["p-sam"])
        await solo.room_action("p-sam", "options", timer="60", solo="false")
        assert (await solo.state()).options["solo"] is True
        assert (await solo.state()).options["timer"] == 60


async def test_ready_marks_the_players_own_seat_and_is_refused_during_a_game(
        database_url) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        ann, bob = room.players
        await room.room_action(bob, "ready", ready=True)
        assert [s.ready for s in (await room.state()).seats] == [False, True]
        await room.room_action(bob, "ready", ready=False)
        assert [s.ready for s in (await room.state()).seats] == [False, False]
        assert await refused(room, bob, "ready", ready="yes") == MALFORMED
        await room.room_action(ann, "start")
        assert await refused(room, bob, "ready", ready=True) == RUNNING


async def test_start_begins_the_first_game_once(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        host = room.players[0]
        await room.room_action(host, "start")
        state = await room.state()
        assert (state.status, [g.number for g in state.games]) == ("playing", [1])
        assert state.game_state is not None and state.game_state.order == [
            s.id for s in state.seats]
        assert await refused(room, host, "start") == RUNNING


async def test_start_on_the_result_screen_is_refused(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann"]) as room:
        host = room.players[0]
        await room.room_action(host, "start")
        await finish_knister(room)
        assert (await room.state()).status == "finished"
        assert await refused(room, host, "start") == RUNNING


async def test_start_needs_someone_seated(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann"]) as room:
        await room.room_action(room.players[0], "leave")
        state = await room.state()
        assert state.active_seats == [] and state.host_player_id is None
        with pytest.raises(RoomError) as err:
            await room.service.actions.start(state, None, continue_match=False)
        assert (err.value.code, err.value.msgid) == ("no_players", "Nobody is seated.")


# ---- after a game ----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["next_game", "rematch", "play_again"])
async def test_next_game_and_rematch_wait_for_the_game_to_end(database_url, kind) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        host = room.players[0]
        not_over = ("not_finished", "The game is not over yet.", 409)
        assert await refused(room, host, kind) == not_over
        await room.room_action(host, "start")
        assert await refused(room, host, kind) == not_over


@pytest.mark.parametrize("ending", ["rematch", "play_again"])
async def test_a_match_goes_on_with_next_game_and_ends_with_a_rematch(database_url,
                                                                      ending) -> None:
    """A match of 3: "Next game" until it is over, then "Rematch" (back to the lobby) or
    "Play again" (the next match at once, no lobby in between); neither before."""
    async with service_room(database_url, "knister", ["Ann", "Bob"], {"match": "3"}) as room:
        host = room.players[0]
        await room.room_action(host, "start")
        await finish_knister(room)
        assert await refused(room, host, ending) == (
            "match_running", "The match goes on: start its next game.", 409)
        await room.room_action(host, "next_game")
        state = await room.state()
        assert (state.status, state.game.number, state.game.options["match_game"]) == (
            "playing", 2, 2)
        for number in (2, 3):
            await finish_knister(room)
            if number == 2:
                await room.room_action(host, "next_game")
        assert await refused(room, host, "next_game") == (
            "match_over", "The match is over: start a rematch.", 409)
        await room.room_action(host, ending)
        state = await room.state(fresh=True)
        if ending == "rematch":
            assert (state.status, [g.number for g in state.games]) == ("lobby", [1, 2, 3])
            return
        assert state.status == "playing" and [g.number for g in state.games] == [1, 2, 3, 4]
        fourth = state.game.options
        assert (fourth["match"], fourth["match_no"], fourth["match_game"]) == (3, 2, 1)
        seats = [s.id for s in state.seats]
        assert state.game_state.order == [seats[1], seats[0]]  # game 4: the second seat


async def test_a_single_game_ends_with_a_rematch_back_to_the_lobby(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann"]) as room:
        host = room.players[0]
        await room.room_action(host, "start")
        await finish_knister(room)
        assert await refused(room, host, "next_game") == (
            "match_over", "The match is over: start a rematch.", 409)
        await room.room_action(host, "rematch")
        assert (await room.state()).status == "lobby"
        await room.room_action(host, "start")
        assert [g.number for g in (await room.state()).games] == [1, 2]


# ---- leaving and removing --------------------------------------------------------------------

async def test_the_host_removes_another_seat(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob", "Cat"]) as room:
        ann = room.players[0]
        bob = (await room.state()).seats[1].id
        await room.room_action(ann, "remove", target=bob)
        assert [s.status for s in (await room.state()).seats] == ["active", "removed", "active"]
        assert await refused(room, ann, "remove", target=bob) == NO_SEAT
        cat = (await room.state()).seats[2].id
        await room.room_action(ann, "remove", seat=str(cat))  # the seat field names it too
        assert [s.status for s in (await room.state()).seats] == ["active", "removed",
                                                                 "removed"]


@pytest.mark.parametrize(("target", "expected"), [
    (None, MALFORMED), ("x", MALFORMED), ([1], MALFORMED), (987654, NO_SEAT),
])
async def test_removing_an_unknown_seat_is_refused(database_url, target, expected) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        fields = {} if target is None else {"target": target}
        assert await refused(room, room.players[0], "remove", **fields) == expected


async def test_the_host_cannot_remove_their_own_seat(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        own = (await room.state()).seats[0].id
        assert await refused(room, room.players[0], "remove", target=own) == (
            "remove_self", "Use Leave to leave the room.", 409)


async def test_a_leaving_host_passes_the_role_to_the_next_present_seat(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob", "Cat"]) as room:
        ann, bob, cat = room.players
        room.service.online = lambda code: frozenset({ann, cat} if code == room.code else ())
        await room.room_action(ann, "leave")
        state = await room.state()
        assert state.host_player_id == cat and state.seats[0].status == "left"
        await room.room_action(bob, "leave")  # not the host: the host stays
        assert (await room.state()).host_player_id == cat
        await room.room_action(cat, "leave")
        assert (await room.state(fresh=True)).host_player_id is None


async def test_a_seat_leaving_a_running_game_is_taken_out_of_it(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        ann, bob = room.players
        await room.room_action(ann, "start")
        await room.room_action(bob, "leave")
        state = await room.state(fresh=True)
        bob_seat = state.seats[1].id
        assert state.status == "playing" and state.game_state.active == [state.seats[0].id]
        assert bob_seat not in state.game_state.active and state.last_seq == 1


async def test_a_seat_leaving_after_the_game_changes_nothing_in_it(database_url) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        ann, bob = room.players
        await room.room_action(ann, "start")
        await finish_knister(room)
        before = await room.state(fresh=True)
        await room.room_action(bob, "leave")  # on the result screen
        after = await room.state(fresh=True)
        assert after.status == "finished" and after.last_seq == before.last_seq
        assert after.game_state.active == before.game_state.active
        assert after.seats[1].status == "left"


async def test_a_game_left_by_everyone_is_finished_with_its_totals(database_url) -> None:
    moments = iter(datetime(2026, 5, 1, 12, 0, s, tzinfo=UTC) for s in range(60))
    async with service_room(database_url, "knister", ["Ann", "Bob"],
                            clock=lambda: next(moments)) as room:
        ann, bob = room.players
        await room.room_action(ann, "start")
        room.load([3, 4])
        await room.act(ann, {"type": "roll"})
        await room.act(ann, {"type": "place", "cell": [0, 0]})
        await room.act(bob, {"type": "place", "cell": [0, 0]})
        await room.room_action(bob, "leave")
        await room.room_action(ann, "leave")
        state = await room.state()
        seats = [s.id for s in state.seats]
        assert state.status == "finished" and state.game.status == "finished"
        assert state.game.totals == {seats[0]: 0, seats[1]: 0}
        assert (await room.state(fresh=True)).status == "finished"
        # what is stored: each leave as its own event, at the moment it came; the game
        # finished at the last one
        db = room.service.db
        async with db.sessionmaker() as session:
            game = (await session.execute(select(Game).where(Game.id == state.game.id))
                    ).scalar_one()
            events = (await session.execute(
                select(GameEvent.seq, GameEvent.type, GameEvent.payload, GameEvent.seat_id,
                       GameEvent.created_at)
                .where(GameEvent.game_id == game.id).order_by(GameEvent.seq))).all()
        leaves = [(e.type, e.payload, e.seat_id) for e in events if e.type == "leave"]
        assert leaves == [("leave", {}, seats[1]), ("leave", {}, seats[0])]
        when = [as_utc(e.created_at) for e in events if e.type == "leave"]
        assert when[0] < when[1] and when[0].date() == datetime(2026, 5, 1).date()
        assert as_utc(game.finished_at) > when[1]
        assert as_utc(game.finished_at).date() == datetime(2026, 5, 1).date()


# ---- a resent action ---------------------------------------------------------------------------

async def _ready_for(room: ServiceRoom, kind: str) -> tuple[str, dict]:
    """Bring the room to where ``kind`` is allowed; returns who sends it and its fields."""
    ann, bob = room.players
    state = await room.state()
    if kind in ("next_game", "rematch"):
        if kind == "next_game":
            await room.room_action(ann, "options", match="3")
        await room.room_action(ann, "start")
        await finish_knister(room)
    fields = {"options": {"timer": "30"}, "add_bot": {"level": "casual"},
              "add_table_seat": {"name": "Cor"}, "remove": {"target": state.seats[1].id},
              "ready": {"ready": True}}.get(kind, {})
    return (bob if kind in ("ready", "leave") else ann), fields


@pytest.mark.parametrize("kind", ["options", "start", "add_bot", "add_table_seat", "remove",
                                  "ready", "leave", "next_game", "rematch"])
async def test_a_room_action_sent_twice_is_applied_once(database_url, kind) -> None:
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        player, fields = await _ready_for(room, kind)
        state = await room.state()
        message = {"type": kind, "action_id": f"a-{kind}", **page_basis(state), **fields}
        first = await room.service.act(room.code, player, dict(message))
        after = snapshot(await room.state(fresh=True))
        assert first.version == after[0] == state.version + 1 and not first.duplicate
        again = await room.service.act(room.code, player, dict(message))
        assert (again.version, again.duplicate) == (first.version, True)
        assert snapshot(await room.state(fresh=True)) == after
