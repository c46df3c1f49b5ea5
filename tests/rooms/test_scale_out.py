"""Two app processes share one Postgres and one Redis: players on different processes play
one Knister game together, and keep playing through a Redis restart."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.players import Guest
from tests.support.redis_server import RedisProcess
from tests.support.server import ServerProcess

pytestmark = pytest.mark.server


async def _play(guest, sockets, code, rolls) -> None:
    for _ in rolls:
        state = await guest.state(code)
        seat_ids = [s["id"] for s in state["seats"]]
        assert (await sockets[seat_ids.index(state["current"]["roller"])].act("roll")).ok
        for sock in sockets:
            state = await guest.state(code)
            seat = seat_ids[sockets.index(sock)]
            grid = state["current"]["sheets"][str(seat)]
            r, c = next((r, c) for r in range(5) for c in range(5) if grid[r][c] is None)
            assert (await sock.act("place", cell=f"{r},{c}")).ok


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
            await asyncio.sleep(0.5)
            assert (await a.act("start")).ok
            state = await anna.state(code)
            await b.wait_version(state["version"])
            assert b.last_live().count('data-presence="online"') == 2
            await _play(anna, [a, b], code, range(10))
            # B (on process 2) saw every move made through process 1
            version = (await anna.state(code))["version"]
            await b.wait_version(version)

            redis.kill()
            await _play(anna, [a, b], code, range(10, 13))
            redis.start()
            await asyncio.sleep(2.5)  # both processes resubscribe (back-off up to 2 s)
            await _play(anna, [a, b], code, range(13, 25))

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
