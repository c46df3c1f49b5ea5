"""Idle rooms leave memory and come back from the database (issue 15): the service forgets a
room's state, lock and timer; the sweep forgets only rooms idle long enough with no socket."""

from __future__ import annotations

import asyncio
import re
import time
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from app.live.idle import IdleRooms
from app.live.presence import Presence
from app.main import create_app
from app.rooms.dice import DiceSource
from app.rooms.service import RoomService
from app.store.db import Database
from app.web.part_cache import PartCache
from app.web.room_view import live_context
from tests.support.room_service import act_as
from tests.support.waiting import receive_until


async def _publish(code: str, version: int, delta: str | None = None) -> None:
    return None


async def test_a_forgotten_room_comes_back_from_the_database(settings) -> None:
    db = Database(settings.database_url)
    loaded: list[str] = []
    service = RoomService(db, _publish, DiceSource(allow_loaded=True), loaded=loaded.append)
    code = await service.create_room("p-ann", "Ann", "knister")
    await service.join(code, "p-bob", "Bob")
    await act_as(service, code, "p-ann", {"type": "start"})
    before = await service.snapshot(code)
    assert before is not None and loaded
    parts = PartCache()
    live_context(before, "p-ann", frozenset(), parts)["part_html"](
        live_context(before, "p-ann", frozenset(), parts)["room_parts"][0])
    # the part, and Ann's own parts (rendered to list their elements); the shared views
    assert len(parts) >= 1 and len(parts.views) == 1
    assert service.forget(code)
    parts.forget(code)
    assert code not in service._rooms and code not in service._locks and len(parts) == 0
    assert len(parts.views) == 0 and not parts.streams
    after = await service.snapshot(code)
    assert after is not None and after is not before
    assert (after.version, after.game_state.roller) == (before.version, before.game_state.roller)
    service.close()
    await db.dispose()


async def test_a_room_busy_with_an_action_is_kept(settings) -> None:
    db = Database(settings.database_url)
    service = RoomService(db, _publish, DiceSource())
    code = await service.create_room("p-ann", "Ann", "knister")
    await service.snapshot(code)
    async with service.lock(code):
        assert not service.forget(code)
    assert service.forget(code)
    service.close()
    await db.dispose()


async def test_codes_that_name_no_room_leave_nothing_behind(settings) -> None:
    db = Database(settings.database_url)
    service = RoomService(db, _publish, DiceSource())
    for code in ("ABCDEF", "GHJKLM"):
        assert await service.snapshot(code) is None
        assert await service.current(code) is None
    assert service._rooms == {} and service._locks == {}
    service.close()
    await db.dispose()


def test_the_sweep_forgets_rooms_idle_long_enough_and_not_occupied_ones() -> None:
    now = [0.0]
    forgotten: list[str] = []
    keep = {"BUSY"}

    def forget(code: str) -> bool:
        if code in keep:
            return False
        forgotten.append(code)
        return True

    idle = IdleRooms(forget, after=300, clock=lambda: now[0])
    for code in ("OLD", "BUSY", "BACK"):
        idle.emptied(code)
    now[0] = 200
    idle.emptied("NEW")
    idle.occupied("BACK")  # a socket opened again
    assert idle.sweep() == [] and forgotten == []
    now[0] = 301
    assert idle.sweep() == ["OLD"]
    now[0] = 600
    assert idle.sweep() == ["NEW"]  # BUSY is kept for a later sweep, BACK has a socket
    keep.clear()
    assert idle.sweep() == ["BUSY"]


def test_the_sweep_runs_every_quarter_of_the_idle_time_at_most_every_30_seconds() -> None:
    # a room leaves memory at most a quarter of its idle time late (bench/soak.py)
    assert IdleRooms(lambda code: True, after=5).every == 1.25
    assert IdleRooms(lambda code: True, after=300).every == 30.0
    assert IdleRooms(lambda code: True, after=300, every=2).every == 2


