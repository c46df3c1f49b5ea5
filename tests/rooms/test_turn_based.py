"""Turn-based rooms (issue 27; docs/rules.md, "Turn-based rooms"), through the room service
on the test databases (SQLite and Postgres, migrated by Alembic): the pace option, the waits
and deadlines stored with each move, the bot playing a turn whose deadline passed exactly
once (also with two processes), three missed turns marking a seat away, coming back, and
Knister's next roll coming by itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from app.clock import as_utc
from app.rooms.bots.deadline import STUCK_RETRY, DeadlinePlayer
from app.rooms.deadlines import TurnScheduler, take_due
from app.rooms.dice import DiceSource
from app.rooms.errors import RoomError
from app.rooms.games.base import ActionError
from app.rooms.service import RoomService
from app.rooms.turns import AWAY_AFTER
from app.store.db import Database
from app.store.models import Game, GameEvent, Room
from tests.support.room_service import service_room

TURNS = {"pace": "turns", "turn_deadline_hours": "1"}


class Clock:
    """A server clock the test moves on (aware UTC)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


async def _noop(room_id: int, code: str) -> None:
    """No pushes in these tests (tests/push covers them)."""


def scheduler(service: RoomService, clock: Clock) -> TurnScheduler:
    """A deadline scheduler for ``service``'s rooms: the bot plays with its fallback moves
    (no strategy table)."""
    player = DeadlinePlayer(service, lambda ruleset, options: None)
    return TurnScheduler(service.db, clock, player.play, _noop)


async def room_row(service: RoomService, code: str) -> Room:
    async with service.db.sessionmaker() as session:
        return (await session.execute(select(Room).where(Room.code == code))).scalar_one()


BOXES = ("chance", "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind")


@asynccontextmanager
async def started_kniffel(database_url: str, clock: Clock) -> AsyncIterator[Any]:
    """A turn-based Kniffel room of Anna and Bram (1 h deadline) on ``clock``, started."""
    async with service_room(database_url, "kniffel", ["Anna", "Bram"], options=TURNS,
                            clock=clock) as room:
        await room.room_action(room.players[0], "start")
        yield room


async def kniffel_turn(room, player: str) -> None:
    """``player`` rolls once and scores the first open box of ``BOXES``."""
    room.load([1, 2, 3, 3, 4])
    assert (await room.room_action(player, "roll")).version
    for box in BOXES:
        try:
            await room.room_action(player, "score", box=box)
            return
        except ActionError as refused:
            assert refused.code == "box_filled", refused.code
    raise AssertionError("no open box")


async def test_the_pace_option_is_checked(database_url: str) -> None:
    async with service_room(database_url, "kniffel", ["Anna", "Bram"]) as room:
        host = room.players[0]
        await room.room_action(host, "options", pace="turns", turn_deadline_hours="12",
                               timer="60", dice="real")
        options = (await room.state()).options
        # a turn-based room has no seconds timer and no real dice
        assert (options["pace"], options["turn_deadline_hours"], options["timer"],
                options["dice"]) == ("turns", 12, 0, "screen")
        for bad in ({"pace": "slow"}, {"pace": "turns", "turn_deadline_hours": "5"},
                    {"pace": "turns", "turn_deadline_hours": "abc"}):
            with pytest.raises(ActionError) as refused:
                await room.room_action(host, "options", **bad)
            assert refused.value.code == "bad_option"
        assert (await room.state()).options == options  # nothing changed
    async with service_room(database_url, "knikkers_race", ["Anna"]) as race:
        with pytest.raises(ActionError):
            await race.room_action(race.players[0], "options", pace="turns")


