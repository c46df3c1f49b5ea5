"""Scale of turn-based rooms (issue 27): "Your games" and the due-deadline scan on Postgres with
10,000 players of 50 turn-based games each.

``python bench/turns_scale.py`` creates the database ``knobel_bench_turns`` beside
``--database-url``'s (migrated with Alembic) and, when it holds no players yet (or with
``--reload``), bulk-loads it with COPY: ``--players`` players, each seated in ``--games``
rooms of two seats (10,000 x 50 = 500,000 seats in 250,000 rooms, one running game each).
Two thirds of the rooms wait for one of their two seats (so about a third of each player's
games are "your turn"; the seat waited for is the game's first, so the game waits for it too),
deadlines spread over the next 3 days and ``--due`` of them already past; the other third
waits for nobody. Before the scan, deadlines are moved into the past until 3,000 rooms are
due (an earlier run's server played those it found). The database is KEPT for the next run
(loading takes a minute or two); drop it with ``dropdb knobel_bench_turns`` or ``--reload``.

Then it measures, and prints:

- a fixed CPU micro-benchmark (the machine's speed reference, so numbers compare across
  machines: ``bench/rooms_load.py`` has none) and the load average before and after;
- (a) ``GET /games`` for random players through a real uvicorn server (production settings,
  one process, started here and stopped by its pid at the end), with httpx and each player's
  signed session cookie, once the server's deadline scheduler has taken the backlog it
  found (the overdue rooms and due pushes; how long that took is printed: the pages are
  measured in the steady state, not while one process plays 3,000 overdue rooms):
  p50/p95/p99 over ``--requests`` sequential requests after a warm-up;
  goal p99 <= 20 ms. The same for ``GET /name`` (a page with the header's count, kept 5 s per
  player by the server: mostly one query per page) as a comparison;
- the two queries behind it in-process (``app.rooms.your_games``), without HTTP;
- (b) the due-deadline scan, ``SELECT id, code FROM rooms WHERE turn_due_at <= now() ORDER BY
  turn_due_at LIMIT 1000 FOR UPDATE SKIP LOCKED`` in a transaction (rolled back, so every round
  finds the same rooms): ms per 1,000 due rooms; goal <= 10 ms. It is the SELECT of
  ``app.rooms.deadlines.take_due``, which then moves the taken rooms' column a minute on (a
  lease; not measured here, so every round finds the same rooms).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rooms_load import HIGH_LIMITS, ensure_database, stop_process  # noqa: E402
from tests.support.http import session_cookie  # noqa: E402

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/knobel_bench_turns"
KINDS = ("kniffel", "knister", "yatzy", "kitkniff")
SCAN = ("SELECT id, code FROM rooms WHERE turn_due_at <= now() "
                    "ORDER BY turn_due_at LIMIT 1000 FOR UPDATE SKIP LOCKED")


def player_id(i: int) -> str:
    return f"{i:032x}"


def device_id(i: int) -> str:
    return f"{i + (1 << 100):032x}"


def speed_reference() -> dict[str, float]:
    """A fixed CPU micro-benchmark, best of 3: ms for 2,000,000 rounds of a pure-Python loop
    and for SHA-256 over 64 MB."""
    def loop() -> int:
        total = 0
        for i in range(2_000_000):
            total += i * i % 7
        return total

    def sha() -> str:
        block = b"k" * (1 << 20)
        h = hashlib.sha256()
        for _ in range(64):
            h.update(block)
        return h.hexdigest()

    out = {}
    for name, work in (("python loop 2M", loop), ("sha256 64 MB", sha)):
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            work()
            best = min(best, time.perf_counter() - t)
        out[name] = best * 1000
    return out


def percentiles(samples: list[float]) -> str:
    s = sorted(samples)

    def at(q: float) -> float:
        return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]

    return (f"n={len(s):5d}  p50 {at(.5):7.2f} ms  p95 {at(.95):7.2f} ms  "
            f"p99 {at(.99):7.2f} ms  max {s[-1]:7.2f} ms  mean {statistics.fmean(s):7.2f} ms")


# ----- the data --------------------------------------------------------------------------------


def rows(players: int, games: int, due: int, now: datetime, seed: int = 27):
    """The players, rooms, seats and games to COPY (see the module's docstring)."""
    rnd = random.Random(seed)
    assert games % 2 == 0 and players > games
    room_count = players * games // 2
    options = json.dumps({"pace": "turns", "turn_deadline_hours": 24})
    player_rows = [(player_id(i), f"Player {i}", 5, now - timedelta(days=30))
                   for i in range(players)]
    device_rows = [(device_id(i), player_id(i), "Firefox", now, now) for i in range(players)]
    past = set(rnd.sample(range(room_count), due))
    room_rows, seat_rows, game_rows = [], [], []
    for r in range(room_count):
        block = r // players
        a = r % players
        b = (a + 1 + block * 37) % players  # each player once per block as the second seat
        room_id, seat_a, seat_b = r + 1, 2 * r + 1, 2 * r + 2
        created = now - timedelta(days=rnd.uniform(1, 14))
        started = created + timedelta(minutes=rnd.uniform(1, 60))
        pick = rnd.random()
        waits: dict[str, dict] = {}
        deadline = None
        if pick < 2 / 3:
            seat = seat_a if pick < 1 / 3 else seat_b
            deadline = (now - timedelta(minutes=rnd.uniform(1, 120)) if r in past
                        else now + timedelta(hours=rnd.uniform(0.05, 72)))
            waits[str(seat)] = {"since": (deadline - timedelta(hours=24)).isoformat(),
                                "due": deadline.isoformat(), "reminded": False}
        kind = KINDS[r % len(KINDS)]
        # "turn": the game's first turn as the room stores it (the plug-in's turn_key: Kniffel's
        # turn number starts at 1, Knister's count of rolls at 0)
        turns = {"waits": waits, "missed": {str(seat_a): 0, str(seat_b): rnd.choice((0, 0, 1))},
                 "turn": 0 if kind == "knister" else 1}
        code = f"T{r:07d}"
        room_rows.append((room_id, code, kind, options, player_id(a), "playing", 10, created,
                          json.dumps(turns), deadline,
                          deadline - timedelta(hours=2) if deadline else None))
        seat_rows.append((seat_a, room_id, player_id(a), 0, f"Player {a}", "active", True, created))
        seat_rows.append((seat_b, room_id, player_id(b), 1, f"Player {b}", "active", True, created))
        # the seat waited for plays first, so the game (no moves yet) waits for it too
        order = [seat_b, seat_a] if str(seat_b) in waits else [seat_a, seat_b]
        game_rows.append((room_id, room_id, 1, kind, "{}", json.dumps(order),
                          "playing", started))
    return player_rows, device_rows, room_rows, seat_rows, game_rows


async def load(url: str, players: int, games: int, due: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        have = await conn.fetchval("SELECT count(*) FROM players")
        if have:
            print(f"  database holds {have} players already: kept (--reload to load again)")
            return
        t = time.perf_counter()
        now = datetime.now(UTC)
        player_rows, device_rows, room_rows, seat_rows, game_rows = rows(players, games, due, now)
        print(f"  generated {len(room_rows)} rooms, {len(seat_rows)} seats in "
              f"{time.perf_counter() - t:.1f} s", flush=True)
        t = time.perf_counter()
        async with conn.transaction():
            await conn.copy_records_to_table(
                "players", records=player_rows,
                columns=["id", "name", "knikkers_variant", "created_at"])
            await conn.copy_records_to_table(
                "devices", records=device_rows,
                columns=["id", "player_id", "label", "created_at", "last_seen_at"])
            await conn.copy_records_to_table(
                "rooms", records=room_rows,
                columns=["id", "code", "game", "options", "host_player_id", "status", "version",
                         "created_at", "turns", "turn_due_at", "remind_at"])
            await conn.copy_records_to_table(
                "seats", records=seat_rows,
                columns=["id", "room_id", "player_id", "position", "name", "status", "ready",
                         "joined_at"])
            await conn.copy_records_to_table(
                "games", records=game_rows,
                columns=["id", "room_id", "number", "kind", "options", "seat_ids", "status",
                         "started_at"])
            for table in ("rooms", "seats", "games"):
                await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                   f"(SELECT max(id) FROM {table}))")
        print(f"  COPY took {time.perf_counter() - t:.1f} s", flush=True)
        t = time.perf_counter()
        await conn.execute("ANALYZE")
        print(f"  ANALYZE took {time.perf_counter() - t:.1f} s", flush=True)
    finally:
        await conn.close()


async def reset(url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute("TRUNCATE players, devices, rooms, seats, games CASCADE")
    finally:
        await conn.close()


class AppServer:
    """uvicorn serving the app with production settings (one process) on a port of its own,
    stopped by its pid. Not on a socket handed over with ``--fd`` as ``bench/rooms_load.py``
    does: uvicorn takes such a socket for a Unix one (``socket.fromfd(fd, AF_UNIX, ...)``), so
    asyncio never sets TCP_NODELAY on its connections and every response on a kept-alive
    connection waits ~40 ms for the client's delayed ACK (GET /healthz: 48 ms instead of 1)."""

    SECRET = "bench-" + "k" * 32

    def __init__(self, database_url: str, workdir: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": self.SECRET,
                    "VAR_DIR": str(workdir / "var"), "ENVIRONMENT": "production", **HIGH_LIMITS}
        self.log = workdir / "app.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> AppServer:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory",
                 "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}: {self.log}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start: {self.log}")

    def stop(self) -> None:
        stop_process(self.proc)


# ----- measurements ---------------------------------------------------------------------------


def measure_page(base: str, secret: str, path: str, players: int, requests: int,
                 warmup: int, seed: int) -> list[float]:
    rnd = random.Random(seed)
    samples: list[float] = []
    with httpx.Client(base_url=base, timeout=10) as client:
        for n in range(warmup + requests):
            i = rnd.randrange(players)
            cookie = session_cookie(secret, player_id(i), device_id(i))
            t = time.perf_counter()
            response = client.get(path, cookies={"knobel_session": cookie})
            elapsed = (time.perf_counter() - t) * 1000
            if response.status_code != 200:
                raise RuntimeError(f"{path} answered {response.status_code}")
            if n == 0 and path == "/games":
                rows = response.text.count("data-game-row ")
                print(f"  first page: {rows} rows, {len(response.content)} bytes")
                assert rows == 50, rows
            if n >= warmup:
                samples.append(elapsed)
    return samples


async def measure_queries(url: str, players: int, rounds: int) -> None:
    from app.rooms.your_games import your_games, your_turn_count
    from app.store.db import Database

    db = Database(url)
    rnd = random.Random(7)
    lists, counts = [], []
    try:
        for n in range(rounds + 50):
            pid = player_id(rnd.randrange(players))
            async with db.sessionmaker() as session:
                t = time.perf_counter()
                await your_games(session, pid, datetime.now(UTC))
                a = (time.perf_counter() - t) * 1000
                t = time.perf_counter()
                await your_turn_count(session, pid)
                b = (time.perf_counter() - t) * 1000
            if n >= 50:
                lists.append(a)
                counts.append(b)
    finally:
        await db.dispose()
    print(f"  your_games() (2 queries)       {percentiles(lists)}")
    print(f"  your_turn_count() (1 query)    {percentiles(counts)}")


async def measure_scan(url: str, rounds: int) -> None:
    from sqlalchemy import text

    from app.store.db import make_engine

    engine = make_engine(url)
    samples, raw, found = [], [], 0
    try:
        async with engine.connect() as conn:
            plan = (await conn.execute(text("EXPLAIN " + SCAN))).scalars().all()
            print("  plan: " + " / ".join(line.strip() for line in plan[:4]))
            await conn.rollback()
            for n in range(rounds + 5):
                t = time.perf_counter()
                async with conn.begin() as tx:
                    got = (await conn.execute(text(SCAN))).all()
                    elapsed = (time.perf_counter() - t) * 1000
                    await tx.rollback()
                if n >= 5:
                    raw.append(elapsed)
                    samples.append(elapsed * 1000 / max(1, len(got)))
                    found = len(got)
    finally:
        await engine.dispose()
    print(f"  rows per scan: {found}")
    print(f"  due scan, ms per scan          {percentiles(raw)}")
    print(f"  due scan, ms per 1,000 rooms   {percentiles(samples)}")


DUE_COUNT = ("SELECT count(*) FILTER (WHERE turn_due_at <= now()), "
             "count(*) FILTER (WHERE remind_at <= now()) FROM rooms")


async def make_due(url: str, due: int) -> None:
    """Before the scan: when fewer than ``due`` rooms are past their deadline (an earlier
    run's server settled them), move the deadlines of that many waiting rooms 1-120 minutes
    into the past, so every run scans the same number of due rooms."""
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        have = await conn.fetchval("SELECT count(*) FROM rooms WHERE turn_due_at <= now()")
        if have < due:
            await conn.execute(
                "UPDATE rooms SET turn_due_at = now() - make_interval(mins => 1 + id % 120) "
                "WHERE id IN (SELECT id FROM rooms WHERE turn_due_at > now() "
                "ORDER BY md5(id::text) LIMIT $1)", due - have)
            await conn.execute("ANALYZE rooms")
        print(f"  rooms past their deadline: {max(have, due)} ({have} before this run)")
    finally:
        await conn.close()


async def drain(url: str, timeout: float = 900.0) -> None:
    """Wait until the server's deadline scheduler has taken every room that was due when it
    started (missed turns played, pushes considered): the pages are measured in the steady
    state, not while the process plays a backlog of thousands of overdue rooms. Prints how
    long that took and the rate."""
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        t = time.perf_counter()
        first = await conn.fetchrow(DUE_COUNT)
        while True:
            row = await conn.fetchrow(DUE_COUNT)
            if row[0] + row[1] == 0 or time.perf_counter() - t > timeout:
                break
            await asyncio.sleep(0.5)
        took = time.perf_counter() - t
        await asyncio.sleep(2.0)  # the last round's rooms are being handled
        done = first[0] + first[1] - row[0] - row[1]
        print(f"  backlog at start: {first[0]} overdue rooms, {first[1]} pushes to consider; "
              f"taken in {took:.1f} s ({done / max(took, 1e-9):.0f} rooms/s); "
              f"left: {row[0] + row[1]}")
    finally:
        await conn.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=50, help="games per player (even)")
    parser.add_argument("--due", type=int, default=4_500,
                        help="rooms drawn to be past due (two thirds of them wait for a seat)")
    parser.add_argument("--requests", type=int, default=2_000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--scans", type=int, default=200)
    parser.add_argument("--reload", action="store_true", help="empty and load the data again")
    args = parser.parse_args(argv)

    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("speed reference (best of 3): " + ", ".join(
        f"{k} {v:.1f} ms" for k, v in speed_reference().items()))
    url = ensure_database(args.database_url)
    if args.reload:
        asyncio.run(reset(url))
    t = time.perf_counter()
    asyncio.run(load(url, args.players, args.games, args.due))
    print(f"data ready in {time.perf_counter() - t:.1f} s "
          f"(kept in {url.rsplit('/', 1)[-1]} for the next run)")

    print("in-process queries (app.rooms.your_games):")
    asyncio.run(measure_queries(url, args.players, 1_000))

    print("(b) the due-deadline scan:")
    asyncio.run(make_due(url, 3_000))
    asyncio.run(measure_scan(url, args.scans))

    workdir = Path(tempfile.mkdtemp(prefix="turns-scale-"))
    server = AppServer(url, workdir).start()
    try:
        assert server.proc is not None
        print(f"(a) uvicorn pid {server.proc.pid} at {server.url}:")
        asyncio.run(drain(url))
        secret = server.SECRET
        games = measure_page(server.url, secret, "/games", args.players, args.requests,
                             args.warmup, 1)
        print(f"  GET /games                     {percentiles(games)}")
        name = measure_page(server.url, secret, "/name", args.players, args.requests,
                            args.warmup, 2)
        print(f"  GET /name (header count)       {percentiles(name)}")
    finally:
        server.stop()
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
