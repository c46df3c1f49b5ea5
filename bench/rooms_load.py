"""Load benchmark of the live hub: R rooms x S seats of real WebSocket clients playing Knister
(or Kniffel: ``--game kniffel``).

``python bench/rooms_load.py`` starts the app with uvicorn on Postgres (``--database-url``,
created and migrated when missing; rate limits set high), opens ``--rooms`` x ``--seats``
guests (each its own cookie: the host creates the room over HTTP, the others join), connects
every seat's room socket with the ``websockets`` client, starts a game, and plays it at
``--rate`` actions per room per second (an action is a roll by the roller or a placement by
the next seat still to place). The same load then runs against the bare fan-out baseline
(``bench/fanout_baseline.py``: ``websockets.broadcast`` of a captured live fragment, nothing
else). Both servers are stopped by their pid at the end.

Measured per run (after ``--warmup`` seconds, for ``--duration`` seconds):
actions/s (acknowledged), deliveries/s (live fragments received by the clients; KB per
delivery counts a seat's own frame that follows the room's shared one), latency from
sending an action to the moment EVERY seat of the room has a live fragment with
``data-version >= N`` (N = the version in the action's ack), p50/p95/p99/max; errors (error
fragments, missing acks, dropped sockets), late deliveries (not within ``--timeout``), lost
updates (after the run, seats whose newest fragment is older than the room's committed
version), CPU (cores busy) and peak RSS of the server process, Postgres' CPU, and the load
generator's CPU.

``--saturate`` then raises the pace (doubling, then bisecting) for both servers until p99 > 50
ms, an error appears, or the generator falls behind the pace, and prints the app's capacity
as a fraction of the baseline's. ``--profile`` records the app server with py-spy during the
main run and prints where its time goes. The load generator runs in ``--clients`` separate
processes so it does not share the server's event loop (it still shares the machine's cores:
see the CPU columns).
"""

from __future__ import annotations

import argparse
import array
import asyncio
import gc
import json
import math
import multiprocessing as mp
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LIVE = re.compile(rb'<div id="live(?:-version)?"[^>]*?data-version="(\d+)"')
ACK = re.compile(rb'data-ack="([^"]*)" data-version="(\d+)" data-duplicate="(\w+)"')
ERROR = re.compile(rb'data-error="([a-z_]+)"(?: data-action-id="([^"]*)")?')
ROLLS = 25
ACK_TIMEOUT = 10.0
GOAL_P99_MS = 50.0
# high enough never to refuse, but the same shape as the defaults (a per-second and a
# per-minute window per socket), so the limiter costs what it costs in production
HIGH_LIMITS = {"WS_MESSAGE_RATE": "1000/second;60000/minute", "RATE_LIMIT_ROOMS": "10000000/minute",
               "RATE_LIMIT_JOINS": "10000000/minute", "RATE_LIMIT_MISSES": "10000000/minute"}


# ----- servers ------------------------------------------------------------------------------


def timeline(sent_at: list[float], latencies: list[float]) -> list[tuple[int, int, float, float]]:
    """Per second of the run (by send time): ``(second, actions, p99 ms, max ms)``."""
    if not sent_at:
        return []
    first = min(sent_at)
    buckets: dict[int, list[float]] = {}
    for t, lat in zip(sent_at, latencies, strict=True):
        buckets.setdefault(int(t - first), []).append(lat * 1000)
    return [(sec, len(v), percentile(v, 0.99), max(v)) for sec, v in sorted(buckets.items())]


def listening_socket() -> socket.socket:
    """A TCP socket listening on 127.0.0.1 on a port the kernel picked, to hand to a server
    process (``Server``, ``--fd``): the port is ours from the start, so no other process can
    take it before the server listens. ``Server.stop()`` closes it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(4096)
    sock.set_inheritable(True)
    return sock


def ensure_database(url: str) -> str:
    """Create the Postgres database of ``url`` when missing and migrate it to head."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text
    from sqlalchemy.engine import make_url

    from app.settings import normalise_database_url
    from app.store.db import make_engine

    url = normalise_database_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        admin = parsed.set(database="postgres").render_as_string(hide_password=False)

        async def create() -> None:
            engine = make_engine(admin)
            try:
                async with engine.connect() as conn:
                    conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                    exists = (await conn.execute(
                        text("SELECT 1 FROM pg_database WHERE datname = :n"),
                        {"n": parsed.database})).scalar()
                    if not exists:
                        await conn.execute(text(f'CREATE DATABASE "{parsed.database}"'))
            finally:
                await engine.dispose()

        asyncio.run(create())
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "head")
    if parsed.get_backend_name() == "postgresql":
        # fresh planner statistics: the bench database grows by thousands of rooms per run,
        # and with stale ones Postgres scans every stored event to load one room (43 ms
        # instead of 0.1 ms for its recent action ids: seen in a soak on 2026-12-01)
        async def analyze() -> None:
            engine = make_engine(url)
            try:
                async with engine.connect() as conn:
                    conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                    await conn.execute(text("ANALYZE"))
            finally:
                await engine.dispose()

        asyncio.run(analyze())
    return url