class Replica:
    """This process's room service, presence and idle sweep on a clock the test moves, for
    rooms whose players have their pages open on another process ("p2", whose announcements
    reach ``Presence`` as the hub passes them on). Records the versions it publishes."""

    IDLE = 20.0  # seconds without a socket here before a room leaves memory
    GRACE = timedelta(seconds=30)  # the host hand-over's

    def __init__(self, settings, monkeypatch) -> None:
        self.start = self.now = datetime.now(UTC)
        monkeypatch.setattr("app.live.presence.utcnow", lambda: self.now)  # away times
        # p2 stays alive throughout (its announcements never run out: tests/live/)
        self.presence = Presence(ttl=3600, clock=self.seconds)
        self.published: list[tuple[str, int]] = []
        self.remote: dict[str, set[str]] = {}  # what p2 announces, per room
        self.dice = DiceSource(allow_loaded=True)
        self.db = Database(settings.database_url)

        async def publish(code: str, version: int, delta: str | None = None) -> None:
            self.published.append((code, version))

        def forget(code: str) -> bool:  # as the app's: no socket here (app/main.py)
            if not self.service.forget(code):
                return False
            self.presence.forget(code)
            return True

        self.idle = IdleRooms(forget, after=self.IDLE, clock=self.seconds)
        self.service = RoomService(self.db, publish, self.dice, presence=self.presence,
                                   clock=lambda: self.now, host_grace=self.GRACE,
                                   loaded=self.idle.emptied)

    def seconds(self) -> float:
        """The monotonic clock: seconds since the test began."""
        return (self.now - self.start).total_seconds()

    def at(self, seconds: float) -> None:
        """Move the clock to ``seconds`` after the start; p2, alive, announces its players
        again (its heartbeat)."""
        self.now = self.start + timedelta(seconds=seconds)
        for code, players in self.remote.items():
            self.elsewhere(code, players)

    def elsewhere(self, code: str, players: set[str]) -> None:
        """Process p2 announces who has ``code`` open there (as ``Hub._remote_presence``)."""
        self.remote[code] = players
        before = self.presence.online(code)
        self.presence.announced(code, "p2", frozenset(players))
        if self.presence.settle(code, before):
            self.service.presence_changed(code)

    async def fires_at(self, code: str, seconds: float) -> int:
        """Nothing is due in ``code`` a millisecond before ``seconds``; at ``seconds`` the
        room's own timer (re-armed for the new time, as a presence change does) writes what
        is due. Returns the version it published."""
        self.at(seconds - 0.001)
        before = len(self.published)
        await self.service.fire_timer(code)
        assert len(self.published) == before, "something was done before it was due"
        self.at(seconds)
        self.service.presence_changed(code)
        for _ in range(500):
            if len(self.published) > before:
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError(f"the timer of {code} never fired")
        async with self.service.lock(code):  # its write has finished
            pass
        assert [c for c, _ in self.published[before:]] == [code]
        return self.published[-1][1]

    async def close(self) -> None:
        self.service.close()
        await self.db.dispose()


def _intact(state) -> tuple:
    """What a room is: version, host, seats, options and the public game state."""
    return (state.version, state.host_seat.id if state.host_seat else None,
            [(s.id, s.name, s.status, s.player_id) for s in state.seats], state.options,
            state.plugin.public(state.game_state) if state.game_state else None)