async def test_each_move_stores_whom_the_table_waits_for_and_the_bot_plays_a_missed_turn_once(
        database_url: str) -> None:
    clock = Clock()
    async with started_kniffel(database_url, clock) as room:
        anna, bram = room.players
        state = await room.state()
        first = state.seat_of(anna).id if state.game_state.current == \
            state.seat_of(anna).id else state.seat_of(bram).id
        assert set(state.turns.waits) == {first}
        wait = state.turns.waits[first]
        assert (wait.since, wait.due) == (clock.now, clock.now + timedelta(hours=1))
        row = await room_row(room.service, room.code)
        assert as_utc(row.turn_due_at) == wait.due
        assert row.turns["waits"] == {str(first): {"since": wait.since.isoformat(),
                                                   "due": wait.due.isoformat()}}
        mover = anna if first == state.seat_of(anna).id else bram
        other = bram if mover == anna else anna
        other_seat = state.seat_of(other).id
        clock.advance(minutes=10)
        await kniffel_turn(room, mover)
        state = await room.state()
        assert set(state.turns.waits) == {other_seat}
        assert state.turns.waits[other_seat].since == clock.now
        assert (await room.state(fresh=True)).turns == state.turns  # a restart sees the same

        clock.advance(minutes=30)  # not due yet: nothing is taken
        rounds = scheduler(room.service, clock)
        assert await rounds.round() == 0
        clock.advance(minutes=31)  # the deadline passed
        assert await rounds.round() == 1
        assert await rounds.round() == 0  # played once; the next deadline is an hour away
        state = await room.state()
        assert set(state.turns.waits) == {state.seat_of(mover).id}
        assert state.turns.missed == {other_seat: 1}
        async with room.service.db.sessionmaker() as session:
            scores = (await session.execute(
                select(GameEvent.payload).join(Game).where(
                    Game.room_id == state.id, GameEvent.type == "score",
                    GameEvent.seat_id == other_seat))).scalars().all()
        assert len(scores) == 1 and scores[0]["bot"] is True  # marked, as take-overs are
        # the player's own move starts their count again
        clock.advance(minutes=5)
        await kniffel_turn(room, mover)
        await kniffel_turn(room, other)
        assert (await room.state()).turns.missed == {}


async def test_a_room_whose_overdue_seat_has_no_move_is_not_taken_round_after_round(
        database_url: str) -> None:
    """A table whose stored turns name an overdue seat the game does not wait for (here: the
    player not on turn): the bot has no move for it, so the room's deadline is stored
    ``STUCK_RETRY`` on instead of the passed one, which the next round would take again (the
    scheduler spun on such rooms: found with bench/turns_scale.py's data)."""
    clock = Clock()
    async with started_kniffel(database_url, clock) as room:
        state = await room.state()
        idle = next(s.id for s in state.seats if s.id != state.game_state.current)
        passed = clock.now - timedelta(minutes=5)
        wrong = {"waits": {str(idle): {"since": (passed - timedelta(hours=1)).isoformat(),
                                       "due": passed.isoformat()}}, "missed": {}, "turn": 0}
        async with room.service.db.sessionmaker() as session, session.begin():
            row = (await session.execute(select(Room).where(Room.code == room.code))
                   ).scalar_one()
            row.turns, row.turn_due_at = wrong, passed
        room.service.forget(room.code)
        rounds = scheduler(room.service, clock)
        assert await rounds.round() == 1
        assert as_utc((await room_row(room.service, room.code)).turn_due_at) == \
            clock.now + STUCK_RETRY
        assert await rounds.round() == 0  # before: taken again at once, round after round
        clock.advance(minutes=11)
        assert await rounds.round() == 1  # looked at again later


async def test_three_missed_turns_mark_a_seat_away_until_the_player_is_back(
        database_url: str) -> None:
    clock = Clock()
    async with started_kniffel(database_url, clock) as room:
        anna, bram = room.players
        rounds = scheduler(room.service, clock)
        state = await room.state()
        bram_seat = state.seat_of(bram).id
        if state.game_state.current == bram_seat:
            clock.advance(hours=2)
            await rounds.round()  # Bram's first turn: missed
        for _ in range(AWAY_AFTER):
            state = await room.state()
            if state.turns.missed.get(bram_seat, 0) >= AWAY_AFTER:
                break
            clock.advance(minutes=1)
            await kniffel_turn(room, anna)
            clock.advance(hours=2)
            await rounds.round()
        state = await room.state()
        assert state.turns.missed[bram_seat] == AWAY_AFTER and state.turns.away(bram_seat)
        assert state.taken_over == {bram_seat}  # shown: "a bot plays for now"
        # away: Bram's next turn is due as soon as it begins, played in the next round
        await kniffel_turn(room, anna)
        state = await room.state()
        assert state.turns.waits[bram_seat].due == clock.now
        assert await rounds.round() == 1
        assert bram_seat not in (await room.state()).turns.waits
        assert (await room.state()).turns.missed[bram_seat] == AWAY_AFTER + 1
        # Bram opens the room: back, with a full deadline once his turn comes
        await room.service.came_back(room.code, bram)
        state = await room.state()
        assert not state.turns.away(bram_seat) and bram_seat not in state.turns.missed
        assert state.taken_over == set()
        await kniffel_turn(room, anna)
        state = await room.state()
        assert state.turns.waits[bram_seat].due == clock.now + timedelta(hours=1)


