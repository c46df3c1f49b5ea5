"""Soak benchmark: does the server give memory back when rooms go idle?

``python bench/soak.py`` starts the app (uvicorn, production settings, Postgres as
``bench/rooms_load.py`` does, ``ROOM_IDLE_SECONDS`` short: ``--idle``), and creates ``--rooms``
rooms (default 10,000), ``--concurrency`` at a time. Each room gets a few actions, as players
make them: the host creates it over HTTP, a guest joins over HTTP, the host opens the room's
WebSocket, starts the game, rolls and places the roll (each action with its page basis and an
action id, acknowledged before the next), then closes the socket. Every room is then idle; the
bench waits until the server has forgotten all of them (its ``rooms_forgotten`` log lines) and
prints the server's resident memory (RSS) at start, at its peak, and after eviction, with the
goal: after eviction within 50 MB of the start. The server is stopped by its pid at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rooms_load import ACK, ERROR, app_server, ensure_database, listening_socket  # noqa: E402

GOAL_MB = 50.0
MB = 2**20


class RssMeter:
    """Samples a process's resident memory every 0.25 s; keeps the peak."""

    def __init__(self, pid: int) -> None:
        self.proc = psutil.Process(pid)
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> int:
        rss = self.proc.memory_info().rss
        self.peak = max(self.peak, rss)
        return rss

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            try:
                self.now()
            except psutil.Error:
                return

    def start(self) -> RssMeter:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


async def act(ws: Any, message: dict[str, Any]) -> int:
    """Send ``message`` with a fresh action id; the room version in its ack. Raises
    RuntimeError(code) when it is refused."""
    action_id = uuid.uuid4().hex[:20]
    await ws.send(json.dumps({**message, "action_id": action_id}))
    while True:
        data = await asyncio.wait_for(ws.recv(decode=False), 30)
        head = data[:400]
        m = ACK.search(head)
        if m and m.group(1).decode() == action_id:
            return int(m.group(2))
        m = ERROR.search(head)
        if m and (m.group(2) or b"").decode() == action_id:
            raise RuntimeError(m.group(1).decode())


async def one_room(base: str, transport: httpx.AsyncHTTPTransport, n: int) -> None:
    """Create room ``n``, seat a guest, start, roll and place over the host's socket."""
    from websockets.asyncio.client import connect

    host = httpx.AsyncClient(base_url=base, transport=transport, timeout=60)
    guest = httpx.AsyncClient(base_url=base, transport=transport, timeout=60)
    r = await host.post("/rooms", data={"game": "knister", "name": f"H{n}"})
    assert r.status_code == 303, r.text[:200]
    code = r.headers["location"].rsplit("/", 1)[1]
    r = await guest.post(f"/r/{code}/join", data={"name": f"G{n}"})
    assert r.status_code == 303, r.text[:200]
    version = (await host.get(f"/r/{code}/state.json")).json()["version"]
    cookie = "; ".join(f"{k}={v}" for k, v in host.cookies.items())
    ws_url = base.replace("http://", "ws://") + f"/r/{code}/ws"
    async with connect(ws_url, origin=base, additional_headers={"Cookie": cookie},
                       open_timeout=60, ping_interval=None, close_timeout=5,
                       max_size=2**23) as ws:
        await ws.send(json.dumps({"type": "hello", "version": -1}))
        version = await act(ws, {"type": "start", "version": version})
        await act(ws, {"type": "roll", "roll": 0})
        await act(ws, {"type": "place", "cell": "0,0", "roll": 1})


async def create_rooms(base: str, rooms: int, concurrency: int, meter: RssMeter) -> dict:
    """Create every room, ``concurrency`` at a time; failures by kind."""
    transport = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=concurrency * 2))
    failures: dict[str, int] = {}
    done = 0
    started = time.perf_counter()
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(rooms):
        queue.put_nowait(n)

    async def worker() -> None:
        nonlocal done
        while not queue.empty():
            n = queue.get_nowait()
            try:
                await one_room(base, transport, n)
            except Exception as exc:
                kind = f"{type(exc).__name__}:{str(exc)[:60]}"
                failures[kind] = failures.get(kind, 0) + 1
            done += 1
            if done % 1000 == 0:
                print(f"  {done} rooms in {time.perf_counter() - started:.0f} s, server RSS "
                      f"{meter.now() / MB:.0f} MB", flush=True)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    await transport.aclose()
    return failures


