"""The hub: open room sockets of this process, presence, and fan-out of new room versions.

Each connection (``app.live.connection``) has its own outgoing queue and writer task, so one
slow phone never holds up the table. Each connection remembers what its page shows, so a new
version sends only the parts that changed for that viewer; sending, retrying and the periodic
catch-up are ``app.live.delivery``'s job, rendering is the renderer's (``app.web.room_view``).
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime

import structlog

from app.live.broadcast import Broadcast, Message
from app.live.connection import OUTBOX_LIMIT, Connection
from app.live.delivery import Delivery, Renderer, Snapshot, Versions
from app.live.idle import IdleRooms
from app.live.presence import Presence
from app.live.talk import TalkDelivery, TalkRenderer, TalkSource
from app.store.periodic import Periodic

log = structlog.get_logger("knobel.hub")

CHECK_EVERY = 2.0  # seconds between two checks of this process's rooms against the database

__all__ = ["CHECK_EVERY", "OUTBOX_LIMIT", "Connection", "Hub", "Renderer", "Versions"]


def snapshot_now(snapshot: Snapshot) -> Callable[[str], Awaitable[object]]:
    """``state_of(code)``: the room state this process holds (``snapshot`` at least 0)."""
    return lambda code: snapshot(code, 0, None)


class Hub:
    """Sockets by room, presence, and delivery of versions announced on ``broadcast``.

    ``snapshot(code, at_least)`` returns a room state at least that new (from the room
    service); ``renderer`` renders what each viewer receives (``Renderer``);
    ``presence_changed(code)`` tells the room service that someone came or went;
    ``versions(codes)`` reads rooms' committed versions, checked every ``check_every`` seconds
    (None: no periodic check); ``idle`` is told when a room gets or loses its last socket here;
    ``talk`` and ``talk_renderer``: the chat lines and reactions, delivered beside the room
    (``app.live.talk``; None: no talk).

    Presence spans processes: each process announces which players have a socket open on it
    (at once when that changes, and every third of the presence's ``ttl``); announcements of
    a process that stops sending expire ``ttl`` seconds after its last one, and this process
    shows them gone at that moment (``PRESENCE_TTL`` unless ``presence`` says otherwise).
    """

    PRESENCE_TTL = 15.0

    def __init__(
        self,
        broadcast: Broadcast,
        snapshot: Snapshot,
        renderer: Renderer,
        presence_changed: Callable[[str], None] = lambda code: None,
        versions: Versions | None = None,
        check_every: float = CHECK_EVERY,
        idle: IdleRooms | None = None,
        presence: Presence | None = None,
        talk: TalkSource | None = None,
        talk_renderer: TalkRenderer | None = None,
    ) -> None:
        self.broadcast = broadcast
        self.presence_changed = presence_changed
        self.versions = versions
        self.check_every = check_every
        self.idle = idle
        self.process = uuid.uuid4().hex[:12]
        self.presence = presence or Presence(ttl=self.PRESENCE_TTL)
        self.heartbeat = self.presence.ttl / 3  # two announcements may be lost in a row
        self.rooms: dict[str, set[Connection]] = {}
        self.talk = (TalkDelivery(self.rooms, talk, snapshot_now(snapshot), talk_renderer)
                     if talk is not None and talk_renderer is not None else None)
        self.delivery = Delivery(snapshot, renderer, self.presence.online, self.rooms,
                                 self.talk.refresh if self.talk else lambda conn, state: None)
        self._tasks: list[asyncio.Task[None]] = []
        versions_of = versions
        self._check = None if versions_of is None else Periodic(
            lambda: self.delivery.check(versions_of), check_every, "live_check")

    def forget_room(self, code: str) -> None:
        """Drop this process's records of room ``code`` (it left memory: no socket here)."""
        self.presence.forget(code)
        self.delivery.forget(code)
        if self.talk:
            self.talk.forget(code)

    def socket_count(self) -> int:
        """How many room sockets are open in this process."""
        return sum(len(conns) for conns in self.rooms.values())

    def local(self, code: str) -> frozenset[str]:
        """Player ids with an open socket in room ``code`` on this process."""
        return self.presence.local(code)

    def online(self, code: str) -> frozenset[str]:
        """Player ids with an open socket in room ``code`` on any process."""
        return self.presence.online(code)

    def away_since(self, code: str) -> dict[str, datetime]:
        """When each player of room ``code`` was last seen going away (UTC)."""
        return self.presence.away_since(code)

    def shown(self, conn: Connection, state: object,
              own: frozenset[str] = frozenset()) -> None:
        """``conn``'s page already shows ``state`` (``Delivery.shown``); ``own``: the
        parts it says it shows as its own."""
        self.delivery.shown(conn, state, own)

    async def send_snapshot(self, conn: Connection, known: int = -1) -> None:
        """Send ``conn`` the whole live room as it is now (``Delivery.send_snapshot``)."""
        await self.delivery.send_snapshot(conn, known)

    async def _presence_update(self, code: str, before: frozenset[str],
                               skip: Connection | None = None) -> None:
        """After a possible change of who is online in ``code``: note who left, tell the
        room service, and show everyone the new presence."""
        if not self.presence.settle(code, before):
            return
        self.presence_changed(code)
        await self.delivery.deliver_or_retry(code, force=True, skip=skip)

    async def add(self, conn: Connection) -> None:
        """Register ``conn``; everyone in the room sees the player come online."""
        before = self.online(conn.code)
        local_before = self.local(conn.code)
        if self.idle:
            self.idle.occupied(conn.code)
        self.rooms.setdefault(conn.code, set()).add(conn)
        self.presence.opened(conn.code, conn.player_id)
        conn.start()
        if self.local(conn.code) != local_before:
            await self.broadcast.publish_presence(conn.code, self.process, self.local(conn.code))
        await self._presence_update(conn.code, before, skip=conn)

    async def remove(self, conn: Connection) -> None:
        """Unregister ``conn``; when it was the player's last socket, they show as away."""
        conns = self.rooms.get(conn.code)
        if conns is None or conn not in conns:
            return
        before = self.online(conn.code)
        local_before = self.local(conn.code)
        conns.discard(conn)
        self.presence.closed(conn.code, conn.player_id)
        if conn.writer:
            conn.writer.cancel()
        if not conns:
            self.rooms.pop(conn.code, None)
            if self.idle:
                self.idle.emptied(conn.code)
        if self.local(conn.code) != local_before:
            await self.broadcast.publish_presence(conn.code, self.process, self.local(conn.code))
        await self._presence_update(conn.code, before)

    async def _remote_presence(self, message: Message) -> None:
        if message.process == self.process:
            return
        before = self.online(message.code)
        self.presence.announced(message.code, message.process, message.players)
        await self._presence_update(message.code, before)

    async def _heartbeat(self) -> None:
        """Re-announce this process's presence every ``heartbeat`` seconds; expire a silent
        process's announcements the moment they run out."""
        clock = self.presence.clock
        beat = clock() + self.heartbeat
        while True:
            expiry = self.presence.next_expiry()
            await asyncio.sleep(max(0.0, min(beat, expiry if expiry is not None else beat)
                                    - clock()))
            if clock() >= beat:
                beat = clock() + self.heartbeat
                for code in list(self.rooms):
                    await self.broadcast.publish_presence(code, self.process, self.local(code))
            for code, before in self.presence.expire():
                await self._presence_update(code, before)

    async def _resync(self) -> None:
        """Messages may have been lost: reload every room with a socket here from the
        database, deliver what changed, and announce this process's presence again."""
        for room in list(self.rooms):
            await self.delivery.deliver_or_retry(room, -1)
            await self.broadcast.publish_presence(room, self.process, self.local(room))

    async def run(self) -> None:
        """Deliver every announced version to this process's sockets, until cancelled."""
        async for message in self.broadcast.listen():
            try:
                if message.kind == "*":
                    await self._resync()
                elif message.kind == "p":
                    await self._remote_presence(message)
                elif message.kind == "c":
                    if self.talk:
                        self.talk.changed(message.code)
                elif message.kind == "r":
                    if self.talk:
                        await self.talk.flash(message.code, message.seat, message.reaction)
                else:
                    await self.delivery.deliver(message.code, message.version,
                                                delta=message.delta)
            except Exception:
                log.exception("deliver_failed", room=message.code, version=message.version)
                self.delivery.redeliver(message.code)
            # One room's fragments take milliseconds each to render. Queued announcements do
            # not suspend this loop, so without this a backlog would hold the event loop (the
            # writers, the socket readers, and the database replies of every pooled
            # connection) for seconds: one room per turn.
            await asyncio.sleep(0)

    def start(self) -> None:
        """Start the delivery loop, the presence heartbeat and the version check."""
        self._tasks = [asyncio.create_task(self.run()), asyncio.create_task(self._heartbeat())]
        if self._check is not None:
            self._check.start()

    async def stop(self) -> None:
        """Stop delivering and close every socket (1012: service restart). The version
        check stops between two checks, not inside one's database read."""
        if self._check is not None:
            await self._check.stop()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.delivery.stop()
        for conns in list(self.rooms.values()):
            for conn in list(conns):
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1012)
