"""The hub stops its periodic version check between two checks, never inside one's database
read (a read cancelled mid-way left the driver's clean-up running while the app closed its
pool: the shutdown hang of session 14's notes)."""

from __future__ import annotations

import asyncio

from app.live.broadcast import MemoryBroadcast
from app.live.hub import Hub


async def test_stop_waits_for_the_version_check_it_interrupts() -> None:
    reading, release = asyncio.Event(), asyncio.Event()
    finished: list[str] = []

    async def versions(codes: list[str]) -> dict[str, int]:
        reading.set()
        await release.wait()  # the database read in progress
        finished.append("read")
        return {code: 0 for code in codes}

    async def snapshot(code: str, at_least: int, delta: str | None) -> None:
        return None

    hub = Hub(MemoryBroadcast(), snapshot, renderer=None,  # type: ignore[arg-type]
              versions=versions, check_every=0.01)
    hub.rooms["ROOM"] = set()  # a room with sockets here: the check reads its version
    hub.start()
    await asyncio.wait_for(reading.wait(), 5)
    stopping = asyncio.create_task(hub.stop())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # it waits for the read, it does not cancel it
    release.set()
    await asyncio.wait_for(stopping, 5)
    assert finished == ["read"]