def forgotten(log: Path) -> int:
    """Rooms the server has forgotten so far, from its JSON log lines."""
    total = 0
    for line in log.read_text(errors="replace").splitlines():
        if '"rooms_forgotten"' in line:
            try:
                total += json.loads(line).get("rooms", 0)
            except ValueError:
                pass
    return total


def heap_arenas(pid: int, path: Path) -> str:
    """Ask the server (started with ``--arenas``) for its allocator statistics; one line:
    pymalloc arenas (1 MiB each), MB in live blocks and MB free inside those arenas."""
    os.kill(pid, signal.SIGUSR1)
    for _ in range(50):
        time.sleep(0.1)
        if path.exists() and "Total" in path.read_text(errors="replace"):
            break
    text = path.read_text(errors="replace")

    def number(label: str) -> int:
        m = re.search(rf"# {label}\s*=\s*([\d,]+)", text)
        return int(m.group(1).replace(",", "")) if m else -1

    return (f"{number('arenas allocated current')} arenas, "
            f"{number('bytes in allocated blocks') / MB:.1f} MB live, "
            f"{number('bytes in available blocks') / MB:.1f} MB free inside them")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", type=int, default=10_000)
    p.add_argument("--concurrency", type=int, default=32, help="rooms set up at once")
    p.add_argument("--idle", type=float, default=5.0, help="ROOM_IDLE_SECONDS of the server")
    p.add_argument("--settle", type=float, default=10.0,
                   help="seconds to wait after start-up and after eviction before reading RSS")
    p.add_argument("--evict-timeout", type=float, default=300.0)
    p.add_argument("--database-url",
                   default="postgresql://postgres@127.0.0.1:5432/knobel_bench")
    p.add_argument("--arenas", action="store_true",
                   help="also print CPython's heap arenas at start and after eviction "
                        "(bench/memstats: live bytes, and free bytes the arenas keep)")
    args = p.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="knobel-soak-"))
    db = ensure_database(args.database_url)
    env = {"ROOM_IDLE_SECONDS": str(args.idle), "LOG_JSON": "true"}
    if args.arenas:
        env |= {"PYTHONPATH": str(Path(__file__).resolve().parent / "memstats"),
                "KNOBEL_MEMSTATS": str(workdir / "memstats")}
    server = app_server(db, workdir, listening_socket(), extra_env=env)
    arenas: list[str] = []
    server.start()
    print(f"soak: {args.rooms} rooms, {args.concurrency} at a time, ROOM_IDLE_SECONDS "
          f"{args.idle:g}; app pid {server.pid} on {db.split('@')[-1]}; logs in {workdir}",
          flush=True)
    try:
        meter = RssMeter(server.pid)
        time.sleep(args.settle)
        start_rss = meter.now()
        if args.arenas:
            arenas.append(heap_arenas(server.pid, workdir / "memstats.1"))
        meter.peak = start_rss
        meter.start()
        print(f"  RSS at start: {start_rss / MB:.1f} MB", flush=True)
        t0 = time.perf_counter()
        failures = asyncio.run(create_rooms(server.url, args.rooms, args.concurrency, meter))
        made = args.rooms - sum(failures.values())
        print(f"  {made} rooms created and played in {time.perf_counter() - t0:.0f} s"
              + (f"; failures: {failures}" if failures else ""), flush=True)
        t1 = time.perf_counter()
        while forgotten(server.log) < made and time.perf_counter() - t1 < args.evict_timeout:
            time.sleep(1)
        gone = forgotten(server.log)
        print(f"  {gone} rooms forgotten {time.perf_counter() - t1:.0f} s after the last one "
              f"went idle", flush=True)
        time.sleep(args.settle)
        meter.stop()
        after = meter.now()
        if args.arenas:
            arenas.append(heap_arenas(server.pid, workdir / "memstats.2"))
    finally:
        server.stop()
    growth = (after - start_rss) / MB
    print()
    print(f"RSS start {start_rss / MB:.1f} MB, peak {meter.peak / MB:.1f} MB, after eviction "
          f"{after / MB:.1f} MB ({growth:+.1f} MB)")
    for when, line in zip(("at start", "after eviction"), arenas, strict=False):
        print(f"heap {when}: {line}")
    met = growth <= GOAL_MB and gone >= made
    print(f"goal: after eviction within {GOAL_MB:g} MB of the start, every room forgotten: "
          f"{'MET' if met else 'NOT MET'}"
          + (f" ({sum(failures.values())} rooms failed to set up: {failures})"
             if failures else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