class Server:
    """A server process started here and stopped by its pid (SIGTERM, then SIGKILL), serving
    on ``sock`` (``listening_socket``, passed to the child; closed by ``stop()``)."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], sock: socket.socket,
                 ready: str, log: Path, cwd: Path = ROOT) -> None:
        self.name, self.argv, self.env, self.sock, self.ready = name, argv, env, sock, ready
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.log, self.cwd = log, cwd
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout: float = 30.0) -> Server:
        out = open(self.log, "ab")  # noqa: SIM115 - handed to the child
        self.proc = subprocess.Popen(self.argv, cwd=self.cwd, env=self.env, stdout=out,
                                     stderr=subprocess.STDOUT, pass_fds=(self.sock.fileno(),))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}; "
                                   f"see {self.log}")
            if self._ready():
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{self.name} did not start; see {self.log}")

    def _ready(self) -> bool:
        if self.ready.startswith("http"):
            try:
                return httpx.get(self.ready, timeout=1).status_code == 200
            except httpx.HTTPError:
                return False
        return self.ready in self.log.read_text(errors="replace")

    def stop(self) -> None:
        stop_process(self.proc)
        self.sock.close()


def stop_process(proc: subprocess.Popen | None) -> None:
    """Stop a server this script started, by its own pid: SIGTERM, then SIGKILL after 15 s."""
    if proc and proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)


def app_server(database_url: str, workdir: Path, sock: socket.socket,
               environment: str = "production",
               app_root: Path = ROOT, deflate: bool = False,
               extra_env: dict[str, str] | None = None, workers: int = 1) -> Server:
    """uvicorn serving the app as the Dockerfile does (production settings, one process);
    ``app_root``: another checkout of the app to serve (for before/after comparisons);
    ``extra_env``: more settings (e.g. ``ROOM_IDLE_SECONDS`` for the soak)."""
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench-" + "k" * 32,
           "VAR_DIR": str(workdir / "var"), "ENVIRONMENT": environment, **HIGH_LIMITS,
           **(extra_env or {})}
    argv = [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory",
            "--fd", str(sock.fileno()), "--log-level", "warning",
            "--backlog", "4096", "--ws-max-size", "65536",
            "--ws-per-message-deflate", "true" if deflate else "false"]
    if workers > 1:  # several processes share the port; they talk through Redis
        argv += ["--workers", str(workers)]
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    return Server("app", argv, env, sock, url + "/healthz", workdir / "app.log", app_root)


def baseline_server(workdir: Path, sock: socket.socket, payload: Path | None, size: int,
                    compression: bool) -> Server:
    """``bench/fanout_baseline.py`` serving on ``sock``."""
    argv = [sys.executable, str(ROOT / "bench" / "fanout_baseline.py"),
            "--fd", str(sock.fileno())]
    argv += ["--payload-file", str(payload)] if payload else ["--payload-bytes", str(size)]
    if not compression:
        argv.append("--no-compression")
    return Server("baseline", argv, dict(os.environ), sock, "baseline listening",
                  workdir / "baseline.log")


def floor_server(workdir: Path, sock: socket.socket, payload: Path | None, size: int,
                 database_url: str, deflate: bool) -> Server:
    """``bench/stack_floor.py`` (the fan-out on the app's stack, one INSERT per action unless
    ``database_url`` is empty) served by uvicorn on ``sock`` with the app's flags."""
    env = {**os.environ, "FLOOR_DATABASE_URL": database_url,
           **({"FLOOR_PAYLOAD_FILE": str(payload)} if payload
              else {"FLOOR_PAYLOAD_BYTES": str(size)})}
    argv = [sys.executable, "-m", "uvicorn", "bench.stack_floor:create_app", "--factory",
            "--fd", str(sock.fileno()), "--log-level", "warning",
            "--backlog", "4096", "--ws-max-size", "65536",
            "--ws-per-message-deflate", "true" if deflate else "false"]
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    return Server("floor", argv, env, sock, url + "/healthz", workdir / "floor.log")


# ----- the load generator (runs in worker processes) ----------------------------------------


@dataclass
class Track:
    """One action in flight: when it was sent, its acked version, which seats have it."""

    sent: float
    recorded: bool
    room: Room
    future: asyncio.Future
    version: int = 0
    remaining: int = 0
    last: float = 0.0


@dataclass
class StepStats:
    """What one worker saw during one measured window."""

    sent: int = 0
    acked: int = 0
    deliveries: int = 0
    delivery_bytes: int = 0
    latency_all: array.array = field(default_factory=lambda: array.array("d"))
    latency_sent: array.array = field(default_factory=lambda: array.array("d"))
    latency_each: array.array = field(default_factory=lambda: array.array("d"))
    errors: Counter = field(default_factory=Counter)
    late: int = 0
    chats: int = 0  # chat lines sent in the window (--chat-every)


class SeatClient:
    """One seat's socket: reads every fragment and resolves the actions waiting for it."""

    def __init__(self, room: Room, index: int, ws: Any) -> None:
        self.room, self.index, self.ws = room, index, ws
        self.seat_id = 0
        self.version = -1
        self.recent: deque[tuple[int, float]] = deque(maxlen=64)
        self.pending: list[Track] = []
        self.empty: list[tuple[int, int]] = []
        self.sample: bytes = b""
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        worker = self.room.worker
        try:
            while True:
                data = await self.ws.recv(decode=False)
                t = time.perf_counter()
                head = data[:400]
                # the version marker leads a live fragment, unless table cells go first
                # (a Kniffel score: htmx needs them first, app/web/part_sends.py table_cells)
                at = data.find(b'<div id="live')
                if at >= 0:
                    m = LIVE.search(data, at)
                    if m:
                        if worker.in_window(t):
                            worker.stats.deliveries += 1
                            worker.stats.delivery_bytes += len(data)
                            self.sample = data  # the latest: a typical update
                        self.update(int(m.group(1)), t)
                elif b"data-ack=" in head:
                    m = ACK.search(head)
                    if m:
                        self.room.on_ack(m.group(1).decode(), int(m.group(2)), t, self)
                elif b"data-error=" in head:
                    m = ERROR.search(head)
                    if m:
                        self.room.on_error(m.group(1).decode(),
                                           (m.group(2) or b"").decode())
                elif worker.in_window(t):  # the seat's own frame after the room's shared one
                    worker.stats.delivery_bytes += len(data)
                    self.sample += data
        except Exception as exc:  # closed by the server or by us
            if not worker.closing:
                worker.stats.errors[f"socket_closed:{type(exc).__name__}"] += 1

    def update(self, version: int, t: float) -> None:
        """A fragment of ``version`` arrived at ``t``: settle what waited for it."""
        if version > self.version:
            self.version = version
        self.recent.append((version, t))
        if self.pending:
            waiting = []
            for track in self.pending:
                if version >= track.version:
                    self.room.worker.seat_done(track, t)
                else:
                    waiting.append(track)
            self.pending = waiting

    def watch(self, track: Track) -> None:
        """Note when this seat has (or will have) ``track``'s version."""
        if self.version >= track.version:
            t = next((t for v, t in self.recent if v >= track.version), time.perf_counter())
            self.room.worker.seat_done(track, t)
        else:
            self.pending.append(track)


