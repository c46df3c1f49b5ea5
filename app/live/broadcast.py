"""Pub/sub of committed room versions between app processes, chosen by ``BROADCAST_URL``.

``memory://`` delivers inside one process; ``redis://host:port/db`` uses Redis pub/sub
(redis-py's asyncio client) so every process hears every room's new versions. Messages are
``(room code, version)``; the state itself always comes from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Protocol

import structlog

log = structlog.get_logger("knobel.broadcast")
CHANNEL = "knobel:rooms"


class Broadcast(Protocol):
    """A pub/sub backend for room versions."""

    async def connect(self) -> None:
        """Open connections (called at start-up)."""

    async def disconnect(self) -> None:
        """Close connections (called at shutdown)."""

    async def publish(self, code: str, version: int) -> None:
        """Announce that room ``code`` reached ``version``."""

    def listen(self) -> AsyncIterator[tuple[str, int]]:
        """Every ``(code, version)`` announced by any process, this one included."""


def _encode(code: str, version: int) -> str:
    return f"{code} {version}"


def _decode(data: str | bytes) -> tuple[str, int] | None:
    if isinstance(data, bytes):
        data = data.decode("ascii", "replace")
    code, _, version = data.partition(" ")
    try:
        return code, int(version)
    except ValueError:
        return None


class MemoryBroadcast:
    """One process: an asyncio queue."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[tuple[str, int]] = asyncio.Queue()

    async def connect(self) -> None:
        """Nothing to open."""

    async def disconnect(self) -> None:
        """Nothing to close."""

    async def publish(self, code: str, version: int) -> None:
        """Queue the announcement for this process's listener."""
        self._queue.put_nowait((code, version))

    async def listen(self) -> AsyncIterator[tuple[str, int]]:
        """Yield announcements in order."""
        while True:
            yield await self._queue.get()


class RedisBroadcast:
    """Several processes: Redis pub/sub on one channel, reconnecting after Redis restarts.

    While Redis is unreachable, ``publish`` logs and drops the announcement; listeners notice
    the version gap on the next announcement (or on the client's next hello) and catch up from
    the database.
    """

    def __init__(self, url: str) -> None:
        from redis import asyncio as aioredis

        self._redis = aioredis.from_url(url, decode_responses=True)
        self.reconnected = asyncio.Event()

    async def connect(self) -> None:
        """Check Redis answers (start-up fails loudly when it does not)."""
        await self._redis.ping()

    async def disconnect(self) -> None:
        """Close the connection pool."""
        await self._redis.aclose()

    async def publish(self, code: str, version: int) -> None:
        """``PUBLISH knobel:rooms "<code> <version>"``; errors are logged, not raised."""
        try:
            await self._redis.publish(CHANNEL, _encode(code, version))
        except Exception as exc:  # Redis down: the database still has the truth
            log.warning("publish_failed", room=code, version=version, error=type(exc).__name__)

    async def listen(self) -> AsyncIterator[tuple[str, int]]:
        """Subscribe (again after any error, with a short back-off) and yield announcements."""
        delay = 0.1
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                delay = 0.1
                self.reconnected.set()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        decoded = _decode(message["data"])
                        if decoded:
                            yield decoded
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("subscribe_failed", error=type(exc).__name__)
                yield ("*", 0)  # tell the hub to resynchronise every room it serves
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()


def make_broadcast(url: str) -> Broadcast:
    """The backend for ``BROADCAST_URL`` (``memory://`` or ``redis://...``)."""
    if url.startswith("memory://"):
        return MemoryBroadcast()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisBroadcast(url)
    raise ValueError(f"unsupported BROADCAST_URL scheme: {url.split(':', 1)[0]}")
