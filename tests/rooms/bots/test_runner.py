"""Bots in rooms driven through the room service on the real database (SQLite and Postgres):
adding and removing bots, whole games played by bots, the takeover of an away player, and
every bot move stored once. Rules: docs/rules.md, "Bots"."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

import pytest
from sqlalchemy import select

from app.rooms.bots import BotsInRooms
from app.rooms.bots.control import BotControl, controllers
from app.rooms.bots.identity import bot_level
from app.rooms.bots.lease import LocalLease
from app.rooms.bots.runner import BotRunner
from app.rooms.errors import RoomError
from app.store.models import GameEvent
from tests.support.room_service import ServiceRoom, service_room
from tests.support.waiting import until_async


class CountingLease(LocalLease):
    """``LocalLease`` counting the driver's looks at a room: it asks for the lease once per
    pass, before deciding the bots' moves on the state it just read."""

    def __init__(self) -> None:
        self.looks = 0

    async def hold(self, code: str) -> bool:
        self.looks += 1
        return await super().hold(code)


def with_bots(grace: float = 0.0, strategies=lambda r, o: None):
    """Bots for a room service, given to it at its construction (``RoomService(bots=...)``,
    as ``bots.install`` builds them): a runner with a short delay, whose lease is a
    ``CountingLease`` (for ``quiet``), and a takeover after ``grace`` seconds."""
    return lambda service: BotsInRooms(
        BotControl(timedelta(seconds=grace)),
        BotRunner(service, strategies, CountingLease(), delay=(0.0, 0.01), poll=0.2))


def runner_of(room: ServiceRoom) -> BotRunner:
    """The bot runner of the room's service (built with ``with_bots``)."""
    bots = room.service.bots
    assert isinstance(bots, BotsInRooms)
    return bots.runner


async def _against_a_bot(room: ServiceRoom, **options: str) -> BotRunner:
    """The host seats a strong bot, sets ``options`` and starts; the bots run."""
    host = room.players[0]
    runner = runner_of(room)
    await room.room_action(host, "add_bot", level="strong")
    await room.room_action(host, "options", **options)
    await room.room_action(host, "start")
    return runner


async def events(room: ServiceRoom) -> list[GameEvent]:
    async with room.service.db.sessionmaker() as session:
        return list((await session.execute(select(GameEvent).order_by(GameEvent.id))).scalars())


async def finish(room: ServiceRoom, timeout: float = 60.0) -> None:
    async def ended() -> bool:
        return (await room.state(fresh=True)).status == "finished"
    await until_async(ended, "the game ends", timeout, every=0.1)


async def quiet(room: ServiceRoom, runner: BotRunner, looks: int = 3) -> None:
    """Wait until the bot driver has looked at the room ``looks`` times while it did not
    change: everything the bots would do on this table is done (a move first seen on one
    look is sent by the next one at the latest, its delay being at most 0.01 s). The
    positive barrier before checking that nothing (more) happens."""
    lease = runner.lease
    assert isinstance(lease, CountingLease)

    async def unchanged() -> bool:
        version, start = (await room.state(fresh=True)).version, lease.looks
        await until_async(lambda: lease.looks >= start + looks,
                          "the bot driver looks at the room again (it stops when the game "
                          "ends or no bot has a seat to play)")
        return (await room.state(fresh=True)).version == version
    await until_async(unchanged, "the room stays as it is while the bot driver looks", 20,
                      every=0)


async def rolls(room: ServiceRoom, count: int, what: str) -> None:
    """Wait (10 s at most) until the room's game has ``count`` rolls (as stored)."""
    async def rolled() -> bool:
        return len((await room.state(fresh=True)).game_state.rolls) >= count
    await until_async(rolled, what, 10, every=0.1)


async def test_host_adds_and_removes_bots(database_url):
    async with service_room(database_url, "knister", ["Ann", "Bob"]) as room:
        host, guest = room.players
        for level in ("strong", "casual", "strong"):
            await room.room_action(host, "add_bot", level=level)
        state = await room.state()
        bots = [s for s in state.active_seats if s.bot]
        assert [s.name for s in bots] == ["Bot Anna", "Bot Bram", "Bot Clara"]
        assert [bot_level(s.player_id) for s in bots] == ["strong", "casual", "strong"]
        with pytest.raises(RoomError) as refused:
            await room.room_action(guest, "add_bot", level="strong")
        assert refused.value.code == "not_host"
        with pytest.raises(RoomError) as refused:
            await room.room_action(host, "add_bot", level="expert")
        assert refused.value.code == "bad_message"
        await room.room_action(host, "remove", target=bots[1].id)
        state = await room.state(fresh=True)
        assert [s.name for s in state.active_seats if s.bot] == ["Bot Anna", "Bot Clara"]
        await room.room_action(host, "options", bot_takeover=["false"])
        assert (await room.state()).options["bot_takeover"] is False