class Room:
    """One room's clients and a model of its Knister game (whose turn, which cells are free)."""

    def __init__(self, worker: Worker, name: str) -> None:
        self.worker, self.name = worker, name
        self.code = ""
        self.seats: list[SeatClient] = []
        self.order: list[SeatClient] = []
        self.inflight: dict[str, Track] = {}
        self.rolls = 0
        self.to_place: list[SeatClient] = []
        self.game_number = 1
        self.over = False
        self.final_version = 0
        self.lobby = False
        self.http: httpx.AsyncClient | None = None

    def reset_game(self, order_ids: list[int]) -> None:
        by_id = {s.seat_id: s for s in self.seats}
        self.order = [by_id[i] for i in order_ids]
        self.rolls, self.to_place, self.over, self.lobby = 0, [], False, False
        for seat in self.seats:
            seat.empty = [(r, c) for r in range(5) for c in range(5)]

    def next_action(self) -> tuple[SeatClient, dict[str, Any]]:
        if self.over:  # a match of one game: back to the lobby, then the next game
            return self.order[0], {"type": "start" if self.lobby else "rematch"}
        if not self.to_place:
            return self.order[self.rolls % len(self.order)], {"type": "roll"}
        seat = self.to_place[0]
        r, c = seat.empty[0]
        return seat, {"type": "place", "cell": f"{r},{c}"}

    def advance(self, message: dict[str, Any]) -> None:
        """The action ``message`` was acknowledged: move the model on."""
        kind = message["type"]
        if kind == "roll":
            self.rolls += 1
            self.to_place = list(self.order)
        elif kind == "place":
            seat = self.to_place.pop(0)
            seat.empty.pop(0)
            self.over = self.rolls >= ROLLS and not self.to_place
        elif kind == "rematch":
            self.lobby = True
        elif kind == "start":
            self.game_number += 1
            n = len(self.seats)
            start = (self.game_number - 1) % n
            ids = [s.seat_id for s in self.seats]
            self.reset_game(ids[start:] + ids[:start])

    def basis(self, message: dict[str, Any]) -> dict[str, int]:
        """What the page would send with ``message`` (``#live-version`` ``data-basis``): the
        room version for room actions, the game's own fields for game actions."""
        if message["type"] in ("start", "rematch"):
            return {"version": self.final_version}
        return {"roll": self.rolls}

    def load(self, cur: dict[str, Any]) -> None:
        """Set the game model from ``state.json``'s ``current`` (Knister)."""
        self.reset_game(cur["active"])
        self.rolls = len(cur["rolls"])
        for seat in self.seats:
            grid = cur["sheets"][str(seat.seat_id)]
            seat.empty = [(r, c) for r in range(5) for c in range(5) if grid[r][c] is None]
        if cur["roll_pending"]:
            self.to_place = [s for s in self.order if s.seat_id not in cur["placed"]]
        self.over = cur["over"]

    def on_ack(self, action_id: str, version: int, t: float, seat: SeatClient) -> None:
        track = self.inflight.pop(action_id, None)
        if track is None:
            return
        track.version = version
        self.final_version = max(self.final_version, version)
        if self.worker.ack_is_update:  # baseline: the sender gets an ack, the others the payload
            seat.update(version, t)
        track.remaining = len(self.seats)
        track.future.set_result(None)
        for s in self.seats:
            s.watch(track)

    def on_error(self, code: str, action_id: str) -> None:
        track = self.inflight.pop(action_id, None)
        if track is not None and not track.future.done():
            track.future.set_exception(RuntimeError(code))
        else:
            self.worker.stats.errors[f"error:{code}"] += 1


