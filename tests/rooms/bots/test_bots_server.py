"""Bots on real servers: a restart mid-game with bots to move, and two app processes on
Postgres + Redis moving one room's bots, each bot move stored once (docs/rules.md, "Bots";
docs/architecture.md, "Bots")."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import select

from app.rooms.bots.lease import RedisLease
from app.store.db import Database
from app.store.models import Game, GameEvent, Room
from tests.support.chaos import START, assert_bot_moves_once, bot_moves, running
from tests.support.game_drivers import DRIVERS, game_settings
from tests.support.players import Guest
from tests.support.redis_server import RedisProcess
from tests.support.waiting import until_async

pytestmark = pytest.mark.server

FAST = {"BOT_DELAY_MIN": "0.02", "BOT_DELAY_MAX": "0.06", "BOT_TAKEOVER_SECONDS": "0"}
KNISTER = DRIVERS["knister"]


async def _bot_room(guest: Guest, levels=("strong", "casual", "strong"), kind="knister",
                    leave: bool = True) -> str:
    """A started room of ``kind`` with bots of ``levels``: the guest seats them, starts the
    game and leaves the table (a game whose people are all away waits for them; bots among
    themselves play on: docs/rules.md, "Away players and timers") or, unless ``leave``, just
    closes the page (a bot takes over the seat: "Bots", "Bot takes over")."""
    code = await guest.create_room(kind)
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
    KNISTER.assert_played_once(await _stored_moves(settings.database_url, code), seats)
    assert_bot_moves_once(await bot_moves(settings.database_url, code))


@pytest.mark.parametrize(("game", "levels", "leave"), [
    ("knister", ("strong", "casual", "strong"), True),  # three bots
    ("kniffel-bot", ("strong",), False)])  # a strong bot, and one taking over Anna's seat
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_two_processes_store_every_bot_move_once(backend, game, levels, leave, server_env,
                                                       settings, shared_tables, tmp_path
                                                       ) -> None:
    driver = DRIVERS[game]
    with RedisProcess() as redis:
        env = {**server_env, **game_settings(driver, shared_tables), **FAST,
               "BROADCAST_URL": redis.url}
        # both processes are up before the game starts (bots among themselves play a game
        # in seconds: one starting afterwards could come too late to see it)
        with running(env, tmp_path / "p1.log") as p1, running(env, tmp_path / "p2.log") as p2:
            anna = Guest(p1.url, "Anna")
            code = await _bot_room(anna, levels, driver.kind, leave)
            # the second process loads the room when Eve opens it there and competes for it;
            # the first holds the room's lease until it dies, then the second moves the bots
            # (a bot plays for an away person only while someone has the room open)
            watcher = Guest(p2.url, "Eve")
            await watcher.http.get(f"/r/{code}?watch=1")
            page = await watcher.connect(code)
            await _wait(watcher, code, lambda s: s["version"] >= 30, 30)
            p1.kill()
            final = await _wait(watcher, code, lambda s: s["status"] == "finished", 90)
            await page.close()
            await watcher.aclose()
            await anna.aclose()
    seats = [s["id"] for s in final["seats"] if s["status"] == "active"]  # Anna left, or not
    events = await _stored_moves(settings.database_url, code)
    driver.assert_played_once(events, seats)
    assert_bot_moves_once(await bot_moves(settings.database_url, code))
    # every move was a bot's (Anna's seat played for her when she stayed)
    assert {e.action_id.split(".")[0] for e in events if e.type != "leave"} == {"bot"}
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
