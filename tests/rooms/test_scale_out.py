"""Two app processes share one Postgres and one Redis: players on different processes play
one Knister game together, through faults of Redis, of Postgres and of the processes.

Whatever fails, an acknowledged action reaches every page on both processes within seconds
(issue 11, parts 5 and 6). Each way of catching up has its own test, with the others switched
off where they would hide it:
- announcements missed while Redis was away: the resync after resubscribing (``"*"``);
- a delivery that failed (the database did not answer): retried with back-off;
- a version nobody announced: the periodic check of open rooms against the database.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from app.live.broadcast import CHANNEL
from app.store.redis_client import redis_client
from tests.support.players import ERROR, Guest, Reply, RoomSocket
from tests.support.postgres_server import PostgresProcess
from tests.support.redis_server import RedisProcess
from tests.support.server import ServerProcess, server_env_for
from tests.support.tcp_proxy import ReplyLosingProxy
from tests.support.waiting import until_async

pytestmark = pytest.mark.server

CATCH_UP = 5.0  # seconds within which every page must show an acknowledged action


async def _next_move(guest: Guest, code: str) -> tuple[int, str, dict, bool]:
    """(seat index, action, fields, is the game's last action) of the room's next Knister
    move: the roll, or the first free cell of the first seat still to place."""
    state = await guest.state(code)
    seat_ids = [s["id"] for s in state["seats"]]
    cur = state["current"]
    seen = len(cur["rolls"])
    if not cur["roll_pending"]:
        return seat_ids.index(cur["roller"]), "roll", {"roll": seen}, False
    seat = next(s for s in cur["active"] if s not in cur["placed"])
    grid = cur["sheets"][str(seat)]
    r, c = next((r, c) for r in range(5) for c in range(5) if grid[r][c] is None)
    last = seen == 25 and len(cur["placed"]) == len(cur["active"]) - 1
    return seat_ids.index(seat), "place", {"cell": f"{r},{c}", "roll": seen}, last


async def _play(guest: Guest, sockets: list[RoomSocket], code: str, moves: int) -> None:
    """Make ``moves`` moves, each through the socket of the seat whose move it is."""
    for _ in range(moves):
        index, kind, fields, _last = await _next_move(guest, code)
        assert (await sockets[index].act(kind, **fields)).ok


async def _play_until(guest: Guest, sockets: list[RoomSocket], code: str, wanted
                      ) -> tuple[int, str, dict]:
    """Play until the next move satisfies ``wanted(index, last)``; return that move."""
    for _ in range(80):  # a two-seat game is 75 moves
        index, kind, fields, last = await _next_move(guest, code)
        if wanted(index, last):
            return index, kind, fields
        assert (await sockets[index].act(kind, **fields)).ok
    raise AssertionError("no such move in the game")


async def _all_show(sockets: list[RoomSocket], version: int, timeout: float = CATCH_UP
                    ) -> float:
    """Wait until every socket received a live fragment of ``version``; seconds taken."""
    started = time.monotonic()
    await asyncio.gather(*(s.wait_version(version, timeout) for s in sockets))
    return time.monotonic() - started


def _errors_since(sock: RoomSocket, seen: int) -> list[str]:
    return [m.group(1) for f in sock.fragments[seen:] for m in ERROR.finditer(f)]


def _logged(path: Path, event: str) -> list[dict]:
    """The JSON log lines of ``event`` in a server's log file."""
    lines = path.read_text(errors="replace").splitlines() if path.exists() else []
    found = []
    for line in lines:
        if line.startswith("{") and f'"{event}"' in line:
            entry = json.loads(line)
            if entry.get("event") == event:
                found.append(entry)
    return found


async def _wait_logged(path: Path, event: str, timeout: float = 10) -> None:
    await until_async(lambda: _logged(path, event), f"{event} logged in {path.name}", timeout)


async def _subscribers(url: str, count: int) -> None:
    """Wait until ``count`` connections listen on the rooms channel of the Redis at ``url``."""
    client = redis_client(url)
    try:
        async def listening() -> bool:
            (_channel, listeners), = await client.pubsub_numsub(CHANNEL)
            return listeners >= count
        await until_async(listening, f"{count} processes subscribe to {CHANNEL}")
    finally:
        await client.aclose()


class Pair:
    """Two server processes on one database and one Redis, Anna on the first and Bram on the
    second, in one started Knister room."""

    def __init__(self, env: dict[str, str], tmp_path: Path, p1_env: dict[str, str] | None = None
                 ) -> None:
        self.logs = (tmp_path / "p1.log", tmp_path / "p2.log")
        self.p1 = ServerProcess({**env, **(p1_env or {})}, log=self.logs[0])
        self.p2 = ServerProcess(env, log=self.logs[1])

    async def __aenter__(self) -> Pair:
        await asyncio.gather(asyncio.to_thread(self.p1.start), asyncio.to_thread(self.p2.start))
        self.anna, self.bram = Guest(self.p1.url, "Anna"), Guest(self.p2.url, "Bram")
        self.code = await self.anna.create_room()
        assert (await self.bram.join(self.code)).status_code == 303
        self.sockets = [await self.anna.connect(self.code), await self.bram.connect(self.code)]
        assert (await self.sockets[0].act("start")).ok
        await _all_show(self.sockets, (await self.anna.state(self.code))["version"])
        return self

    async def __aexit__(self, *exc: object) -> None:
        for sock in self.sockets:
            await sock.close()
        await self.anna.aclose()
        await self.bram.aclose()
        self.p1.stop()
        self.p2.stop()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_players_on_two_processes_finish_through_a_redis_restart(
    backend, server_env, tmp_path
) -> None:
    with RedisProcess() as redis:
        env = {**server_env, "BROADCAST_URL": redis.url}
        with ServerProcess(env, log=tmp_path / "p1.log") as p1, \
                ServerProcess(env, log=tmp_path / "p2.log") as p2:
            anna, bram = Guest(p1.url, "Anna"), Guest(p2.url, "Bram")
            code = await anna.create_room()
            assert (await bram.join(code)).status_code == 303
            a, b = await anna.connect(code), await bram.connect(code)
            # each process sees the other's player online
            async def both_online() -> bool:
                pages = [await g.http.get(f"/r/{code}") for g in (anna, bram)]
                return all(p.text.count('data-presence="online"') == 2 for p in pages)
            await until_async(both_online, "each process shows both players online")
            assert (await a.act("start")).ok
            state = await anna.state(code)
            await b.wait_version(state["version"])
            assert b.last_live().count('data-presence="online"') == 2
            await _play(anna, [a, b], code, 30)
            # B (on process 2) saw every move made through process 1
            version = (await anna.state(code))["version"]
            await b.wait_version(version)

            redis.kill()
            await _play(anna, [a, b], code, 9)
            redis.start()
            await _subscribers(redis.url, 2)  # both processes resubscribe (back-off up to 2 s)
            await _play(anna, [a, b], code, 36)

            final = await anna.state(code)
            assert final["status"] == "finished"
            assert final == await bram.state(code)
            await b.wait_version(final["version"])
            await a.wait_version(final["version"])
            assert "data-final-total" in b.last_live()
            for s in (a, b):
                await s.close()
            await anna.aclose()
            await bram.aclose()


async def test_a_postgres_restart_between_two_actions_is_invisible_on_both_processes(
    private_postgres: PostgresProcess, restartable_database_url, redis_url, tmp_path
) -> None:
    env = server_env_for(restartable_database_url, tmp_path, BROADCAST_URL=redis_url,
                         LOG_JSON="true")
    async with Pair(env, tmp_path) as pair:
        sockets = pair.sockets
        timings = []
        for moves, wanted in ((4, lambda index, last: index == 0), (0, lambda i, last: last)):
            await _play(pair.anna, sockets, pair.code, moves)
            index, kind, fields = await _play_until(pair.anna, sockets, pair.code, wanted)
            seen = [len(s.fragments) for s in sockets]
            await asyncio.to_thread(private_postgres.restart)

            started = time.monotonic()
            reply: Reply = await sockets[index].act(kind, **fields)
            acked = time.monotonic() - started
            assert (reply.ok, reply.code, reply.duplicate) == (True, "", False)
            shown = await _all_show(sockets, reply.version)
            assert [_errors_since(s, n) for s, n in zip(sockets, seen, strict=True)] == [[], []]
            timings.append((acked, shown))

        final = await pair.anna.state(pair.code)
        assert final["status"] == "finished"
        assert final["version"] == reply.version
        for sock in sockets:
            assert "data-final-total" in sock.last_live()
        retries = [_logged(log, "db_retry") for log in pair.logs]
        # each restart costs each process a failed statement (two if two were under way at
        # that instant), each run again at once and with success on a fresh connection
        assert [len(r) >= 2 for r in retries] == [True, True]
        assert {e["attempt"] for r in retries for e in r} == {1}
        retries = [len(r) for r in retries]
        print(f"\nafter a Postgres restart: ack {timings[0][0] * 1000:.0f} / "
              f"{timings[1][0] * 1000:.0f} ms, both pages {timings[0][1] * 1000:.0f} / "
              f"{timings[1][1] * 1000:.0f} ms later (mid-game / last action); "
              f"retries per process {retries}")


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_versions_missed_while_redis_was_away_reach_both_processes_after_it_returns(
    backend, server_env, tmp_path
) -> None:
    with RedisProcess() as redis:
        # no periodic check: only the resync after resubscribing can bring the pages along
        env = {**server_env, "BROADCAST_URL": redis.url, "LIVE_CHECK_SECONDS": "0"}
        async with Pair(env, tmp_path) as pair:
            await _play(pair.anna, pair.sockets, pair.code, 4)
            index, kind, fields, _ = await _next_move(pair.anna, pair.code)
            redis.kill()
            reply = await pair.sockets[index].act(kind, **fields)
            assert reply.ok  # committed; its announcement is lost with Redis
            redis.start()
            took = await _all_show(pair.sockets, reply.version, timeout=2.5 + CATCH_UP)
            print(f"\nboth pages caught up {took:.1f} s after Redis came back")


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_version_nobody_announced_reaches_every_page_from_the_database(
    backend, settings, redis_url, tmp_path
) -> None:
    """Process 1's connection dies just after Postgres committed its roll: the retry finds
    it committed (a duplicate), so nobody announces it; the periodic check finds it."""
    url = make_url(settings.database_url)
    async with ReplyLosingProxy(url.host or "127.0.0.1", url.port or 5432) as proxy:
        proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(False)
        env = server_env_for(settings.database_url, tmp_path, BROADCAST_URL=redis_url)
        async with Pair(env, tmp_path, p1_env={"DATABASE_URL": proxied}) as pair:
            await _play(pair.anna, pair.sockets, pair.code, 3)
            index, kind, fields = await _play_until(
                pair.anna, pair.sockets, pair.code, lambda index, last: index == 0)
            proxy.lose_reply(b"INSERT 0 1")  # the one-statement append of process 1
            reply = await pair.sockets[0].act(kind, **fields)
            assert proxy.cuts == 1
            assert (reply.ok, reply.duplicate) == (True, True)
            took = await _all_show(pair.sockets, reply.version)
            print(f"\nboth pages caught up {took:.1f} s after an unannounced commit")


async def _act_then_stop(sock: RoomSocket, paused: ServerProcess, kind: str, fields: dict,
                         postgres: PostgresProcess) -> Reply:
    """``sock`` makes a move while the ``paused`` process hears nothing; Postgres stops once
    the move is committed and shown, and only then does that process hear of it."""
    paused.pause()
    try:
        reply = await sock.act(kind, **fields)
        assert reply.ok
        await sock.wait_version(reply.version)
        await asyncio.to_thread(postgres.stop)
    finally:
        paused.resume()
    return reply


async def test_a_delivery_that_failed_while_postgres_was_down_is_retried(
    private_postgres: PostgresProcess, restartable_database_url, redis_url, tmp_path
) -> None:
    """Process 1 hears of Bram's last move of the game while Postgres is down. A finished
    game is read from the database (its announcement carries no events to fold:
    ``app.rooms.delta``), so reading the new version fails, and is tried again until Postgres
    is back."""
    env = server_env_for(restartable_database_url, tmp_path, BROADCAST_URL=redis_url,
                         LIVE_CHECK_SECONDS="0", LOG_JSON="true")
    async with Pair(env, tmp_path) as pair:
        a, b = pair.sockets
        index, kind, fields = await _play_until(
            pair.anna, pair.sockets, pair.code, lambda index, last: last)
        assert index == 1  # Bram places last
        # process 1 hears the announcement only once Postgres is down
        reply = await _act_then_stop(b, pair.p1, kind, fields, private_postgres)
        await _wait_logged(pair.logs[0], "deliver_failed")  # it heard, and could not read
        await asyncio.to_thread(private_postgres.start)
        took = await _all_show([a], reply.version)
        assert [e["room"] for e in _logged(pair.logs[0], "redelivered")] == [pair.code]
        print(f"\nprocess 1's page caught up {took:.1f} s after Postgres came back")


async def test_a_game_action_from_the_other_process_needs_no_database_read(
    private_postgres: PostgresProcess, restartable_database_url, redis_url, tmp_path
) -> None:
    """Process 2 holds the room; Anna's moves on process 1 reach Bram's page on process 2
    while Postgres is down: their announcements carry the events, folded in memory."""
    env = server_env_for(restartable_database_url, tmp_path, BROADCAST_URL=redis_url,
                         LIVE_CHECK_SECONDS="0", LOG_JSON="true")
    async with Pair(env, tmp_path) as pair:
        a, b = pair.sockets
        index, kind, fields = await _play_until(
            pair.anna, pair.sockets, pair.code, lambda index, last: index == 0 and not last)
        # process 2 hears the announcement only once Postgres is down
        reply = await _act_then_stop(a, pair.p2, kind, fields, private_postgres)
        try:
            took = await _all_show([b], reply.version)
        finally:
            await asyncio.to_thread(private_postgres.start)
        assert not _logged(pair.logs[1], "deliver_failed")
        print(f"\nprocess 2's page caught up {took:.1f} s later, Postgres down")