@pytest.mark.parametrize("kind", ["knister", "kniffel"])
async def test_three_bots_and_an_away_host_play_a_whole_game(database_url, kind):
    """The host is away (no socket): after the grace a strong bot plays for them, marked
    (someone watches: a room nobody has open waits, see the next test)."""
    async with service_room(database_url, kind, ["Ann"], bots=with_bots()) as room:
        host = room.players[0]
        room.service.online = lambda code: frozenset({"p-watcher"})
        runner = runner_of(room)
        for level in ("strong", "casual", "casual"):
            await room.room_action(host, "add_bot", level=level)
        await room.room_action(host, "start")
        try:
            await finish(room)
        finally:
            await runner.close()
        state = await room.state(fresh=True)
        assert sorted(state.game.totals) == sorted(s.id for s in state.active_seats)
        rows = await events(room)
        host_seat = state.seat_of(host).id
        moves = [r for r in rows if r.type in ("place", "score")]
        # every move once: Knister one placement per seat per roll, Kniffel one box per turn
        if kind == "knister":
            assert Counter(r.seat_id for r in moves) == {s: 25 for s in state.game.seat_ids}
        else:
            assert Counter(r.seat_id for r in moves) == {s: 13 for s in state.game.seat_ids}
        assert all(r.payload["auto"] and r.payload["bot"] for r in moves if r.seat_id == host_seat)
        assert not any(r.payload.get("bot") for r in moves if r.seat_id != host_seat)
        ids = [r.action_id for r in rows if r.action_id]
        assert len(ids) == len(set(ids)) and all(i.startswith("bot.") for i in ids)


async def test_a_room_nobody_has_open_waits_for_its_people(database_url):
    """Everyone went away (no socket in the room, not even a watcher's): no bot plays for the
    away host and no timer runs; bots in their own seats still make their own moves. When
    someone opens the room again, the bots stand in for the away host."""
    async with service_room(database_url, "knister", ["Ann"], bots=with_bots()) as room:
        host = room.players[0]
        runner = await _against_a_bot(room, timer="30")
        try:
            await quiet(room, runner)
            state = await room.state(fresh=True)
            host_seat = state.seat_of(host).id
            assert state.status == "playing" and len(state.game_state.rolls) <= 1
            assert host_seat not in state.game_state.placed and not state.taken_over
            live = await room.state()
            assert not live.taken_over and not live.away_due
            assert room.service.timers._handles.get(room.code) is None  # no timer armed
            room.service.online = lambda code: frozenset({"p-watcher"})  # someone looks in
            room.service.presence_changed(room.code)
            await rolls(room, 3, "the bots stand in for the away host")
        finally:
            await runner.close()


@pytest.mark.parametrize(("option", "taken"), [("false", False), ("true", True)])
async def test_takeover_off_keeps_the_away_player_waiting(database_url, option, taken):
    """Someone watches (a room nobody has open waits anyway) and the takeover grace is 0.
    With the option off no bot plays the away host's seat: the host keeps the game's own
    away countdown (the Knister roller's grace). With it on, a bot takes the seat at once."""
    async with service_room(database_url, "knister", ["Ann"], bots=with_bots()) as room:
        host = room.players[0]
        room.service.online = lambda code: frozenset({"p-watcher"})
        runner = await _against_a_bot(room, bot_takeover=option)
        try:
            live = await room.state()
            host_seat = live.seat_of(host).id
            bot_seat = next(s.id for s in live.active_seats if s.bot)
            assert live.options["bot_takeover"] is taken
            assert live.game_state.roller == host_seat  # the host rolls first
            if taken:
                assert (live.taken_over, live.away_due) == ({host_seat}, {})
                assert set(controllers(live)) == {host_seat, bot_seat}
            else:
                assert (live.taken_over, set(live.away_due)) == (set(), {host_seat})
                assert set(controllers(live)) == {bot_seat}
        finally:
            await runner.close()


