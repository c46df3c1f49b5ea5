"""Pub/sub of committed room versions between app processes, chosen by ``BROADCAST_URL``.

``memory://`` delivers inside one process; ``redis://host:port/db`` uses Redis pub/sub
(redis-py's asyncio client) so every process hears every room's new versions. A message is a
short text: ``v <code> <version>`` (a committed room version; the state itself comes from the
database) with, after one more space, the game events that made it when it was a game action
(an opaque text, ``app.rooms.delta``: a process holding the version before folds them in
instead of reading the database), or ``p <code> <process> <player,player,...>`` (who has a
socket open on that process), ``c <code>`` (the room's chat lines changed: read them again)
or ``r <code> <seat> <reaction>`` (a reaction to show on that seat; docs/rules.md, "Talk at
the table"). ``listen()`` yields them decoded as ``Message`` tuples;
``("*", "", ...)`` means messages may have been lost (Redis reconnected) and every room should
resynchronise.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import NamedTuple, Protocol

import structlog

from app.store.redis_client import redis_client

log = structlog.get_logger("knobel.broadcast")
CHANNEL = "knobel:rooms"


class Message(NamedTuple):
    """One pub/sub message: ``kind`` ``v`` (version), ``p`` (presence), ``c`` (chat lines),
    ``r`` (a reaction of ``seat``) or ``*`` (resync)."""

    kind: str
    code: str
    version: int = 0
    process: str = ""
    players: frozenset[str] = frozenset()
    delta: str | None = None
    seat: int = 0
    reaction: str = ""


RESYNC = Message("*", "")


class Broadcast(Protocol):
    """A pub/sub backend for room versions."""

    async def connect(self) -> None:
        """Open connections (called at start-up)."""

    async def disconnect(self) -> None:
        """Close connections (called at shutdown)."""

    async def publish(self, code: str, version: int, delta: str | None = None) -> None:
        """Announce that room ``code`` reached ``version`` (made by ``delta``, if given)."""

    async def publish_presence(self, code: str, process: str, players: frozenset[str]) -> None:
        """Announce which players have a socket open in room ``code`` on ``process``."""

    async def publish_talk(self, code: str) -> None:
        """Announce that room ``code``'s chat lines changed."""

    async def publish_reaction(self, code: str, seat: int, reaction: str) -> None:
        """Announce a ``reaction`` of ``seat`` in room ``code``."""

    def listen(self) -> AsyncIterator[Message]:
        """Every message published by any process, this one included."""


def encode(message: Message) -> str:
    """The wire text of ``message``."""
    if message.kind == "v":
        head = f"v {message.code} {message.version}"
        return f"{head} {message.delta}" if message.delta else head
    if message.kind == "c":
        return f"c {message.code}"
    if message.kind == "r":
        return f"r {message.code} {message.seat} {message.reaction}"
    return f"p {message.code} {message.process} {','.join(sorted(message.players))}"


def decode(data: str | bytes) -> Message | None:
    """Parse wire text; None for anything malformed."""
    if isinstance(data, bytes):
        data = data.decode("ascii", "replace")
    parts = data.split(" ", 3) if data.startswith("v ") else data.split(" ")
    try:
        if parts[0] == "v" and len(parts) in (3, 4):
            return Message("v", parts[1], int(parts[2]),
                           delta=parts[3] if len(parts) == 4 else None)
        if parts[0] == "p" and len(parts) == 4:
            players = frozenset(p for p in parts[3].split(",") if p)
            return Message("p", parts[1], process=parts[2], players=players)
        if parts[0] == "c" and len(parts) == 2:
            return Message("c", parts[1])
        if parts[0] == "r" and len(parts) == 4:
            return Message("r", parts[1], seat=int(parts[2]), reaction=parts[3])
    except ValueError:
        return None
    return None


class MemoryBroadcast:
    """One process: an asyncio queue."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[Message] = asyncio.Queue()

    async def connect(self) -> None:
        """Nothing to open."""

    async def disconnect(self) -> None:
        """Nothing to close."""

    async def publish(self, code: str, version: int, delta: str | None = None) -> None:
        """Queue the announcement for this process's listener (which made the version, so
        the ``delta`` is not needed)."""
        self._queue.put_nowait(Message("v", code, version))

    async def publish_presence(self, code: str, process: str, players: frozenset[str]) -> None:
        """One process knows its own presence: nothing to send."""

    async def publish_talk(self, code: str) -> None:
        """Queue the chat announcement for this process's listener."""
        self._queue.put_nowait(Message("c", code))

    async def publish_reaction(self, code: str, seat: int, reaction: str) -> None:
        """Queue the reaction for this process's listener."""
        self._queue.put_nowait(Message("r", code, seat=seat, reaction=reaction))

    async def listen(self) -> AsyncIterator[Message]:
        """Yield announcements in order."""
        while True:
            yield await self._queue.get()


class RedisBroadcast:
    """Several processes: Redis pub/sub on one channel, reconnecting after Redis restarts.

    While Redis is unreachable, ``publish`` logs and drops the announcement; listeners catch
    up from the database when they subscribe again (``RESYNC``), on the room's next
    announcement, on the client's next hello, or at the hub's periodic version check.
    """

    def __init__(self, url: str) -> None:
        self._redis = redis_client(url)  # a burst waits for a connection, never fails
        self.reconnected = asyncio.Event()

    async def connect(self) -> None:
        """Check Redis answers (start-up fails loudly when it does not)."""
        await self._redis.ping()

    async def disconnect(self) -> None:
        """Close the connection pool."""
        await self._redis.aclose()

    async def _publish(self, message: Message) -> None:
        try:
            await self._redis.publish(CHANNEL, encode(message))
        except Exception as exc:  # Redis down: the database still has the truth
            log.warning("publish_failed", room=message.code, kind=message.kind,
                        error=type(exc).__name__)

    async def publish(self, code: str, version: int, delta: str | None = None) -> None:
        """``PUBLISH knobel:rooms "v <code> <version>[ <delta>]"``; errors are logged, not
        raised."""
        await self._publish(Message("v", code, version, delta=delta))

    async def publish_presence(self, code: str, process: str, players: frozenset[str]) -> None:
        """``PUBLISH knobel:rooms "p <code> <process> <players>"``; errors logged."""
        await self._publish(Message("p", code, process=process, players=players))

    async def publish_talk(self, code: str) -> None:
        """``PUBLISH knobel:rooms "c <code>"``; errors logged."""
        await self._publish(Message("c", code))

    async def publish_reaction(self, code: str, seat: int, reaction: str) -> None:
        """``PUBLISH knobel:rooms "r <code> <seat> <reaction>"``; errors logged."""
        await self._publish(Message("r", code, seat=seat, reaction=reaction))

    async def listen(self) -> AsyncIterator[Message]:
        """Subscribe (again after any error, with a short back-off) and yield announcements."""
        delay = 0.1
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                if delay > 0.1 or self.reconnected.is_set():
                    yield RESYNC  # subscribed again: anything may have been missed meanwhile
                delay = 0.1
                self.reconnected.set()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        decoded = decode(message["data"])
                        if decoded:
                            yield decoded
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("subscribe_failed", error=type(exc).__name__)
                yield RESYNC  # tell the hub to resynchronise every room it serves
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
