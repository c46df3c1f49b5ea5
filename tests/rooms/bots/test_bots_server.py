"""Bots on real servers: a restart mid-game with bots to move, and two app processes on
Postgres + Redis moving one room's bots, each bot move stored once (docs/rules.md, "Bots";
docs/architecture.md, "Bots")."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import select

from app.rooms.bots.lease import RedisLease
from app.store.db import Database
from app.store.models import Game, GameEvent, Room
from tests.support.players import Guest
from tests.support.redis_server import RedisProcess
from tests.support.server import ServerProcess
from tests.support.waiting import until_async

pytestmark = pytest.mark.server

FAST = {"BOT_DELAY_MIN": "0.02", "BOT_DELAY_MAX": "0.06", "BOT_TAKEOVER_SECONDS": "0"}
START = 60.0  # seconds a server may take to come up on a busy machine


@contextmanager
def running(env: dict[str, str], log) -> Iterator[ServerProcess]:
    """A started server (given ``START`` seconds), stopped by its pid afterwards."""
    server = ServerProcess(env, log=log)
    try:
        yield server.start(timeout=START)
    finally:
        server.stop()


async def _bot_room(guest: Guest, levels=("strong", "casual", "strong"),
                    leave: bool = True) -> str:
    """A started Knister room of three bots: the guest seats them, starts the game and leaves
    the table (a game whose people are all away waits for them; bots among themselves play
    on: docs/rules.md, "Away players and timers"), or with ``leave`` False stays seated and
    goes away: the game then waits at the first roll until someone opens the room."""
    code = await guest.create_room()
    sock = await guest.connect(code)
    for level in levels:
        assert (await sock.act("add_bot", level=level)).ok
    assert (await sock.act("start")).ok
    if leave:
        assert (await sock.act("leave")).ok
    await sock.close()
    return code


async def _wait(guest: Guest, code: str, done, timeout: float) -> dict:
    """The state of room ``code`` once ``done(state)`` holds (read every 0.2 s)."""
    async def reached() -> dict | None:
        state = await guest.state(code)
        return state if done(state) else None
    return await until_async(reached, f"room {code} reaches the awaited state", timeout,
                             every=0.2)


async def _stored_moves(database_url: str, code: str) -> list[GameEvent]:
    db = Database(database_url)
    try:
        async with db.sessionmaker() as session:
            query = (select(GameEvent).join(Game, Game.id == GameEvent.game_id)
                     .join(Room, Room.id == Game.room_id).where(Room.code == code)
                     .order_by(GameEvent.seq))
            return list((await session.execute(query)).scalars())
    finally:
        await db.dispose()


def _each_move_once(events: list[GameEvent], seats: list[int]) -> None:
    """25 rolls, and per roll exactly one placement by each seat; sequence numbers unique."""
    rolls = [e for e in events if e.type == "roll"]
    assert len(rolls) == 25
    roll_no, placed = 0, Counter()
    for event in events:
        if event.type == "roll":
            roll_no += 1
        elif event.type == "place":
            placed[(roll_no, event.seat_id)] += 1
    assert placed == Counter({(r, s): 1 for r in range(1, 26) for s in seats})
    assert len({e.seq for e in events}) == len(events)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_restart_mid_game_bots_move_on(backend, server_env, settings, tmp_path) -> None:
    with running({**server_env, **FAST}, tmp_path / "server.log") as server:
        anna = Guest(server.url, "Anna")
        code = await _bot_room(anna)
        await _wait(anna, code, lambda s: len(s["current"]["rolls"]) >= 6, 30)
        server.kill()  # mid-game, bots to move
        server.start(timeout=START)  # nobody opens the room: the bots come back from the event log
        final = await _wait(anna, code, lambda s: s["status"] == "finished", 60)
        await anna.aclose()
    seats = [s["id"] for s in final["seats"] if s["status"] == "active"]  # Anna left
    _each_move_once(await _stored_moves(settings.database_url, code), seats)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_two_processes_store_every_bot_move_once(backend, server_env, settings,
                                                       tmp_path) -> None:
    with RedisProcess() as redis:
        # 0.1-0.2 s a move: the game lasts some 15 s once it runs, so the first process is
        # killed well before its end
        env = {**server_env, **FAST, "BOT_DELAY_MIN": "0.1", "BOT_DELAY_MAX": "0.2",
               "BROADCAST_URL": redis.url}
        with running(env, tmp_path / "p1.log") as p1:
            anna = Guest(p1.url, "Anna")
            # Anna stays seated and goes away: nobody watches, so the game waits at the first
            # roll (however long the second process takes to start) until Eve opens the room
            code = await _bot_room(anna, leave=False)
            # the second process loads the running bot room at start-up and competes for it;
            # the first holds the room's lease until it dies, then the second moves the bots
            with running(env, tmp_path / "p2.log") as p2:
                watcher = Guest(p2.url, "Eve")
                assert len((await watcher.state(code))["current"]["rolls"]) <= 1  # waiting
                await watcher.http.get(f"/r/{code}?watch=1")  # her guest cookie
                eve = await watcher.connect(code)  # someone watches: the bots play for Anna
                await _wait(watcher, code, lambda s: len(s["current"]["rolls"]) >= 8, 30)
                p1.kill()
                final = await _wait(watcher, code, lambda s: s["status"] == "finished", 90)
                await eve.close()
                await watcher.aclose()
            await anna.aclose()
    seats = [s["id"] for s in final["seats"] if s["status"] == "active"]  # Anna's too
    _each_move_once(await _stored_moves(settings.database_url, code), seats)
    moved = [(tmp_path / f"p{i}.log").read_text(errors="replace").count("bot_move ")
             for i in (1, 2)]
    assert all(moved), moved  # both processes moved bots, one after the other


async def test_one_process_holds_a_rooms_lease(redis_url) -> None:
    first, second = RedisLease(redis_url, ttl=0.5), RedisLease(redis_url, ttl=0.5)
    a, b = f"test-{uuid.uuid4().hex}", f"test-{uuid.uuid4().hex}"  # a shared Redis: fresh keys
    try:
        assert await first.hold(a) and await first.hold(a)  # renewed
        assert not await second.hold(a)
        assert await second.hold(b)
        await second.release(a)  # not its lease: nothing happens
        assert not await second.hold(a)
        await first.release(a)
        assert await second.hold(a) and not await first.hold(a)
        # the owner stopped renewing: once its 0.5 s ran out, the lease is free again
        await until_async(lambda: first.hold(a), "the unrenewed lease runs out", 5)
    finally:
        await first.close()
        await second.close()
