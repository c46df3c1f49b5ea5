"""Writing a text frame straight to a socket served by uvicorn, the way
``websockets.broadcast`` does: the connection's own sans-I/O protocol (the ``websockets``
library) encodes the frame and the transport takes it, synchronously; no ASGI message, no
middleware, no task switch.

The room hub sends every new version to every socket of a room; through ASGI each send is an
awaited chain (Starlette's ``WebSocket.send_text``, each middleware's ``send`` wrapper,
uvicorn's ``send``) run in the socket's writer task. The server's ASGI ``send`` is kept in the
scope by ``RawSend`` (the outermost middleware, ``app.main``); where it is uvicorn's
``websockets-sansio`` protocol (uvicorn's default with ``websockets`` installed), its
``conn`` (``websockets.server.ServerProtocol``) and ``transport`` are used directly.

A write is refused (``DirectWrite.write`` returns False, the caller queues instead) while the
transport's buffer is above its high-water mark (uvicorn's ``writable`` event is clear), the
closing handshake started, or the socket went: the slow path (``Connection``'s writer) then
waits for it, so a slow socket never holds up the others and bytes never reorder.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send
from websockets.protocol import State

RAW_SEND = "knobel.raw_send"  # the scope key of the server's own ``send``


class DirectWrite:
    """The write-through path of one socket served by uvicorn's sans-I/O protocol."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol

    def write(self, *texts: bytes) -> bool:
        """Write each of ``texts`` (UTF-8) as a text frame, all in one write to the socket
        (so they travel together); False when the socket cannot take them now (paused,
        closing or gone: nothing was written)."""
        protocol = self._protocol
        if (protocol.disconnected or protocol.close_sent or not protocol.writable.is_set()
                or protocol.conn.state is not State.OPEN or protocol.transport.is_closing()):
            return False
        for data in texts:
            protocol.conn.send_text(data)
        protocol.transport.write(b"".join(protocol.conn.data_to_send()))
        return True


def direct_write(raw_send: Callable[..., Any] | None) -> DirectWrite | None:
    """The direct path for a socket whose server ``send`` is ``raw_send`` (None: the server
    is not uvicorn's sans-I/O protocol, e.g. Starlette's test client; use the ASGI path)."""
    protocol = getattr(raw_send, "__self__", None)
    if protocol is None or type(protocol).__name__ != "WebSocketsSansIOProtocol":
        return None
    if not all(hasattr(protocol, name) for name in ("conn", "transport", "writable",
                                                    "disconnected", "close_sent")):
        return None
    no_delay(protocol.transport)
    return DirectWrite(protocol)


def no_delay(transport: Any) -> None:
    """Turn Nagle's algorithm off on ``transport``'s TCP socket, so a small frame written
    right after another is sent at once, not held until the client acknowledges the first
    (up to its delayed-ACK time, 40 ms on Linux). asyncio and uvloop do that for the
    sockets of a listener they open, but not for one handed over as a file descriptor
    (``uvicorn --fd``, systemd socket activation), which uvicorn takes for a Unix socket.
    Nothing happens for a socket that is not TCP."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class RawSend:
    """ASGI middleware (the outermost): keeps a WebSocket scope's server ``send`` in the
    scope under ``RAW_SEND`` for ``direct_write``; everything else passes untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Call the app (a WebSocket's scope gains ``RAW_SEND``)."""
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send
        await self.app(scope, receive, send)