async def test_knister_rolls_by_itself_in_a_turn_based_room(database_url: str) -> None:
    clock = Clock()
    async with service_room(database_url, "knister", ["Anna", "Bram"], options=TURNS,
                            clock=clock) as room:
        anna, bram = room.players
        room.load([3, 4, 5, 6])
        await room.room_action(anna, "start")
        for _ in range(100):  # the first roll comes by itself (the room's timer, due now)
            # as committed (the service's own state shows a roll's events while it is being
            # written: read it back from the database)
            state = await room.state(fresh=True)
            if state.game_state.roll_pending:
                break
            await asyncio.sleep(0.02)
        assert state.game_state.rolls == [(3, 4)] and set(state.turns.waits) == {
            s.id for s in state.seats}
        await room.act(anna, {"type": "place", "cell": "0,0"})
        await room.act(bram, {"type": "place", "cell": "0,0"})  # the last: the next roll too
        state = await room.state()
        assert state.game_state.rolls == [(3, 4), (5, 6)]
        assert set(state.turns.waits) == {s.id for s in state.seats}
        assert all(w.since == clock.now for w in state.turns.waits.values())
        with pytest.raises(ActionError):  # nobody rolls by hand in a turn-based room
            await room.act(anna, {"type": "roll"})


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_two_processes_play_a_missed_turn_exactly_once(database_url: str) -> None:
    """Two app processes (two room services on one Postgres), each with its scheduler,
    take the due rooms at the same moment: each room's missed turn is played once."""
    clock = Clock()
    codes = []
    async with service_room(database_url, "kniffel", ["Anna", "Bram"], options=TURNS,
                            clock=clock) as room:
        await room.room_action(room.players[0], "start")
        codes.append(room.code)
    for _ in range(5):  # more rooms due at once
        async with service_room(database_url, "kniffel", ["Cem", "Dora"], options=TURNS,
                                clock=clock) as other:
            await other.room_action(other.players[0], "start")
            codes.append(other.code)
    clock.advance(hours=2)
    services = [RoomService(Database(database_url), _publish, DiceSource(), clock=clock)
                for _ in range(2)]
    try:
        taken = await asyncio.gather(*(scheduler(s, clock).round() for s in services))
        assert sum(taken) == len(codes)  # each room taken by one process
        async with services[0].db.sessionmaker() as session:
            for code in codes:
                room_id = (await session.execute(
                    select(Room.id).where(Room.code == code))).scalar_one()
                scores = (await session.execute(
                    select(func.count()).select_from(GameEvent).join(Game).where(
                        Game.room_id == room_id, GameEvent.type == "score"))).scalar_one()
                assert scores == 1, code
        assert await take_due(services[0].db, "turn_due_at", clock()) == []
    finally:
        for service in services:
            service.close()
            await service.db.dispose()


async def _publish(code: str, version: int, delta: str | None = None) -> None:
    """Nobody listens."""


async def test_a_live_room_stores_no_turns(database_url: str) -> None:
    async with service_room(database_url, "kniffel", ["Anna", "Bram"]) as room:
        await room.room_action(room.players[0], "start")
        row = await room_row(room.service, room.code)
        assert (row.turns, row.turn_due_at, row.remind_at) == (None, None, None)
        assert (await room.state()).turns is None


async def test_refused_moves_of_a_turn_based_room_change_nothing(database_url: str) -> None:
    clock = Clock()
    async with started_kniffel(database_url, clock) as room:
        anna, bram = room.players
        before = await room_row(room.service, room.code)
        state = await room.state()
        waiting = bram if state.game_state.current == state.seat_of(anna).id else anna
        with pytest.raises((ActionError, RoomError)):
            await room.room_action(waiting, "roll")  # not their turn
        after = await room_row(room.service, room.code)
        assert (after.version, after.turns, after.turn_due_at) == (
            before.version, before.turns, before.turn_due_at)
