"""Faults: the server SIGKILLed and restarted at random moments while real WebSocket clients
play, and Postgres restarted mid-game.

The SIGKILL test runs for each room game of ``tests/support/game_drivers.py``: Knister with
known dice (20 kills, its games played to the end), and Kniffel between two people and a
strong bot (4 kills, mid-turn among them). What must hold:
- every acknowledged action survives every crash and is stored exactly once (its action id
  counted in the database afterwards), and the room version never goes back;
- an action in flight when the kill lands may be lost or applied, but never twice: it is sent
  again with the same ``action_id`` after reconnecting and the server answers it as a
  duplicate, applies it now, or refuses it - and then the database holds no event for it;
- every bot move is applied once, on the state it was decided on;
- the pages open after the last restart show the final version, with the right content;
- Knister: the rolls are exactly the queued faces, in order (no roll drawn twice), and the
  final totals and sheets equal those rebuilt from the stored ``place`` events, and the
  stored result;
- during a Postgres outage an action is answered with an error and changes nothing; once
  Postgres is back the pool connects afresh and the game finishes. The outage is of a Postgres
  of this test run alone (``tests/support/postgres_server.py``), never the shared one.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
import uuid
from dataclasses import dataclass, field

import httpx
import pytest
from sqlalchemy import func, select

from app.store.db import make_engine
from app.store.models import Game, GameEvent, Room
from tests.support.chaos import (
    START,
    assert_bot_moves_once,
    assert_pages_show,
    assert_stored_once,
    bot_moves,
    running,
    stored_action_ids,
)
from tests.support.game_drivers import DRIVERS, Driver, game_settings
from tests.support.players import Guest, Reply, RoomSocket, SocketClosed
from tests.support.server import ServerProcess, server_env_for

pytestmark = pytest.mark.server

KILLS = {"knister": 20, "kniffel-bot": 4}  # per game of tests/support/game_drivers.py
SEATS = {"knister": 3, "kniffel-bot": 2}  # people; the game's bots besides
ROLLS = 25
FACES = [random.Random(20261129).randint(1, 6) for _ in range(2 * ROLLS * 40)]


def _cell_for(seat_index: int, roll_index: int, empty: list[list[int]]) -> list[int]:
    """A deterministic, varied choice among a sheet's empty cells."""
    return empty[(roll_index * 7 + seat_index * 3) % len(empty)]


@dataclass
class Acked:
    """An acknowledged action: what it was, in which game and roll, at which version."""

    action_id: str
    kind: str
    seat_id: int
    game: int
    roll: int
    cell: tuple[int, int] | None
    version: int
    duplicate: bool


