"""One open room socket: who is on it, in which language, what its page shows, and how text
reaches it: written at once when the socket can take it, otherwise through its own bounded
outgoing queue and writer task (so one slow phone never holds up the table)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import structlog
from starlette.websockets import WebSocket

from app.live.direct import DirectWrite, direct_write

log = structlog.get_logger("knobel.hub")

OUTBOX_LIMIT = 256


class Connection:
    """One open room socket: who is on it (``player_id``), in which language, what it has.

    ``raw_send``: the server's own ASGI ``send`` for this socket (``app.live.direct``); when
    it is uvicorn's, text goes straight to the socket's transport (no task switch, no await)
    while the socket keeps up, and through the outbox and writer task when it does not."""

    def __init__(self, ws: WebSocket, code: str, player_id: str, lang: str,
                 raw_send: Callable[..., Any] | None = None) -> None:
        self.ws = ws
        self.code = code
        self.player_id = player_id
        self.lang = lang
        self.last_version = -1
        self.delivered: Any = None  # what the page shows, as the renderer reported it
        self.talk_keys: Any = None  # the talk parts it shows (app.live.talk)
        self.outbox: asyncio.Queue[str | bytes | None] = asyncio.Queue(maxsize=OUTBOX_LIMIT)
        self.writer: asyncio.Task[None] | None = None
        self.direct: DirectWrite | None = direct_write(raw_send)
        self._writing = False  # the writer task holds a message it has not written yet

    def start(self) -> None:
        """Start the writer task."""
        self.writer = asyncio.create_task(self._write())

    def send(self, text: str, data: bytes | None = None) -> None:
        """Send ``text`` (``data``: the same text UTF-8 encoded, when the caller encoded it
        once for many sockets); see ``send_all``."""
        self.send_all((data if data is not None else text.encode(),))

    def send_all(self, texts: tuple[bytes, ...]) -> None:
        """Send each of ``texts`` (UTF-8) as a message. Written at once, together, when
        nothing is queued before them and the socket's buffer is below its high-water mark;
        otherwise queued, and a client 256 messages behind is disconnected (it reconnects
        and gets a fresh snapshot)."""
        if (self.direct is not None and not self._writing and self.outbox.empty()
                and self.direct.write(*texts)):
            return
        for data in texts:
            try:
                self.outbox.put_nowait(data)
            except asyncio.QueueFull:
                log.warning("slow_consumer", room=self.code, player=self.player_id)
                self.close()
                return

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
            while (item := await self.outbox.get()) is not None:
                self._writing = True
                await self.ws.send_text(item.decode() if isinstance(item, bytes) else item)
                self._writing = False
        except Exception:  # the socket went away; the reader side cleans up
            return