async def test_play_against_bots_starts_a_room_with_the_bots(database_url):
    from app.rooms.bots.solo import start_against_bots

    async with service_room(database_url, "knister", ["Host"]) as room:
        code = await start_against_bots(room.service, "p-solo", "Sam", "yatzy", 2, "casual")
        state = await room.service.current(code)
        assert state.status == "playing" and state.kind == "yatzy"
        assert [(s.name, s.bot) for s in state.active_seats] == \
            [("Sam", False), ("Bot Anna", True), ("Bot Bram", True)]
        assert all(bot_level(s.player_id) == "casual" for s in state.active_seats if s.bot)
        for bad in (0, 4):
            with pytest.raises(RoomError):
                await start_against_bots(room.service, "p-solo", "Sam", "knister", bad)


async def test_a_returning_player_takes_over_at_once(database_url):
    async with service_room(database_url, "knister", ["Ann"], bots=with_bots()) as room:
        host = room.players[0]
        room.service.online = lambda code: frozenset({"p-watcher"})  # Ann away, a watcher
        runner = runner_of(room)
        await room.room_action(host, "add_bot", level="strong")
        await room.room_action(host, "start")
        try:
            await rolls(room, 3, "the bot plays for the away host for a few rolls")
            room.service.online = lambda code: frozenset({host})  # Ann opens the page again
            room.service.presence_changed(room.code)
            await quiet(room, runner)  # a move already on its way may still land
            before = len(await events(room))
            await quiet(room, runner)
            state = await room.state(fresh=True)
            assert not state.taken_over and state.status == "playing"
            later = (await events(room))[before:]
            host_seat = state.seat_of(host).id
            assert not [e for e in later if e.seat_id == host_seat]  # nobody moves for Ann
            waiting_for_ann = (state.game_state.roll_pending and
                               host_seat not in state.game_state.placed) or \
                state.game_state.roller == host_seat
            assert waiting_for_ann
        finally:
            await runner.close()


def test_a_hold_comes_after_a_quarter_of_a_moves_pause():
    """A fresh user's finding: bots that held three dice at 0.5-1.5 s each were slow. A hold
    (part of a keep decided with its roll) waits a quarter of the drawn pause; a roll, a box or
    a placement waits all of it (docs/rules.md, "Bots")."""
    import random

    from app.rooms.bots.runner import HOLD_SHARE, pause

    assert HOLD_SHARE == 0.25
    for kind in ("roll", "score", "place"):
        waits = [pause({"type": kind}, random.Random(i), (0.5, 1.5)) for i in range(200)]
        assert 0.5 <= min(waits) and max(waits) <= 1.5 and max(waits) - min(waits) > 0.8
    holds = [pause({"type": "hold", "die": 1, "held": True}, random.Random(i), (0.5, 1.5))
             for i in range(200)]
    assert 0.125 <= min(holds) and max(holds) <= 0.375
    assert pause({"type": "hold"}, random.Random(3), (0.5, 1.5)) == \
        pause({"type": "roll"}, random.Random(3), (0.5, 1.5)) * 0.25


class SlowLease(LocalLease):
    """``LocalLease`` whose ``hold`` (a database round trip with a shared lease) waits for
    ``go``: the driver is inside its database work while the runner closes."""

    def __init__(self) -> None:
        self.entered, self.go = asyncio.Event(), asyncio.Event()
        self.finished: list[str] = []

    async def hold(self, code: str) -> bool:
        self.entered.set()
        await self.go.wait()
        self.finished.append(code)
        return await super().hold(code)


def slow_bots(lease: SlowLease):
    """Bots for a room service whose runner holds rooms with ``lease``."""
    return lambda service: BotsInRooms(BotControl(timedelta(0)), BotRunner(
        service, lambda r, o: None, lease, delay=(0.0, 0.01), poll=0.2))


async def test_closing_waits_for_a_driver_in_its_database_work(database_url):
    """``BotRunner.close`` wakes the drivers and lets each finish the step it is in, rather
    than cancelling it inside its database work (which left the clean-up running while the
    app closed its pool); one still busy after the grace is cancelled."""
    for grace, finishes in ((5.0, True), (0.1, False)):
        lease = SlowLease()
        async with service_room(database_url, "kniffel", ["Ann"],
                                bots=slow_bots(lease)) as room:
            room.service.online = lambda code: frozenset({"p-watcher"})
            runner = runner_of(room)
            await _against_a_bot(room)
            await asyncio.wait_for(lease.entered.wait(), 10)
            closing = asyncio.create_task(runner.close(grace=grace))
            await asyncio.sleep(0.3)
            # within the grace it waits for the step; over it, the step is cancelled
            assert closing.done() is not finishes
            lease.go.set()
            await asyncio.wait_for(closing, 5)
            assert lease.finished == ([room.code] if finishes else [])
            assert not runner._tasks  # every driver stopped