@dataclass
class Table:
    """One room of Knister players driving a server that may die under them."""

    server: object
    database_url: str
    guests: list[Guest]
    code: str
    driver: Driver
    sockets: list[RoomSocket] = field(default_factory=list)
    seat_ids: list[int] = field(default_factory=list)
    acked: list[Acked] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)
    refused_resends: list[tuple[str, str]] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    up: asyncio.Event = field(default_factory=asyncio.Event)
    sending: asyncio.Event = field(default_factory=asyncio.Event)
    generation: int = 0
    queued_for: int = -1
    kills: int = 0
    kills_mid_turn: int = 0
    kills_in_bot_turn: int = 0
    mid_turn: bool = False
    bot_turn: asyncio.Event = field(default_factory=asyncio.Event)
    sending_mid_turn: asyncio.Event = field(default_factory=asyncio.Event)
    lost_in_flight: int = 0
    resend_outcomes: dict[str, int] = field(default_factory=dict)
    checked_games: set[int] = field(default_factory=set)
    max_version: int = 0
    restarts: list[float] = field(default_factory=list)
    reconnects: list[float] = field(default_factory=list)

    @classmethod
    async def open(cls, server, database_url: str, seats: int, game: str = "knister") -> Table:
        """A started room of ``game`` (``tests/support/game_drivers.py``) with ``seats``
        people and the game's bots; a Knister room rolls ``FACES`` (``loaded``)."""
        driver = DRIVERS[game]
        guests = [Guest(server.url, name) for name in ("Anna", "Bram", "Cem")[:seats]]
        code = await guests[0].create_room(driver.kind)
        for g in guests[1:]:
            assert (await g.join(code)).status_code == 303
        table = cls(server, database_url, guests, code, driver)
        table.up.set()
        if table.loaded:
            r = await guests[0].http.post(f"/_test/rooms/{code}/dice", json={"faces": FACES})
            assert r.status_code == 200
        table.queued_for = 0
        table.sockets = [await g.connect(code) for g in guests]
        for level in driver.bots:
            assert (await table.sockets[0].act("add_bot", level=level)).ok
        state = await guests[0].state(code)
        by_name = {s["name"]: s["id"] for s in state["seats"]}
        table.seat_ids = [by_name[g.name] for g in guests]
        assert (await table.sockets[0].act("start")).ok
        return table

    @property
    def loaded(self) -> bool:
        """The room rolls the queued ``FACES`` (Knister), so its games can be replayed."""
        return self.driver.kind == "knister"

    # ----- talking to the server ---------------------------------------------------------

    async def send(self, index: int, message: dict, action_id: str) -> Reply | None:
        """Send one action and wait for its ack or error; None when the connection died
        before an answer came (the action was in flight)."""
        sock = self.sockets[index]
        fields = {k: v for k, v in message.items() if k != "type"}
        task = asyncio.ensure_future(
            sock.act(message["type"], action_id=action_id, timeout=15, **fields))
        await asyncio.sleep(0)
        self.sending.set()
        if self.mid_turn:
            self.sending_mid_turn.set()
        try:
            await asyncio.wait({task, sock._reader}, timeout=15,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.sending.clear()
            self.sending_mid_turn.clear()
        if task.done() and not task.cancelled() and task.exception() is None:
            return task.result()
        task.cancel()
        return None

    async def state(self) -> dict:
        r = await self.guests[0].http.get(f"/r/{self.code}/state.json")
        assert r.status_code == 200, r.status_code
        return r.json()

    async def rolls_in_database(self) -> int:
        """Roll events of every game of the room, read from the database directly."""
        engine = make_engine(self.database_url)
        try:
            async with engine.connect() as conn:
                return (await conn.execute(
                    select(func.count()).select_from(GameEvent)
                    .join(Game, Game.id == GameEvent.game_id)
                    .join(Room, Room.id == Game.room_id)
                    .where(Room.code == self.code, GameEvent.type == "roll"))).scalar_one()
        finally:
            await engine.dispose()

    async def reconnect(self) -> None:
        """After a crash: open every seat's socket again, then queue the faces not rolled yet
        (the queue died with the process). Retried until it works (the server may be killed
        again meanwhile).

        The server's listening socket outlives its process (``ServerProcess``), so a request
        sent during a restart waits in the backlog and is served by the next process: the
        faces count only when no kill came between reading ``generation`` and their answer
        (a kill clears ``up`` at once and bumps ``generation`` once the server is back)."""
        for sock in self.sockets:
            sock._reader.cancel()
        failures = 0
        began = time.monotonic()
        while True:
            await self.up.wait()
            generation = self.generation
            opened: list[RoomSocket] = []
            try:
                for g in self.guests:
                    opened.append(await g.connect(self.code))
                self.sockets = opened
                if self.loaded and self.queued_for != generation:
                    used = 2 * await self.rolls_in_database()
                    r = await self.guests[0].http.post(
                        f"/_test/rooms/{self.code}/dice", json={"faces": FACES[used:]})
                    assert r.status_code == 200, r.status_code
                    if not self.up.is_set() or self.generation != generation:
                        raise ConnectionError("killed while the dice were queued")
                    self.queued_for = generation
                self.reconnects.append(time.monotonic() - began)
                return
            except Exception:  # refused or cut off: the server is being killed again
                failures += 1
                if failures > 100:
                    raise
                for sock in opened:
                    sock._reader.cancel()
                await asyncio.sleep(0.05)

    # ----- checks ----------------------------------------------------------------------------

    def check_acked(self, state: dict) -> None:
        """The room version never went back; every acknowledged action of the current game
        is in ``state`` (where the game's rolls are known: ``loaded``; the database is read
        for every game at the end: ``check_stored``)."""
        assert state["version"] >= self.max_version, "the room version went back"
        number = state["games"][-1]["number"]
        cur = state["current"]
        for a in self.acked:
            if a.game != number or not self.loaded:
                continue
            if a.kind == "roll":
                assert len(cur["rolls"]) > a.roll, f"acked roll {a} lost"
            elif a.kind == "place":
                r, c = a.cell
                value = sum(cur["rolls"][a.roll])
                assert cur["sheets"][str(a.seat_id)][r][c] == value, f"acked place {a} lost"
        for a in self.acked:
            if a.kind == "next_game":
                assert len(state["games"]) >= a.game + 1, f"acked rematch {a} lost"

    async def check_finished_game(self, state: dict) -> None:
        """The finished game, replayed from its stored events, gives the shown totals."""
        number = state["games"][-1]["number"]
        if number in self.checked_games:
            return
        engine = make_engine(self.database_url)
        try:
            async with engine.connect() as conn:
                game = (await conn.execute(
                    select(Game.id, Game.result, Game.status).join(Room, Room.id == Game.room_id)
                    .where(Room.code == self.code, Game.number == number))).one()
                events = (await conn.execute(
                    select(GameEvent.seq, GameEvent.type, GameEvent.payload, GameEvent.seat_id,
                           GameEvent.action_id)
                    .where(GameEvent.game_id == game.id).order_by(GameEvent.seq))).all()
        finally:
            await engine.dispose()
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        grids = {s: [[None] * 5 for _ in range(5)] for s in self.seat_ids}
        rolls = []
        for e in events:
            if e.type == "roll":
                rolls.append(list(e.payload["dice"]))
            elif e.type == "place":
                r, c = e.payload["cell"]
                assert grids[e.seat_id][r][c] is None, f"cell placed twice: {e}"
                assert e.payload["value"] == sum(rolls[-1])
                grids[e.seat_id][r][c] = e.payload["value"]
        ids = [e.action_id for e in events if e.action_id]
        assert len(ids) == len(set(ids)), "an action was applied twice"
        first = sum(ROLLS for g in state["games"][:-1])
        expected = [FACES[2 * i:2 * i + 2] for i in range(first, first + ROLLS)]
        assert rolls == expected, "the rolls are not the queued faces in order"
        cur = state["current"]
        assert cur["rolls"] == rolls
        for seat in self.seat_ids:  # totals are checked against hand-worked values elsewhere
            assert cur["sheets"][str(seat)] == grids[seat]
            total = cur["totals"][str(seat)]
            assert game.result["totals"][str(seat)] == total
            assert state["games"][-1]["totals"][str(seat)] == total
        refused = {aid for aid, _ in self.refused_resends}
        assert not refused & set(ids), "a refused resend was applied"
        self.check_acked(state)
        self.checked_games.add(number)

    # ----- playing ---------------------------------------------------------------------------

    def next_action(self, state: dict
                    ) -> tuple[int, dict, str, int, tuple[int, int] | None] | None:
        """(socket index, message, kind, roll index, cell) of the next move of a person; None
        while the game waits for a bot."""
        cur = state["current"]
        if cur["over"]:  # the host (seat 0) goes back to the lobby, then starts
            if state["status"] == "finished":
                return 0, {"type": "rematch"}, "rematch", -1, None
            return 0, {"type": "start"}, "next_game", -1, None
        move = self.driver.next_move(state, self.seat_ids)
        if move is None:
            return None
        index = self.seat_ids.index(move.seat)
        message = {"type": move.kind, **move.fields}
        if move.kind == "place":  # Knister: the roll placed and the cell (check_acked)
            r, c = map(int, move.fields["cell"].split(","))
            return index, message, "place", len(cur["rolls"]) - 1, (r, c)
        roll = len(cur["rolls"]) if isinstance(cur["rolls"], list) else cur["rolls"]
        return index, message, move.kind, roll, None

    async def check_stored(self) -> None:
        """Every acknowledged action is stored exactly once, every one left unanswered by a
        crash at most once, every bot move once (read from the database)."""
        stored = await stored_action_ids(self.database_url, self.code)
        assert_stored_once(stored, [a.action_id for a in self.acked], self.unanswered)
        if self.driver.bots:
            assert_bot_moves_once(await bot_moves(self.database_url, self.code))

    def record(self, reply: Reply, action_id: str, index: int, kind: str, game: int,
               roll: int, cell) -> None:
        self.acked.append(Acked(action_id, kind, self.seat_ids[index], game, roll, cell,
                                reply.version, reply.duplicate))
        self.max_version = max(self.max_version, reply.version)

    async def play(self, done, to_the_end: bool = True) -> dict:
        """Play (starting rematches) until ``done(state)`` (``state.json``) and, when
        ``to_the_end``, the current game is over; the room's state then."""
        pending = None  # an action sent without an answer: (index, message, id, kind, ...)
        dead = False
        while True:
            if dead:
                await self.reconnect()
                dead = False
            try:
                state = await self.state()
            except (httpx.HTTPError, AssertionError):
                dead = True
                continue
            self.check_acked(state)
            if pending is not None:
                index, message, action_id, kind, game, roll, cell = pending
                reply = await self.send(index, message, action_id)
                if reply is None:
                    dead = True
                    continue
                pending = None
                outcome = "duplicate" if reply.ok and reply.duplicate else \
                    "applied" if reply.ok else "refused"
                self.resend_outcomes[outcome] = self.resend_outcomes.get(outcome, 0) + 1
                if reply.ok:
                    self.record(reply, action_id, index, kind, game, roll, cell)
                else:
                    self.refused_resends.append((action_id, reply.code))
                continue
            if not to_the_end and done(state) and self.next_action(state) is not None:
                return state  # a person's move next: no bot is moving
            # a game over on its result screen (after the rematch the room waits in the
            # lobby with the same finished game: the host starts the next one)
            if state["current"]["over"] and state["status"] == "finished":
                if self.loaded:
                    await self.check_finished_game(state)
                if done(state):
                    return state
            action = self.next_action(state)
            if action is None:  # a bot's move: the next state read waits for it
                self.bot_turn.set()
                await asyncio.sleep(0.02)
                continue
            self.bot_turn.clear()
            index, message, kind, roll, cell = action
            try:  # the page shows what the move was decided on (bots' moves too)
                await self.sockets[index].wait_version(state["version"], 15)
            except (SocketClosed, TimeoutError):
                dead = True
                continue
            self.mid_turn = kind in ("place", "hold", "score") or kind == "roll" and roll > 0
            game = state["games"][-1]["number"]
            action_id = uuid.uuid4().hex
            reply = await self.send(index, message, action_id)
            if reply is None:
                self.lost_in_flight += 1
                self.unanswered.append(action_id)
                pending = (index, message, action_id, kind, game, roll, cell)
                dead = True
                continue
            if reply.ok:
                self.record(reply, action_id, index, kind, game, roll, cell)
            else:
                self.unexpected.append(reply.code)

    async def killer(self, kills: int, rng: random.Random) -> None:
        """SIGKILL the server ``kills`` times at random moments (every other time just after
        an action was sent, the first such time mid-turn; with bots every fourth time while
        a bot is on turn), restarting it each time."""
        for i in range(kills):
            await asyncio.sleep(rng.uniform(0.15, 0.45))
            if self.driver.bots and i % 4 == 2:
                await asyncio.wait_for(self.bot_turn.wait(), 30)
                await asyncio.sleep(rng.uniform(0, 0.01))
                self.kills_in_bot_turn += 1
            elif i % 2:
                sent = self.sending_mid_turn if i == 1 else self.sending
                try:
                    await asyncio.wait_for(sent.wait(), 30 if i == 1 else 3)
                except TimeoutError:
                    pass
                await asyncio.sleep(rng.uniform(0, 0.003))
            self.up.clear()
            self.server.kill()  # here, not in a thread: nothing is read in between
            self.kills += 1
            self.kills_mid_turn += self.mid_turn
            t = time.monotonic()
            await asyncio.to_thread(self.server.start, START)
            self.restarts.append(time.monotonic() - t)
            self.generation += 1
            self.up.set()

    async def close(self) -> None:
        for sock in self.sockets:
            try:
                await asyncio.wait_for(sock.close(), 2)
            except Exception:
                pass
        for g in self.guests:
            await g.aclose()


@pytest.mark.parametrize(("backend", "game"), [
    ("sqlite", "knister"), ("postgres", "knister"), ("postgres", "kniffel-bot")],
    indirect=["backend"])
async def test_sigkill_at_random_moments_loses_no_acknowledged_action(
        backend, game, server_env, settings, shared_tables, tmp_path):
    started = time.monotonic()
    kills = KILLS[game]
    env = {**server_env, **game_settings(DRIVERS[game], shared_tables)}
    with running(env, tmp_path / "server.log") as server:
        table = await Table.open(server, settings.database_url, seats=SEATS[game], game=game)
        rng = random.Random(int(os.environ.get("FAULTS_SEED", "7")))
        killer = asyncio.create_task(table.killer(kills, rng))

        def enough(state: dict) -> bool:  # with bots: once they have played two turns
            return killer.done() and (not table.driver.bots or state["current"]["turns"] >= 6)

        try:
            # Knister plays its games to the end (replayed from the stored events); the
            # others stop once the killer is done, at a person's move (no bot moving then)
            final = await asyncio.wait_for(table.play(enough, table.loaded), 150)
            await killer
        finally:
            killer.cancel()
        await assert_pages_show(table.sockets, final, table.driver)
        await table.close()
    await table.check_stored()
    assert table.kills == kills
    assert not table.unexpected, f"actions refused outside the crashes: {table.unexpected}"
    if table.loaded:
        assert final["status"] == "finished"
        assert len(table.checked_games) >= 1
    assert table.kills_mid_turn >= 1, "no kill landed mid-turn"
    assert table.kills_in_bot_turn == (1 if table.driver.bots else 0)
    # some kills landed while an action was unanswered; each was resent with its action_id
    assert table.lost_in_flight >= 1
    assert sum(table.resend_outcomes.values()) == table.lost_in_flight
    print(f"\n{game}: {kills} kills ({table.kills_mid_turn} mid-turn, "
          f"{table.kills_in_bot_turn} in a bot's turn) in "
          f"{time.monotonic() - started:.1f} s: "
          f"{len(table.acked)} acked actions, {len(table.checked_games)} games replayed, "
          f"{table.lost_in_flight} in flight at a kill, resends: {table.resend_outcomes}; "
          f"restarts {sum(table.restarts):.1f} s (max {max(table.restarts):.1f}), "
          f"reconnects {sum(table.reconnects):.1f} s (max {max(table.reconnects):.1f})")


# ----- Postgres restarted mid-game -------------------------------------------------------------


async def _error_after(sock: RoomSocket, before: int, timeout: float = 15) -> str:
    """The first error fragment received after the first ``before`` fragments."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for text in sock.fragments[before:]:
            if 'data-error="' in text:
                return text
        if sock._reader.done():
            return "connection dropped"
        await asyncio.sleep(0.02)
    raise AssertionError("no error during the outage")


async def test_postgres_restart_mid_game(private_postgres, restartable_database_url, tmp_path):
    env = server_env_for(restartable_database_url, tmp_path)
    with ServerProcess(env, log=tmp_path / "server.log") as server:
        await _play_through_an_outage(server, private_postgres, restartable_database_url)


async def _play_through_an_outage(server, postgres, database_url: str) -> None:
    table = await Table.open(server, database_url, seats=2)
    for _ in range(5 * 3):  # five rounds: a roll and two placements each
        state = await table.state()
        index, message, kind, roll, cell = table.next_action(state)
        reply = await table.send(index, message, aid := uuid.uuid4().hex)
        assert reply is not None and reply.ok
        table.record(reply, aid, index, kind, 1, roll, cell)
    before = await table.state()
    index, message, kind, roll, cell = table.next_action(before)
    sock = table.sockets[index]
    outage_id = uuid.uuid4().hex
    try:
        await asyncio.to_thread(postgres.stop)
        seen = len(sock.fragments)
        await sock.ws.send(json.dumps({**message, "action_id": outage_id}))
        error = await _error_after(sock, seen)
        assert "server_error" in error or error == "connection dropped"
        r = await table.guests[0].http.get(f"/r/{table.code}/state.json")
        assert r.status_code >= 500
    finally:
        if not postgres.running:
            await asyncio.to_thread(postgres.start)
    # nothing changed; the pool recovers at once and the game goes on
    assert await table.state() == before
    if sock._reader.done():
        await table.reconnect()
    reply = await table.send(index, message, outage_id)
    assert reply is not None and reply.ok and not reply.duplicate
    table.record(reply, outage_id, index, kind, 1, roll, cell)
    final = await asyncio.wait_for(table.play(lambda state: True), 120)
    assert final["status"] == "finished"
    assert not table.unexpected
    assert 1 in table.checked_games
    await table.close()
