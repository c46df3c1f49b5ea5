"""One open room socket: who is on it, in which language, what its page shows, and its own
outgoing queue and writer task (so one slow phone never holds up the table)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import structlog
from starlette.websockets import WebSocket

log = structlog.get_logger("knobel.hub")

OUTBOX_LIMIT = 256


class Connection:
    """One open room socket: who is on it (``player_id``), in which language, what it has."""

    def __init__(self, ws: WebSocket, code: str, player_id: str, lang: str) -> None:
        self.ws = ws
        self.code = code
        self.player_id = player_id
        self.lang = lang
        self.last_version = -1
        self.delivered: Any = None  # what the page shows, as the renderer reported it
        self.talk_keys: Any = None  # the talk parts it shows (app.live.talk)
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
