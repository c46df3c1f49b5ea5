"""The hub: open room sockets of this process, presence, and fan-out of new room versions.

Each connection has its own outgoing queue and writer task, so one slow phone never holds up
the table. Each connection remembers what its page shows, so a new version sends only the
parts that changed for that viewer (see ``app.web.room_view.render_update``).

No page stays behind its room for long, whatever failed: a delivery that fails (the database
did not answer) is tried again with back-off until it works, and every ``check_every`` seconds
the process asks the database (one query) for the version of each room it has sockets in and
catches up every page that is behind (an announcement lost with Redis, a process killed between
its commit and its announcement).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import structlog
from starlette.websockets import WebSocket

from app.live.broadcast import Broadcast, Message
from app.live.idle import IdleRooms
from app.live.presence import Presence

log = structlog.get_logger("knobel.hub")

OUTBOX_LIMIT = 256
SLOW_DELIVERY = 0.05  # seconds: rendering one room's update for longer than this is logged
REDELIVER_DELAYS = (0.1, 0.2, 0.5, 1.0, 2.0)  # seconds before each retry; the last repeats
CHECK_EVERY = 2.0  # seconds between two checks of this process's rooms against the database
Versions = Callable[[list[str]], Awaitable[dict[str, int]]]
"""``versions(codes)`` -> the committed version of each of those rooms (one query)."""
Render = Callable[..., tuple[str, Any]]
"""``render(state, player_id, lang, online, delivered, html=True)`` -> ``(html, delivered)``
(see ``app.web.room_view.render_update``)."""


class Connection:
    """One open room socket: who is on it (``player_id``), in which language, what it has."""

    def __init__(self, ws: WebSocket, code: str, player_id: str, lang: str) -> None:
        self.ws = ws
        self.code = code
        self.player_id = player_id
        self.lang = lang
        self.last_version = -1
        self.delivered: Any = None  # what the page shows, as render() reported it
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=OUTBOX_LIMIT)
        self.writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the writer task."""
        self.writer = asyncio.create_task(self._write())

    def send(self, text: str) -> None:
        """Queue ``text`` for the client; a client 256 messages behind is disconnected
        (it reconnects and gets a fresh snapshot)."""
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("slow_consumer", room=self.code, player=self.player_id)
            self.close()

    def close(self) -> None:
        """Stop the writer and close the socket (1013: try again later)."""
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(None)
        if self.writer:
            self.writer.cancel()
        asyncio.ensure_future(self._close_socket())

    async def _close_socket(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code=1013)

    async def _write(self) -> None:
        try:
            while (text := await self.outbox.get()) is not None:
                await self.ws.send_text(text)
        except Exception:  # the socket went away; the reader side cleans up
            return


