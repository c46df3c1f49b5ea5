"""The Redis broadcast between app processes, against a real Redis: a burst of announcements
larger than the connection pool all arrive (they wait for a connection; redis-py's default
pool dropped them past 100 at once, so pages waited for the periodic check), and an
announcement's game events arrive as they were sent."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from app.live.broadcast import Message, RedisBroadcast
from app.rooms.delta import Delta
from app.rooms.games.base import Event
from app.store.redis_client import CONNECTIONS

pytestmark = pytest.mark.server


async def _listening(url: str) -> tuple[RedisBroadcast, RedisBroadcast, asyncio.Queue[Message],
                                       asyncio.Task[None], str]:
    """A publisher and a subscribed listener (its messages of this test's rooms in a queue)."""
    prefix = uuid.uuid4().hex[:8]
    sender, receiver = RedisBroadcast(url), RedisBroadcast(url)
    await sender.connect()
    await receiver.connect()
    heard: asyncio.Queue[Message] = asyncio.Queue()

    async def listen() -> None:
        async for message in receiver.listen():
            if message.code.startswith(prefix):
                heard.put_nowait(message)

    task = asyncio.create_task(listen())
    for _ in range(100):  # until the subscription is in place
        await sender.publish(f"{prefix}-probe", 0)
        try:
            await asyncio.wait_for(heard.get(), 0.1)
            break
        except TimeoutError:
            continue
    else:
        pytest.fail("the listener never subscribed")
    while not heard.empty():
        heard.get_nowait()
    return sender, receiver, heard, task, prefix


async def _close(sender: RedisBroadcast, receiver: RedisBroadcast,
                 task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await sender.disconnect()
    await receiver.disconnect()


async def test_a_burst_larger_than_the_pool_is_announced_whole(redis_url: str) -> None:
    sender, receiver, heard, task, prefix = await _listening(redis_url)
    try:
        burst = 10 * CONNECTIONS + 100  # past redis-py's default limit of 100
        await asyncio.gather(*(sender.publish(f"{prefix}-{i}", i) for i in range(burst)))
        got = set()
        while len(got) < burst:
            message = await asyncio.wait_for(heard.get(), 10)
            got.add((message.code, message.version))
        assert got == {(f"{prefix}-{i}", i) for i in range(burst)}
    finally:
        await _close(sender, receiver, task)


async def test_an_announcement_carries_its_game_events_through_redis(redis_url: str) -> None:
    sender, receiver, heard, task, prefix = await _listening(redis_url)
    try:
        delta = Delta(7, 3, 12, "a b c", (
            Event("place", {"cell": [1, 2], "note": "with spaces, and \"quotes\""}, 4, None),
            Event("roll", {"dice": [3, 4]}, None, None)))
        await sender.publish(f"{prefix}-room", 7, delta.encode())
        await sender.publish(f"{prefix}-other", 2)
        first = await asyncio.wait_for(heard.get(), 10)
        second = await asyncio.wait_for(heard.get(), 10)
        assert (first.kind, first.code, first.version) == ("v", f"{prefix}-room", 7)
        assert first.delta is not None and Delta.decode(first.delta) == delta
        assert (second.code, second.version, second.delta) == (f"{prefix}-other", 2, None)
    finally:
        await _close(sender, receiver, task)