class KniffelRoom(Room):
    """One Kniffel room's clients and a model of its game: the player on turn rolls, holds
    die 0, rolls again and scores the first open box of the card (4 actions per turn)."""

    BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
             "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
             "chance")

    def reset_game(self, order_ids: list[int]) -> None:
        by_id = {s.seat_id: s for s in self.seats}
        self.order = [by_id[i] for i in order_ids]
        self.turn_no, self.rolls, self.held, self.current = 1, 0, False, 0
        self.over = self.lobby = False
        for seat in self.seats:
            seat.empty = list(self.BOXES)  # the open boxes

    def next_action(self) -> tuple[SeatClient, dict[str, Any]]:
        if self.over:
            return self.order[0], {"type": "start" if self.lobby else "rematch"}
        seat = self.order[self.current]
        if self.rolls == 0 or (self.rolls == 1 and self.held):
            return seat, {"type": "roll"}
        if self.rolls == 1:
            return seat, {"type": "hold", "die": 0, "held": True}
        return seat, {"type": "score", "box": seat.empty[0]}

    def advance(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "roll":
            self.rolls += 1
        elif kind == "hold":
            self.held = True
        elif kind == "score":
            self.order[self.current].empty.pop(0)
            self.turn_no, self.rolls, self.held = self.turn_no + 1, 0, False
            self.current = (self.current + 1) % len(self.order)
            self.over = not any(s.empty for s in self.order)
        else:
            super().advance(message)

    def basis(self, message: dict[str, Any]) -> dict[str, int]:
        if message["type"] in ("start", "rematch"):
            return {"version": self.final_version}
        return {"turn": self.turn_no, "rolls": self.rolls}

    def load(self, cur: dict[str, Any]) -> None:
        self.reset_game(cur["active"])
        self.turn_no, self.rolls, self.over = cur["turn_no"], cur["rolls"], cur["over"]
        self.held = any(cur["held"])
        by_id = {s.seat_id: i for i, s in enumerate(self.order)}
        self.current = by_id.get(cur["current"], 0)
        for seat in self.seats:
            boxes = cur["sheets"][str(seat.seat_id)][0]["boxes"]
            seat.empty = [b for b in self.BOXES if boxes.get(b) is None]


class Worker:
    """The rooms of one load-generator process."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.base = spec["url"]
        self.app = spec["target"] == "app"
        self.ack_is_update = not self.app
        self.rooms: list[Room] = []
        self.stats = StepStats()
        self.window = (math.inf, math.inf)
        self.closing = False
        self.transport = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=64))

    def in_window(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]

    def seat_done(self, track: Track, t: float) -> None:
        track.remaining -= 1
        track.last = max(track.last, t)
        if track.recorded:
            self.stats.latency_each.append(t - track.sent)
            if t - track.sent > self.spec["timeout"]:
                self.stats.late += 1
            if track.remaining == 0:
                self.stats.latency_all.append(track.last - track.sent)
                self.stats.latency_sent.append(track.sent)

    # --- setup ---

    async def _connect(self, path: str, cookie: str | None) -> Any:
        from websockets.asyncio.client import connect

        ws_url = self.base.replace("http://", "ws://") + path
        headers = {"Cookie": cookie} if cookie else None
        for attempt in range(5):
            try:
                return await connect(
                    ws_url, origin=self.base, additional_headers=headers, open_timeout=60,
                    ping_interval=None, close_timeout=2, max_size=2**23,
                    compression="deflate" if self.spec["compression"] else None)
            except (OSError, TimeoutError):
                if attempt == 4:
                    raise
                await asyncio.sleep(0.5 + attempt)
        raise AssertionError

    async def _guest(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.base, transport=self.transport, timeout=60)

    async def _state(self, http: httpx.AsyncClient, code: str) -> dict[str, Any]:
        r = await http.get(f"/r/{code}/state.json")
        r.raise_for_status()
        return r.json()

    async def setup_app_room(self, room: Room) -> None:
        seats = self.spec["seats"]
        guests = [await self._guest() for _ in range(seats)]
        r = await guests[0].post("/rooms", data={"game": self.spec["game"], "name": "S0"})
        assert r.status_code == 303, r.text[:200]
        room.code = r.headers["location"].rsplit("/", 1)[1]
        for i, g in enumerate(guests[1:], 1):
            r = await g.post(f"/r/{room.code}/join", data={"name": f"S{i}"})
            assert r.status_code == 303, r.text[:200]
        for i, g in enumerate(guests):
            cookie = "; ".join(f"{k}={v}" for k, v in g.cookies.items())
            ws = await self._connect(f"/r/{room.code}/ws", cookie)
            seat = SeatClient(room, i, ws)
            room.seats.append(seat)
            await ws.send(json.dumps({"type": "hello", "version": -1}))
        room.http = guests[0]
        room.final_version = (await self._state(room.http, room.code))["version"]
        await self.act_once(room, room.seats[0], {"type": "start"})
        await self.resync(room)

    async def setup_baseline_room(self, room: Room) -> None:
        room.code = room.name
        for i in range(self.spec["seats"]):
            ws = await self._connect(f"/r/{room.code}/ws", None)
            seat = SeatClient(room, i, ws)
            seat.seat_id = i + 1
            room.seats.append(seat)
        room.reset_game([s.seat_id for s in room.seats])

    async def resync(self, room: Room) -> None:
        """Rebuild the room's model from ``state.json`` (after setup or a refused action)."""
        state = await self._state(room.http, room.code)
        by_name = {s["name"]: s["id"] for s in state["seats"]}
        for seat in room.seats:
            seat.seat_id = by_name[f"S{seat.index}"]
        room.game_number = state["games"][-1]["number"]
        room.final_version = max(room.final_version, state["version"])
        room.load(state["current"])
        room.lobby = state["status"] == "lobby"

    async def setup(self) -> dict[str, Any]:
        sem = asyncio.Semaphore(self.spec["setup_concurrency"])
        failures = Counter()

        async def one(name: str) -> None:
            room = (KniffelRoom if self.spec["game"] == "kniffel" else Room)(self, name)
            async with sem:
                try:
                    if self.app:
                        await self.setup_app_room(room)
                    else:
                        await self.setup_baseline_room(room)
                except Exception as exc:
                    failures[f"setup:{type(exc).__name__}:{str(exc)[:80]}"] += 1
                    return
            self.rooms.append(room)

        await asyncio.gather(*(one(n) for n in self.spec["rooms"]))
        return {"rooms": len(self.rooms), "failures": dict(failures),
                "sample": self.typical_sample()}

    def typical_sample(self) -> str:
        """The median-sized of every seat's latest update in a window: what the server
        typically sends one seat (the baseline broadcasts this payload)."""
        samples = sorted((s.sample for r in self.rooms for s in r.seats if s.sample), key=len)
        return samples[len(samples) // 2].decode("utf-8", "replace") if samples else ""

    # --- playing ---

    async def act_once(self, room: Room, seat: SeatClient, message: dict[str, Any],
                       recorded: bool = False) -> None:
        """Send one action and wait for its ack; raises RuntimeError(code) when refused."""
        action_id = uuid.uuid4().hex[:20]
        loop = asyncio.get_running_loop()
        track = Track(time.perf_counter(), recorded, room, loop.create_future())
        room.inflight[action_id] = track
        basis = room.basis(message) if self.app else {}
        await seat.ws.send(json.dumps({**message, **basis, "action_id": action_id}))
        if recorded:
            self.stats.sent += 1
        try:
            await asyncio.wait_for(track.future, ACK_TIMEOUT)
        except TimeoutError:
            room.inflight.pop(action_id, None)
            raise RuntimeError("ack_timeout") from None
        if recorded:
            self.stats.acked += 1

    async def drive(self, room: Room, rate: float, start: float, end: float) -> None:
        interval = 1.0 / rate
        # each room's first action within the first interval, or (--spread N) within the
        # first N intervals, so the rooms' games are at different points (Knister: not all
        # rolling in the same second, every ninth second)
        due = start + random.random() * interval * max(1.0, self.spec.get("spread") or 0)
        while due < end:
            now = time.perf_counter()
            if due > now:
                await asyncio.sleep(due - now)
            seat, message = room.next_action()
            try:
                await self.act_once(room, seat, message, recorded=self.in_window(
                    time.perf_counter()))
                room.advance(message)
            except RuntimeError as exc:
                if self.in_window(time.perf_counter()):
                    self.stats.errors[str(exc)] += 1
                if self.app:
                    try:
                        await self.resync(room)
                    except Exception:
                        self.stats.errors["resync_failed"] += 1
                        await asyncio.sleep(1)
            except Exception as exc:
                self.stats.errors[f"send:{type(exc).__name__}"] += 1
                return
            due += interval
            now = time.perf_counter()
            if due < now - interval:  # fell more than one interval behind: do not burst
                due = now

    async def chat(self, room: Room, every: float, start: float, end: float) -> None:
        """One chat line per ``every`` seconds in ``room`` from a random seat (its ack is not
        waited for; a refusal counts as an error): talk beside the game (--chat-every)."""
        due = start + random.random() * every
        n = 0
        while due < end:
            now = time.perf_counter()
            if due > now:
                await asyncio.sleep(due - now)
            n += 1
            seat = random.choice(room.seats)
            try:
                await seat.ws.send(json.dumps({"type": "chat", "text": f"nice one {n}",
                                               "action_id": uuid.uuid4().hex[:20]}))
            except Exception as exc:
                self.stats.errors[f"chat:{type(exc).__name__}"] += 1
                return
            if self.in_window(time.perf_counter()):
                self.stats.chats += 1
            due += every

    async def step(self, rate: float, start: float, warmup: float, duration: float
                   ) -> dict[str, Any]:
        self.stats = StepStats()
        self.window = (start + warmup, start + warmup + duration)
        end = self.window[1]
        every = self.spec.get("chat_every") or 0
        chats = [self.chat(r, every, start, end) for r in self.rooms] \
            if self.app and every > 0 else []
        await asyncio.gather(*(self.drive(r, rate, start, end) for r in self.rooms), *chats)
        # drain: give the last updates up to --timeout to arrive
        drain_end = time.perf_counter() + self.spec["timeout"]
        while time.perf_counter() < drain_end and any(
                s.pending for r in self.rooms for s in r.seats):
            await asyncio.sleep(0.05)
        missing = sum(len(s.pending) for r in self.rooms for s in r.seats
                      if any(t.recorded for t in s.pending))
        for r in self.rooms:
            for s in r.seats:
                s.pending = []
        self.window = (math.inf, math.inf)
        st = self.stats
        return {"sample": self.typical_sample(),
                "sent": st.sent, "acked": st.acked, "deliveries": st.deliveries,
                "delivery_bytes": st.delivery_bytes, "latency_all": st.latency_all.tobytes(),
                "latency_sent": st.latency_sent.tobytes(),
                "latency_each": st.latency_each.tobytes(), "errors": dict(st.errors),
                "late": st.late + missing, "chats": st.chats}

    async def final_check(self) -> dict[str, Any]:
        """Seats that have not received the room's newest committed version ``--final-wait``
        seconds after the load stopped."""
        finals: dict[str, int] = {}
        for room in self.rooms:
            if self.app:
                try:
                    finals[room.name] = (await self._state(room.http, room.code))["version"]
                except Exception:
                    finals[room.name] = 1 << 30
            else:
                finals[room.name] = room.final_version
        deadline = time.perf_counter() + self.spec["final_wait"]
        while True:
            behind = [(room.code, seat.index, seat.version, finals[room.name])
                      for room in self.rooms for seat in room.seats
                      if seat.version < finals[room.name]]
            if not behind or time.perf_counter() > deadline:
                return {"lost": len(behind), "examples": behind[:5]}
            await asyncio.sleep(0.25)

    async def close(self) -> None:
        self.closing = True
        for room in self.rooms:
            for seat in room.seats:
                seat.reader.cancel()
                try:
                    await asyncio.wait_for(seat.ws.close(), 2)
                except Exception:
                    pass
        await self.transport.aclose()


def worker_main(spec: dict[str, Any], conn: Any) -> None:
    """Entry point of a load-generator process: obey commands from the pipe ``conn``."""
    try:
        import uvloop

        loop = uvloop.new_event_loop()
    except ImportError:
        loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    random.seed(os.getpid())
    worker = Worker(spec)

    async def serve() -> None:
        info = await worker.setup()
        # The generator holds 2,000 client sockets too: keep its own full garbage collections
        # (hundreds of ms over those objects) out of the latencies it measures.
        gc.set_threshold(20_000, 50, 50)
        gc.collect()
        gc.freeze()
        conn.send(("ready", info))
        while True:
            command = await loop.run_in_executor(None, conn.recv)
            if command[0] == "step":
                conn.send(("result", await worker.step(*command[1:])))
            elif command[0] == "final":
                conn.send(("final", await worker.final_check()))
            else:
                await worker.close()
                conn.send(("closed", None))
                return

    loop.run_until_complete(serve())
    loop.close()


# ----- orchestration ------------------------------------------------------------------------


class CpuMeter:
    """CPU seconds of the server, of Postgres and of the load generators; peak server RSS."""

    def __init__(self, server_pid: int | None, client_pids: list[int]) -> None:
        self.server = psutil.Process(server_pid) if server_pid else None
        # with uvicorn --workers the serving processes are the supervisor's children
        self.servers = ([self.server, *self.server.children(recursive=True)]
                        if self.server else [])
        self.clients = [psutil.Process(p) for p in client_pids]
        self.peak_rss = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @staticmethod
    def _cpu(procs: list[psutil.Process]) -> float:
        total = 0.0
        for p in procs:
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.Error:
                pass
        return total

    @staticmethod
    def _postgres() -> list[psutil.Process]:
        procs = []
        for p in psutil.process_iter(["name"]):
            if (p.info["name"] or "").startswith("postgres"):
                procs.append(p)
        return procs

    def start(self) -> None:
        self.t0 = time.perf_counter()
        self.pg = self._postgres()
        self.s0 = self._cpu(self.servers)
        self.pg0 = {p.pid: self._cpu([p]) for p in self.pg}
        self.c0 = self._cpu(self.clients)
        self.all0 = psutil.cpu_times()
        self.peak_rss = 0
        self._stop.clear()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            if self.server:
                try:
                    self.peak_rss = max(self.peak_rss, sum(
                        p.memory_info().rss for p in self.servers if p.is_running()))
                except psutil.Error:
                    pass

    def stop(self) -> dict[str, float]:
        self._stop.set()
        if self._thread:
            self._thread.join()
        wall = time.perf_counter() - self.t0
        pg = 0.0
        for p in self.pg:
            now = self._cpu([p])
            pg += max(0.0, now - self.pg0.get(p.pid, now))
        all1 = psutil.cpu_times()
        busy = sum(getattr(all1, f) - getattr(self.all0, f) for f in all1._fields
                   if f not in ("idle", "iowait", "guest", "guest_nice"))
        result = {
            "server_cpu": ((self._cpu(self.servers) - self.s0) / wall) if self.server else 0.0,
            "server_rss_mb": self.peak_rss / 2**20,
            "pg_cpu": pg / wall,
            "client_cpu": (self._cpu(self.clients) - self.c0) / wall,
        }
        result["other_cpu"] = max(0.0, busy / wall - sum(
            result[k] for k in ("server_cpu", "pg_cpu", "client_cpu")))
        return result


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


class Fleet:
    """The load-generator processes for one target, their rooms set up and connected."""

    def __init__(self, args: argparse.Namespace, target: str, url: str) -> None:
        self.args, self.target, self.url = args, target, url
        ctx = mp.get_context("spawn")
        names = [f"room{i:04d}" for i in range(args.rooms)]
        self.workers = []
        for k in range(args.clients):
            parent, child = ctx.Pipe()
            spec = {"target": target, "url": url, "rooms": names[k::args.clients],
                    "game": args.game,
                    "seats": args.seats, "timeout": args.timeout,
                    "final_wait": args.final_wait,
                    "compression": not args.no_compression,
                    "setup_concurrency": args.setup_concurrency,
                    "chat_every": args.chat_every, "spread": args.spread}
            proc = ctx.Process(target=worker_main, args=(spec, child), daemon=True)
            proc.start()
            self.workers.append((proc, parent))
        t = time.perf_counter()
        infos = [conn.recv()[1] for _, conn in self.workers]
        self.rooms = sum(i["rooms"] for i in infos)
        self.setup_failures = Counter()
        for info in infos:
            self.setup_failures.update(info["failures"])
        self.sample = max((i["sample"] for i in infos), key=len)  # refined by each step
        print(f"  {target}: {self.rooms} rooms x {args.seats} seats connected in "
              f"{time.perf_counter() - t:.1f} s"
              + (f"; setup failures: {dict(self.setup_failures)}" if self.setup_failures
                 else ""), flush=True)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p, _ in self.workers]

    def step(self, rate: float, warmup: float, duration: float, server_pid: int | None,
             profile: Path | None = None) -> dict[str, Any]:
        start = time.perf_counter() + 0.5
        for _, conn in self.workers:
            conn.send(("step", rate, start, warmup, duration))
        meter = CpuMeter(server_pid, self.pids)
        time.sleep(max(0.0, start + warmup - time.perf_counter()))
        spies = []
        if profile and server_pid:
            spy_bin = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
            for fmt, out in (("raw", profile), ("flamegraph", profile.with_suffix(".svg"))):
                spies.append(subprocess.Popen(
                    [spy_bin, "record", "--pid", str(server_pid), "--rate", "50",
                     "--duration", str(int(duration)), "--format", fmt, "--output", str(out),
                     "--nonblocking", *os.environ.get("PYSPY_EXTRA", "").split()],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        meter.start()
        time.sleep(max(0.0, start + warmup + duration - time.perf_counter()))
        cpu = meter.stop()
        results = [conn.recv()[1] for _, conn in self.workers]
        for spy in spies:
            spy.wait(60)
        samples = sorted((r["sample"] for r in results if r["sample"]), key=len)
        if samples:
            self.sample = samples[len(samples) // 2]
        lat_all: list[float] = []
        lat_each: list[float] = []
        sent_at: list[float] = []
        errors: Counter = Counter()
        for r in results:
            lat_all.extend(array.array("d", r["latency_all"]))
            sent_at.extend(array.array("d", r["latency_sent"]))
            lat_each.extend(array.array("d", r["latency_each"]))
            errors.update(r["errors"])
        ms = [x * 1000 for x in lat_all]
        return {
            "target": self.target, "rooms": self.rooms, "seats": self.args.seats,
            "rate": rate, "offered": rate * self.rooms,
            "actions_s": sum(r["acked"] for r in results) / duration,
            "sent": sum(r["sent"] for r in results),
            "chats_s": sum(r.get("chats", 0) for r in results) / duration,
            "deliveries_s": sum(r["deliveries"] for r in results) / duration,
            "kb": (sum(r["delivery_bytes"] for r in results)
                   / max(1, sum(r["deliveries"] for r in results)) / 1000),
            "p50": percentile(ms, 0.50), "p95": percentile(ms, 0.95),
            "p99": percentile(ms, 0.99), "max": max(ms) if ms else math.nan,
            "each_p99": percentile([x * 1000 for x in lat_each], 0.99),
            "errors": sum(errors.values()), "error_kinds": dict(errors),
            "late": sum(r["late"] for r in results), **cpu,
            "timeline": timeline(sent_at, lat_all),
        }

    def final(self) -> dict[str, Any]:
        for _, conn in self.workers:
            conn.send(("final",))
        results = [conn.recv()[1] for _, conn in self.workers]
        return {"lost": sum(r["lost"] for r in results),
                "examples": [e for r in results for e in r["examples"]][:5]}

    def close(self) -> None:
        for _, conn in self.workers:
            conn.send(("close",))
        for proc, conn in self.workers:
            try:
                if conn.poll(15):
                    conn.recv()
            except EOFError:
                pass
            proc.join(5)
            if proc.is_alive():
                proc.kill()


HEADER = (f"{'server':<9}{'rooms':>6}{'x':>2}{'pace/room':>10}{'actions/s':>10}"
          f"{'deliv/s':>9}{'KB/frag':>8}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'max ms':>8}"
          f"{'errors':>7}{'late':>7}{'lost':>6}{'srv CPU':>8}{'srv MB':>7}{'pg CPU':>7}"
          f"{'gen CPU':>8}{'other':>6}")


def row(r: dict[str, Any]) -> str:
    lost = r.get("lost", "")
    return (f"{r['target']:<9}{r['rooms']:>6}{r['seats']:>2}{r['rate']:>10.3g}"
            f"{r['actions_s']:>10.1f}{r['deliveries_s']:>9.0f}{r['kb']:>8.1f}{r['p50']:>8.1f}"
            f"{r['p95']:>8.1f}{r['p99']:>8.1f}{r['max']:>8.0f}{r['errors']:>7}{r['late']:>7}"
            f"{lost!s:>6}{r['server_cpu']:>8.2f}{r['server_rss_mb']:>7.0f}{r['pg_cpu']:>7.2f}"
            f"{r['client_cpu']:>8.2f}{r['other_cpu']:>6.2f}")


def sustained(r: dict[str, Any]) -> bool:
    """The step kept its pace (>= 90% of the offered actions) with no error and nothing late."""
    return not r["errors"] and not r["late"] and r["actions_s"] >= 0.9 * r["offered"]


def within_goal(r: dict[str, Any]) -> bool:
    """Sustained, and p99 within the goal (50 ms)."""
    return sustained(r) and r["p99"] <= GOAL_P99_MS


def verdict(r: dict[str, Any]) -> str:
    if within_goal(r):
        return "ok"
    if sustained(r):
        return "p99 > 50 ms"
    if r["errors"] or r["late"]:
        return "errors/late"
    return "fell behind the pace"


def saturate(fleet: Fleet, server_pid: int | None, start: float, args: argparse.Namespace
             ) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Find the highest total pace (actions/s) a server holds, twice: within the goal (p99 <=
    50 ms, no errors, pace kept) and merely sustained (no errors, nothing late, pace kept).

    Each search doubles from ``start`` while steps pass (or halves while they fail), then
    bisects ``--refine`` times; steps are shared between the two searches. A step lasts
    ``--step-seconds``, longer at low paces so that it holds ``--min-samples`` actions.
    Returns ``{"goal": actions/s, "sustained": actions/s}`` and every step's row."""
    results: dict[float, dict[str, Any]] = {}

    def run(total: float) -> dict[str, Any]:
        total = round(total, 3)
        if total not in results:
            seconds = min(60.0, max(args.step_seconds, args.min_samples / total))
            for attempt in range(1 + args.retries):
                r = fleet.step(total / fleet.rooms, args.step_warmup, seconds, server_pid)
                r["verdict"] = verdict(r) + (" (again)" if attempt else "")
                print(row(r) + f"  {r['verdict']}", flush=True)
                best = results.get(total)
                if best is None or (within_goal(r), sustained(r), -r["p99"]) > (
                        within_goal(best), sustained(best), -best["p99"]):
                    results[total] = r
                if within_goal(r):
                    break
        return results[total]

    def search(ok) -> float:
        lo = hi = None
        total = start
        if ok(run(total)):
            lo = total
            while total * 2 <= args.max_rate:
                total *= 2
                if not ok(run(total)):
                    hi = total
                    break
                lo = total
        else:
            hi = total
            while total / 2 >= args.min_rate:
                total /= 2
                if ok(run(total)):
                    lo = total
                    break
                hi = total
        if lo is not None and hi is not None:
            for _ in range(args.refine):
                mid = math.sqrt(lo * hi)
                if ok(run(mid)):
                    lo = mid
                else:
                    hi = mid
        return max((r["actions_s"] for r in results.values() if ok(r)), default=0.0)

    capacity = {"sustained": search(sustained)}
    capacity["goal"] = search(within_goal)
    return capacity, [results[k] for k in sorted(results)]


def profile_summary(raw: Path, top: int = 18) -> list[str]:
    """Self time and inclusive time of the hottest functions in a py-spy raw profile."""
    own: Counter = Counter()
    incl: Counter = Counter()
    total = 0
    for line in raw.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")]
        frames = [f.replace(str(ROOT) + "/", "").replace(
            str(Path(sys.prefix)) + "/lib/python3.11/site-packages/", "") for f in frames]
        own[frames[-1]] += n
        for f in set(frames):
            incl[f] += n
    lines = [f"  {total} samples; top self time:"]
    for f, n in own.most_common(top):
        lines.append(f"   {100 * n / total:5.1f}%  {f}")
    lines.append("  top inclusive time (app/ and templates/ frames):")
    mine = [(f, n) for f, n in incl.most_common() if "app/" in f or "templates/" in f]
    for f, n in mine[:top]:
        lines.append(f"   {100 * n / total:5.1f}%  {f}")
    return lines


def run_target(args: argparse.Namespace, target: str, url: str, server: Server | None,
               workdir: Path) -> tuple[dict[str, Any] | None, Fleet | None,
                                      dict[str, float], list[dict[str, Any]], str]:
    fleet = Fleet(args, target, url)
    pid = server.pid if server else args.server_pid
    main = None
    if not args.saturate_only:
        profile = workdir / "profile.raw" if args.profile is not None and target == "app" else None
        main = fleet.step(args.rate, args.warmup, args.duration, pid, profile)
        main.update(fleet.final())
        main["setup_failures"] = sum(fleet.setup_failures.values())
        main["errors"] += main["setup_failures"]
        print(row(main), flush=True)
        if main.get("chats_s"):
            print(f"  chat lines: {main['chats_s']:.1f}/s beside the moves")
        if main["error_kinds"] or main["setup_failures"]:
            print(f"  errors: {main['error_kinds']} setup: {dict(fleet.setup_failures)}")
        if args.timeline:
            print("  second  actions  p99 ms  max ms")
            for sec, n, p99, worst in main["timeline"]:
                print(f"  {sec:6d} {n:8d} {p99:7.1f} {worst:7.1f}")
        if main["examples"]:
            print(f"  lost examples (room, seat, has, committed): {main['examples']}")
        if profile and profile.exists():
            print("  py-spy profile of the app server during the run:")
            for line in profile_summary(profile):
                print(line)
            svg = Path(args.profile) if args.profile else profile.with_suffix(".svg")
            if profile.with_suffix(".svg").exists() and svg != profile.with_suffix(".svg"):
                shutil.copy(profile.with_suffix(".svg"), svg)
            print(f"  flame graph: {svg}; raw stacks: {profile}")
    capacity: dict[str, float] = {}
    steps: list[dict[str, Any]] = []
    if args.saturate:
        start = args.saturate_from if target == "app" else max(
            args.saturate_from, (args._app_capacity or {}).get("sustained", 0.0))
        print(f"  saturating {target} from {start:g} actions/s", flush=True)
        capacity, steps = saturate(fleet, pid, start, args)
    sample = fleet.sample
    fleet.close()
    return main, fleet, capacity, steps, sample


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--game", choices=("knister", "kniffel"), default="knister",
                   help="the room game played (Kniffel: roll, hold, roll, score per turn)")
    p.add_argument("--rooms", type=int, default=250)
    p.add_argument("--seats", type=int, default=8)
    p.add_argument("--rate", type=float, default=1.0, help="actions per room per second")
    p.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    p.add_argument("--spread", type=float, default=0.0, metavar="N",
                   help="start each room within the first N action intervals (not in the "
                        "first one only), so the rooms' games are out of step; the warm-up "
                        "is then at least N intervals")
    p.add_argument("--timeout", type=float, default=5.0,
                   help="an update not received within this many seconds counts as late")
    p.add_argument("--final-wait", type=float, default=15.0,
                   help="after the run, seats still behind the final version this long are lost")
    p.add_argument("--url", help="use this running app server instead of starting one")
    p.add_argument("--server-pid", type=int, help="pid of the --url server (for CPU/RSS)")
    p.add_argument("--database-url",
                   default="postgresql://postgres@127.0.0.1:5432/knobel_bench")
    p.add_argument("--app-environment", default="production",
                   choices=("production", "development", "test"),
                   help="ENVIRONMENT of the app server (non-production logs show tracebacks)")
    p.add_argument("--app-root", default=str(ROOT),
                   help="serve the app from this checkout (e.g. an unchanged copy, to compare)")
    p.add_argument("--clients", type=int, default=1, help="load-generator processes")
    p.add_argument("--workers", type=int, default=1,
                   help="app processes (uvicorn --workers; more than one talk through Redis)")
    p.add_argument("--broadcast-url", default="redis://127.0.0.1:6379/5",
                   help="BROADCAST_URL of the app with --workers > 1")
    p.add_argument("--setup-concurrency", type=int, default=8, help="rooms set up at once")
    p.add_argument("--server-deflate", action="store_true",
                   help="both servers accept per-message deflate (the app, as it is deployed, "
                        "declines it: see bench/README.md)")
    p.add_argument("--no-compression", action="store_true",
                   help="clients do not offer per-message deflate (browsers do)")
    p.add_argument("--only", choices=("app", "baseline"), help="run one server only")
    p.add_argument("--payload-bytes", type=int, default=48_000,
                   help="the baseline's payload size when the app did not run (--only "
                        "baseline): the app's typical fragment otherwise")
    p.add_argument("--floor", choices=("none", "db", "db-only"), default="none",
                   help="also run bench/stack_floor.py after the baseline: the bare fan-out "
                        "on the app's stack (FastAPI, uvicorn, the app's direct socket "
                        "writes) with one Postgres INSERT per action (db), or both with and "
                        "without the INSERT (db-only: only with it); prints "
                        "floor_cpu_per_action_ratio")
    p.add_argument("--chat-every", type=float, default=0.0, metavar="SECONDS",
                   help="also send one chat line per room every SECONDS (app only; 0: none)")
    p.add_argument("--saturate", action="store_true", help="also find both capacities")
    p.add_argument("--saturate-only", action="store_true",
                   help="skip the fixed-pace run (implies --saturate)")
    p.add_argument("--saturate-from", type=float, default=4.0,
                   help="first saturation step, total actions/s")
    p.add_argument("--max-rate", type=float, default=20000.0,
                   help="highest total actions/s tried")
    p.add_argument("--step-seconds", type=float, default=12.0)
    p.add_argument("--step-warmup", type=float, default=3.0)
    p.add_argument("--refine", type=int, default=2, help="bisection steps after doubling")
    p.add_argument("--retries", type=int, default=1,
                   help="run a failing saturation step again (noise) and keep the better one")
    p.add_argument("--min-samples", type=int, default=100,
                   help="a saturation step lasts long enough for this many actions (<= 60 s)")
    p.add_argument("--min-rate", type=float, default=1.0,
                   help="lowest total actions/s tried when the first step fails")
    p.add_argument("--timeline", action="store_true",
                   help="print each second's actions, p99 and max latency of the main run")
    p.add_argument("--profile", nargs="?", const="", default=None, metavar="SVG",
                   help="py-spy the app server during the fixed-pace run; the flame graph "
                        "goes to SVG (default: the run's log folder)")
    args = p.parse_args(argv)
    if args.saturate_only:
        args.saturate = True
    if args.spread:  # every room has started before the measured window
        args.warmup = max(args.warmup, args.spread / args.rate + 1.0)
    args._app_capacity = None
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="knobel-load-"))
    print(f"rooms_load ({args.game}): {args.rooms} rooms x {args.seats} seats, "
          f"{args.rate:g} action/room/s, "
          f"{args.duration:g} s measured after {args.warmup:g} s; {args.clients} load-generator "
          f"process(es); {os.cpu_count()} cores shared by server, Postgres and load generator; "
          f"logs in {workdir}", flush=True)
    rows: list[dict[str, Any]] = []
    capacities: dict[str, dict[str, float]] = {}
    sat_rows: list[dict[str, Any]] = []
    sample = ""
    if args.only != "baseline":
        server = None
        url = args.url
        if not url:
            db = ensure_database(args.database_url)
            extra = {"BROADCAST_URL": args.broadcast_url} if args.workers > 1 else None
            server = app_server(db, workdir, listening_socket(), args.app_environment,
                                Path(args.app_root).resolve(), args.server_deflate,
                                extra, args.workers).start()
            url = server.url
            print(f"  app: uvicorn pid {server.pid} at {url} on {db.split('@')[-1]}", flush=True)
        try:
            main_row, _, cap, steps, sample = run_target(args, "app", url, server, workdir)
        finally:
            if server:
                server.stop()
        if main_row:
            rows.append(main_row)
        capacities["app"] = cap
        args._app_capacity = cap
        sat_rows += steps
    if args.only != "app":
        payload = None
        if sample:
            payload = workdir / "live_fragment.html"
            payload.write_text(sample, encoding="utf-8")
        base = baseline_server(workdir, listening_socket(), payload, args.payload_bytes,
                               args.server_deflate and not args.no_compression).start()
        print(f"  baseline: pid {base.pid}, payload "
              f"{len(sample.encode()) if sample else args.payload_bytes} bytes", flush=True)
        try:
            main_row, _, cap, steps, _ = run_target(args, "baseline", base.url, base, workdir)
        finally:
            base.stop()
        if main_row:
            rows.append(main_row)
        capacities["baseline"] = cap
        sat_rows += steps
        floors = {"db": ["floor", "floor-db"], "db-only": ["floor-db"]}.get(args.floor, [])
        for name in floors:
            db_url = ensure_database(args.database_url) if name == "floor-db" else ""
            floor = floor_server(workdir, listening_socket(), payload, args.payload_bytes, db_url,
                                 args.server_deflate and not args.no_compression).start()
            print(f"  {name}: uvicorn pid {floor.pid}", flush=True)
            try:
                main_row, _, cap, steps, _ = run_target(args, name, floor.url, floor, workdir)
            finally:
                floor.stop()
            if main_row:
                rows.append(main_row)
            capacities[name] = cap
            sat_rows += steps

    print()
    if rows:
        print(f"== {args.game}: {args.rooms} rooms x {args.seats} seats at {args.rate:g} "
              f"action/room/s "
              f"({args.duration:g} s) ==")
        print(HEADER)
        for r in rows:
            print(row(r))
    print("(latency: action sent -> every seat of the room has a live fragment with its "
          "version; late: not within --timeout; lost: seats left behind the final version; "
          "CPU in cores busy (pg: every Postgres process, other: the rest of the machine); "
          "app deliveries = every seat, baseline = the other seats + ack)")
    app_row = next((r for r in rows if r["target"] == "app"), None)
    if app_row:
        met = (app_row["p99"] <= GOAL_P99_MS and app_row["lost"] == 0 and app_row["late"] == 0
               and app_row["errors"] == 0
               and app_row["actions_s"] >= 0.95 * args.rate * args.rooms)
        print(f"goal {args.game} {args.rooms}x{args.seats} @ {args.rate:g}/s, "
              f"p99 <= {GOAL_P99_MS:g} ms, "
              f"nothing lost: {'MET' if met else 'NOT MET'} (p99 {app_row['p99']:.1f} ms, "
              f"{app_row['actions_s']:.1f} of {args.rate * args.rooms:g} actions/s, "
              f"lost {app_row['lost']}, late {app_row['late']}, errors {app_row['errors']})")
    base_row = next((r for r in rows if r["target"] == "baseline"), None)
    if app_row and base_row and app_row["actions_s"] and base_row["actions_s"] \
            and base_row["server_cpu"]:
        # the hub's cost on any machine: CPU seconds per action, app over the bare broadcast
        # measured in the same run (issue 28: goal <= 3)
        app_ms = 1000 * app_row["server_cpu"] / app_row["actions_s"]
        base_ms = 1000 * base_row["server_cpu"] / base_row["actions_s"]
        print(f"cpu_per_action_ratio={app_ms / base_ms:.2f} ({args.game}: app {app_ms:.2f} ms "
              f"of CPU per action, baseline {base_ms:.2f} ms; goal <= 3)")
    for floor_row in (r for r in rows if r["target"].startswith("floor")):
        if base_row and floor_row["actions_s"] and base_row["actions_s"]:
            floor_ms = 1000 * floor_row["server_cpu"] / floor_row["actions_s"]
            base_ms = 1000 * base_row["server_cpu"] / base_row["actions_s"]
            print(f"floor_cpu_per_action_ratio={floor_ms / base_ms:.2f} ({floor_row['target']}: "
                  f"{floor_ms:.2f} ms of CPU per action on the app's stack, baseline "
                  f"{base_ms:.2f} ms)")
    if sat_rows:
        print()
        print("== saturation (doubling, then bisecting; verdict: ok = p99 <= 50 ms, no errors, "
              "nothing late, >= 90% of the offered pace) ==")
        print(HEADER + "  verdict")
        for r in sat_rows:
            print(row(r) + f"  {r['verdict']}")
        app, base = capacities.get("app", {}), capacities.get("baseline", {})
        for name, cap in (("app", app), ("baseline", base)):
            if cap:
                print(f"capacity {name}: {cap['goal']:.1f} actions/s within p99 <= 50 ms; "
                      f"{cap['sustained']:.1f} actions/s sustained (any latency)")
        if app and base:
            for kind, label in (("goal", "within p99 <= 50 ms"), ("sustained", "sustained")):
                ratio = app[kind] / base[kind] if base[kind] else math.nan
                print(f"app / baseline, {label}: {100 * ratio:.1f}% (goal >= 33%: "
                      f"{'MET' if ratio >= 0.33 else 'NOT MET'})")
                if kind == "goal":
                    print(f"capacity_ratio={ratio:.3f} ({args.game}: actions/s within p99 <= "
                          f"50 ms, app over baseline; goal >= 0.33)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
