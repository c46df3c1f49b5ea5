"""The hub: open room sockets of this process, presence, and fan-out of new room versions.

Each connection has its own outgoing queue and writer task, so one slow phone never holds up
the table. Fragments are rendered once per distinct view (seat and language) per version.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import structlog
from starlette.websockets import WebSocket

from app.live.broadcast import Broadcast

log = structlog.get_logger("knobel.hub")

OUTBOX_LIMIT = 256
Render = Callable[[Any, str | None, str, frozenset[str]], str]


class Connection:
    """One open room socket: who is on it (``player_id``), in which language, what it has."""

    def __init__(self, ws: WebSocket, code: str, player_id: str, lang: str) -> None:
        self.ws = ws
        self.code = code
        self.player_id = player_id
        self.lang = lang
        self.last_version = -1
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
    service); ``render(state, player_id, lang, online)`` returns the HTML a viewer receives;
    ``presence_changed(code)`` tells the room service that someone came or went.
    """

    def __init__(
        self,
        broadcast: Broadcast,
        snapshot: Callable[[str, int], Awaitable[Any]],
        render: Render,
        presence_changed: Callable[[str], None] = lambda code: None,
    ) -> None:
        self.broadcast = broadcast
        self.snapshot = snapshot
        self.render = render
        self.presence_changed = presence_changed
        self.rooms: dict[str, set[Connection]] = {}
        self._away: dict[str, dict[str, datetime]] = {}
        self._task: asyncio.Task[None] | None = None

    def online(self, code: str) -> frozenset[str]:
        """Player ids with at least one open socket in room ``code`` (this process)."""
        return frozenset(c.player_id for c in self.rooms.get(code, ()))

    def away_since(self, code: str) -> dict[str, datetime]:
        """When each player of room ``code`` closed their last socket here (UTC)."""
        return self._away.get(code, {})

    async def add(self, conn: Connection) -> None:
        """Register ``conn``; everyone in the room sees the player come online."""
        was_online = conn.player_id in self.online(conn.code)
        self.rooms.setdefault(conn.code, set()).add(conn)
        self._away.get(conn.code, {}).pop(conn.player_id, None)
        conn.start()
        if not was_online:
            self.presence_changed(conn.code)
            await self.deliver(conn.code, force=True, skip=conn)

    async def remove(self, conn: Connection) -> None:
        """Unregister ``conn``; when it was the player's last socket, they show as away."""
        conns = self.rooms.get(conn.code)
        if conns is None or conn not in conns:
            return
        conns.discard(conn)
        if conn.writer:
            conn.writer.cancel()
        if not conns:
            self.rooms.pop(conn.code, None)
        if conn.player_id not in self.online(conn.code):
            self._away.setdefault(conn.code, {})[conn.player_id] = datetime.now(UTC)
            self.presence_changed(conn.code)
            await self.deliver(conn.code, force=True)

    async def send_snapshot(self, conn: Connection, known: int = -1) -> None:
        """Send ``conn`` the whole live room as it is now (from the database when ``known``
        is newer than our copy: another process wrote it)."""
        state = await self.snapshot(conn.code, known + 1 if known >= 0 else 0)
        if state is not None:
            conn.last_version = state.version
            conn.send(self.render(state, conn.player_id, conn.lang, self.online(conn.code)))

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
        online = self.online(code)
        rendered: dict[tuple[str | None, str], str] = {}
        for conn in conns:
            if not force and conn.last_version >= state.version:
                continue
            seat = state.seat_of(conn.player_id)
            key = (conn.player_id if seat else None, conn.lang)
            if key not in rendered:
                rendered[key] = self.render(state, conn.player_id, conn.lang, online)
            conn.last_version = state.version
            conn.send(rendered[key])

    async def run(self) -> None:
        """Deliver every announced version to this process's sockets, until cancelled."""
        async for code, version in self.broadcast.listen():
            try:
                if code == "*":  # the backend lost messages: resynchronise every room here
                    for room in list(self.rooms):
                        await self.deliver(room, -1)
                else:
                    await self.deliver(code, version)
            except Exception:
                log.exception("deliver_failed", room=code, version=version)

    def start(self) -> None:
        """Start the delivery loop."""
        self._task = asyncio.create_task(self.run())

    async def stop(self) -> None:
        """Stop delivering and close every socket (1012: service restart)."""
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        for conns in list(self.rooms.values()):
            for conn in list(conns):
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1012)