async def test_an_evicted_room_comes_back_with_its_host_hand_over_and_away_timer(
        settings, monkeypatch) -> None:
    """A lobby whose host went away (hand-over pending) and a Knister game whose placer went
    away (the server places for them) leave this process's memory while their players are
    on another process; visited again, both are intact and both timers fire: counted from the
    visit, as after a restart (docs/rules.md, "Away players and timers"; docs/architecture.md,
    "Memory")."""
    r = Replica(settings, monkeypatch)
    try:
        lobby = await r.service.create_room("p-ann", "Ann", "knister")
        await r.service.join(lobby, "p-bob", "Bob")
        game = await r.service.create_room("p-ann", "Ann", "knister")
        await r.service.join(game, "p-bob", "Bob")
        for code in (lobby, game):
            r.elsewhere(code, {"p-ann", "p-bob"})
        await act_as(r.service, game, "p-ann", {"type": "start"})
        r.dice.load(game, [3, 4])
        await act_as(r.service, game, "p-ann", {"type": "roll"})
        await act_as(r.service, game, "p-ann", {"type": "place", "cell": "0,0"})

        r.at(5)
        r.elsewhere(lobby, {"p-bob"})  # the host closed her page
        r.elsewhere(game, {"p-ann"})  # Bob, who still has to place the 7, closed his
        lobby_state, game_state = [await r.service.snapshot(c) for c in (lobby, game)]
        ann, bob = (s.id for s in lobby_state.seats)
        assert lobby_state.host_handoff == (r.start + timedelta(seconds=35), lobby_state.seats[1])
        game_bob = game_state.seat_of("p-bob").id
        assert game_state.away_due == {game_bob: r.start + timedelta(seconds=5 + 30)}
        kept = [_intact(lobby_state), _intact(game_state)]

        r.at(19.999)
        assert r.idle.sweep() == []  # loaded at 0: not idle for 20 s yet
        r.at(25)
        assert sorted(r.idle.sweep()) == sorted([lobby, game])
        assert r.service._rooms == {} and r.service.timers._handles == {}
        assert r.presence.away_since(lobby) == {} and r.presence.online(lobby) == frozenset()

        r.at(30)  # p2's heartbeat, then a visit to each room here
        lobby_state, game_state = [await r.service.snapshot(c) for c in (lobby, game)]
        assert [_intact(lobby_state), _intact(game_state)] == kept
        assert lobby_state.host_handoff == (r.start + timedelta(seconds=60), lobby_state.seats[1])
        assert game_state.away_due == {game_bob: r.start + timedelta(seconds=60)}

        version = await r.fires_at(lobby, 60)
        after = await r.service.current(lobby)
        assert (after.version, after.host_seat.id, [s.id for s in after.seats]) == (
            version, bob, [ann, bob])
        version = await r.fires_at(game, 60)
        after = await r.service.current(game)
        assert after.version == version
        # placed for him by rule: the first cell, row by row, on no diagonal (auto_cell)
        filled = [(r, c, v) for r, row in enumerate(after.game_state.sheets[game_bob].grid)
                  for c, v in enumerate(row) if v is not None]
        assert filled == [(0, 1, 7)]
        assert after.game_state.rolls == [(3, 4)] and after.game_state.roller == game_bob
    finally:
        await r.close()


async def test_the_sweep_keeps_a_room_with_an_open_socket_even_after_it_reloaded(
        settings) -> None:
    """A room action reloads the room (which starts its idle time, app/rooms/memory.py)
    while its page is open: the sweep still keeps it, and forgets it once the page closed."""
    app = create_app(settings)
    with TestClient(app, base_url="http://testserver") as client:
        created = client.post("/rooms", data={"game": "knister", "name": "Anna"},
                              follow_redirects=False)
        code = created.headers["location"].rsplit("/", 1)[1]
        rooms, idle = app.state.rooms, app.state.hub.idle
        now = [time.monotonic()]
        idle.clock = lambda: now[0]
        with client.websocket_connect(f"/r/{code}/ws",
                                      headers={"origin": "http://testserver"}) as ws:
            ws.send_json({"type": "hello", "version": -1})
            live = receive_until(ws.receive_text, 'id="live"')
            version = int(re.search(r'data-version="(\d+)"', live).group(1))
            ws.send_json({"type": "options", "version": version, "game": 0, "timer": "30",
                          "action_id": "o1"})
            receive_until(ws.receive_text, 'data-ack="o1"')  # talk parts may come between
            now[0] += 10 * idle.after
            assert client.portal.call(idle.sweep) == []
            assert code in rooms._rooms and code in app.state.hub.rooms
        for _ in range(500):  # the socket's end reaches the hub
            if code not in app.state.hub.rooms:
                break
            time.sleep(0.01)
        else:
            raise AssertionError("the closed socket stayed registered")
        now[0] += idle.after
        assert client.portal.call(idle.sweep) == [code]
        assert code not in rooms._rooms
        page = client.get(f"/r/{code}")  # the next visit rebuilds it from the database
        assert page.status_code == 200
        assert rooms._rooms[code].options["timer"] == 30
