"""More simultaneous requests than the database pool has connections (found by bench/soak.py:
32 room creations at once left every pooled connection held by a request that waited for a
second one, and all of them failed after the pool timeout with HTTP 500).

A request never holds a pooled connection while it waits for another, so a pool of two
serves twelve room creations at once; a pool that does stay exhausted answers 503
``server_busy`` with ``Retry-After``, in the guest's language, and changes nothing.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest
from sqlalchemy import func, select

from app.store.db import Database
from app.store.models import Room
from tests.support.players import Guest
from tests.support.server import ServerProcess

pytestmark = pytest.mark.server

POOL = {"DB_POOL_SIZE": "2", "DB_MAX_OVERFLOW": "0", "DB_POOL_TIMEOUT": "3"}


async def _rooms(database_url: str) -> int:
    db = Database(database_url)
    try:
        async with db.sessionmaker() as session:
            return (await session.execute(select(func.count()).select_from(Room))).scalar_one()
    finally:
        await db.dispose()


async def test_twelve_room_creations_at_once_through_a_pool_of_two(server_env, settings,
                                                                   tmp_path) -> None:
    with ServerProcess({**server_env, **POOL}, log=tmp_path / "server.log") as proc:
        guests = [Guest(proc.url, f"Gast {i}") for i in range(12)]
        try:
            replies = await asyncio.gather(*(
                g.http.post("/rooms", data={"game": "knister", "name": g.name})
                for g in guests))
            assert [r.status_code for r in replies] == [303] * 12
            codes = {r.headers["location"].rsplit("/", 1)[1] for r in replies}
            pages = await asyncio.gather(*(g.http.get(f"/r/{c}") for g, c in
                                           zip(guests, sorted(codes), strict=True)))
            assert all(p.status_code == 200 for p in pages)
        finally:
            for g in guests:
                await g.aclose()
    assert await _rooms(settings.database_url) == 12


async def test_an_exhausted_pool_answers_503_and_changes_nothing(server_env, settings,
                                                                tmp_path) -> None:
    """The pool's only connection is held by a test hook's sleeping transaction: a room
    creation waits DB_POOL_TIMEOUT seconds, then is refused (JSON and HTML, translated)."""
    env = {**server_env, "DB_POOL_SIZE": "1", "DB_MAX_OVERFLOW": "0", "DB_POOL_TIMEOUT": "1"}
    with ServerProcess(env, log=tmp_path / "server.log") as proc:
        async with httpx.AsyncClient(base_url=proc.url) as hold, \
                httpx.AsyncClient(base_url=proc.url, headers={"Accept": "application/json"}) \
                as api, httpx.AsyncClient(base_url=proc.url,
                                          headers={"Accept": "text/html",
                                                   "Accept-Language": "de"}) as browser:
            held = asyncio.Event()

            async def hold_the_pool() -> tuple[int, bytes]:
                async with hold.stream("POST", "/_test/hold-connection",
                                       params={"seconds": 4}) as response:
                    body = b""
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        held.set()  # the first bytes: the connection is taken
                    return response.status_code, body

            holding = asyncio.create_task(hold_the_pool())
            await asyncio.wait_for(held.wait(), 10)
            data = {"game": "knister", "name": "Anna"}
            as_json, as_html = await asyncio.gather(api.post("/rooms", data=data),
                                                    browser.post("/rooms", data=data))
            assert (as_json.status_code, as_json.headers["retry-after"]) == (503, "2")
            assert as_json.json() == {
                "error": "server_busy",
                "message": "The server is busy: please try again in a moment."}
            assert as_html.status_code == 503
            assert "Der Server ist ausgelastet" in as_html.text
            assert await holding == (200, b'{"held": 4.0}')
    assert await _rooms(settings.database_url) == 0