class Hub:
    """Sockets by room, presence, and delivery of versions announced on ``broadcast``.

    ``snapshot(code, at_least)`` returns a room state at least that new (from the room
    service); ``render(state, player_id, lang, online, delivered)`` returns the HTML a viewer
    whose page shows ``delivered`` (None: nothing known) receives, and what it shows then;
    ``presence_changed(code)`` tells the room service that someone came or went;
    ``versions(codes)`` reads rooms' committed versions, checked every ``check_every`` seconds
    (None: no periodic check).

    Presence spans processes: each process announces which players have a socket open on it
    (at once when that changes, and every ``HEARTBEAT`` seconds); announcements of a process
    that stops sending expire after ``PRESENCE_TTL`` seconds.
    """

    HEARTBEAT = 5.0
    PRESENCE_TTL = 15.0

    def __init__(
        self,
        broadcast: Broadcast,
        snapshot: Callable[[str, int], Awaitable[Any]],
        render: Render,
        presence_changed: Callable[[str], None] = lambda code: None,
        versions: Versions | None = None,
        check_every: float = CHECK_EVERY,
        idle: IdleRooms | None = None,
        presence: Presence | None = None,
    ) -> None:
        self.broadcast = broadcast
        self.snapshot = snapshot
        self.render = render
        self.presence_changed = presence_changed
        self.versions = versions
        self.check_every = check_every
        self.idle = idle
        self.process = uuid.uuid4().hex[:12]
        self.rooms: dict[str, set[Connection]] = {}
        self.presence = presence or Presence(ttl=self.PRESENCE_TTL)
        self._tasks: list[asyncio.Task[None]] = []
        self._redelivering: dict[str, asyncio.Task[None]] = {}

    def forget_room(self, code: str) -> None:
        """Drop this process's records of room ``code`` (it left memory: no socket here)."""
        self.presence.forget(code)
        task = self._redelivering.pop(code, None)
        if task is not None:
            task.cancel()

    def local(self, code: str) -> frozenset[str]:
        """Player ids with an open socket in room ``code`` on this process."""
        return self.presence.local(code)

    def online(self, code: str) -> frozenset[str]:
        """Player ids with an open socket in room ``code`` on any process."""
        return self.presence.online(code)

    def away_since(self, code: str) -> dict[str, datetime]:
        """When each player of room ``code`` was last seen going away (UTC)."""
        return self.presence.away_since(code)

    async def _presence_update(self, code: str, before: frozenset[str],
                               skip: Connection | None = None) -> None:
        """After a possible change of who is online in ``code``: note who left, tell the
        room service, and show everyone the new presence."""
        if not self.presence.settle(code, before):
            return
        self.presence_changed(code)
        try:
            await self.deliver(code, force=True, skip=skip)
        except Exception:  # the room could not be read: show the new presence later
            log.exception("deliver_failed", room=code, version=0)
            self.redeliver(code)

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
        """Re-announce this process's presence; expire silent processes' presence."""
        while True:
            await asyncio.sleep(self.HEARTBEAT)
            for code in list(self.rooms):
                await self.broadcast.publish_presence(code, self.process, self.local(code))
            for code, before in self.presence.expire():
                await self._presence_update(code, before)

    def shown(self, conn: Connection, state: Any) -> None:
        """Note that ``conn``'s page already shows ``state`` (it said so in its hello), so
        later versions send it only what changed. Presence (and with it the away countdowns)
        may have moved since the page was served, its own player coming back included: the
        seat list is sent now (the whole live area where it has no separate parts)."""
        conn.last_version = state.version
        online = self.online(conn.code)
        _, delivered = self.render(state, conn.player_id, conn.lang, online, None, html=False)
        if delivered is not None:
            delivered.keys["seats"] = None
        html, conn.delivered = self.render(state, conn.player_id, conn.lang, online, delivered)
        if html:
            conn.send(html)

    async def send_snapshot(self, conn: Connection, known: int = -1) -> None:
        """Send ``conn`` the whole live room as it is now (from the database when ``known``
        is newer than our copy: another process wrote it)."""
        state = await self.snapshot(conn.code, known + 1 if known >= 0 else 0)
        if state is not None:
            conn.last_version = state.version
            html, conn.delivered = self.render(state, conn.player_id, conn.lang,
                                               self.online(conn.code), None)
            conn.send(html)

    async def deliver(
        self, code: str, version: int = 0, force: bool = False, skip: Connection | None = None
    ) -> None:
        """Send every socket of room ``code`` that is behind ``version`` its fragment."""
        conns = [c for c in self.rooms.get(code, ()) if c is not skip]
        if not conns:
            return
        state = await self.snapshot(code, version)
        if state is None:
            return
        started = time.perf_counter()
        online = self.online(code)
        for conn in conns:
            if conn.last_version > state.version or (
                    not force and conn.last_version >= state.version):
                continue  # it has this version already, or a newer one (never go back)
            html, conn.delivered = self.render(state, conn.player_id, conn.lang, online,
                                               conn.delivered)
            conn.last_version = state.version
            if html:
                conn.send(html)
        took = time.perf_counter() - started
        if took > SLOW_DELIVERY:
            log.warning("slow_delivery", room=code, version=state.version, sockets=len(conns),
                        ms=round(took * 1000, 1))

    def redeliver(self, code: str) -> None:
        """After a failed delivery to room ``code``: reload it from the database and send every
        socket what changed (versions and presence), after 0.1, 0.2, 0.5, 1 and then every 2 s,
        until that works or the room has no socket here any more (one retry task per room)."""
        if code not in self._redelivering:
            self._redelivering[code] = asyncio.create_task(self._redeliver(code))

    async def _redeliver(self, code: str) -> None:
        try:
            for attempt in itertools.count(1):
                await asyncio.sleep(REDELIVER_DELAYS[min(attempt, len(REDELIVER_DELAYS)) - 1])
                if code not in self.rooms:
                    return
                try:
                    await self.deliver(code, -1, force=True)
                except Exception as exc:
                    log.warning("redeliver_failed", room=code, attempt=attempt,
                                error=type(exc).__name__)
                    continue
                log.info("redelivered", room=code, attempt=attempt)
                return
        finally:
            self._redelivering.pop(code, None)

    async def _check(self) -> None:
        """Every ``check_every`` seconds: read the committed version of every room with a
        socket here; deliver where a socket is behind it (its announcement was lost, or the
        process that committed it died before announcing it)."""
        assert self.versions is not None
        while True:
            await asyncio.sleep(self.check_every)
            if not self.rooms:
                continue
            try:
                versions = await self.versions(list(self.rooms))
            except Exception as exc:
                log.warning("version_check_failed", rooms=len(self.rooms),
                            error=type(exc).__name__)
                continue
            caught_up = 0
            for code, version in versions.items():
                if not any(c.last_version < version for c in self.rooms.get(code, ())):
                    continue
                caught_up += 1
                try:
                    await self.deliver(code, version)
                except Exception:
                    log.exception("deliver_failed", room=code, version=version)
                    self.redeliver(code)
                await asyncio.sleep(0)  # one room per turn, as in run()
            if caught_up:  # lost announcements, or ones still on their way
                log.info("caught_up", rooms=caught_up)

    async def _resync(self) -> None:
        """Messages may have been lost: reload every room with a socket here from the
        database, deliver what changed, and announce this process's presence again."""
        for room in list(self.rooms):
            try:
                await self.deliver(room, -1)
            except Exception:
                log.exception("deliver_failed", room=room, version=-1)
                self.redeliver(room)
            await self.broadcast.publish_presence(room, self.process, self.local(room))

    async def run(self) -> None:
        """Deliver every announced version to this process's sockets, until cancelled."""
        async for message in self.broadcast.listen():
            try:
                if message.kind == "*":
                    await self._resync()
                elif message.kind == "p":
                    await self._remote_presence(message)
                else:
                    await self.deliver(message.code, message.version)
            except Exception:
                log.exception("deliver_failed", room=message.code, version=message.version)
                self.redeliver(message.code)
            # One room's fragments take milliseconds each to render. Queued announcements do
            # not suspend this loop, so without this a backlog would hold the event loop (the
            # writers, the socket readers, and the database replies of every pooled
            # connection) for seconds: one room per turn.
            await asyncio.sleep(0)

    def start(self) -> None:
        """Start the delivery loop, the presence heartbeat and the version check."""
        self._tasks = [asyncio.create_task(self.run()), asyncio.create_task(self._heartbeat())]
        if self.versions is not None:
            self._tasks.append(asyncio.create_task(self._check()))

    async def stop(self) -> None:
        """Stop delivering and close every socket (1012: service restart)."""
        for task in [*self._tasks, *self._redelivering.values()]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for conns in list(self.rooms.values()):
            for conn in list(conns):
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1012)
