"""The hub's direct writes (``app.live.direct``) through a real uvicorn serving a real socket:
frames go straight to the transport, in order with the queued ones; a socket that stops
reading is written through its queue and then closed, without delaying the others; Nagle's
algorithm is off even on a listener handed over as a file descriptor (``uvicorn --fd``)."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect

from app.live.connection import OUTBOX_LIMIT, Connection
from app.live.direct import RAW_SEND, RawSend

BIG = "x" * 60_000  # a frame a few of which fill a socket buffer


class Table:
    """The server side: every socket as a ``Connection``, by the name in its path."""

    def __init__(self) -> None:
        self.conns: dict[str, Connection] = {}
        self.opened = asyncio.Event()
        self.nodelay: dict[str, int] = {}

    async def endpoint(self, ws: WebSocket) -> None:
        await ws.accept()
        name = ws.path_params["name"]
        conn = self.conns[name] = Connection(ws, "ROOM", name, "en", ws.scope.get(RAW_SEND))
        conn.start()
        if conn.direct is not None:
            sock = conn.direct._protocol.transport.get_extra_info("socket")
            self.nodelay[name] = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        self.opened.set()
        try:
            while (await ws.receive())["type"] != "websocket.disconnect":
                pass
        finally:
            if conn.writer:
                conn.writer.cancel()


@pytest.fixture
async def served():
    """uvicorn in this event loop on a TCP listener handed over by its descriptor, as
    ``uvicorn --fd`` (and systemd socket activation) does; stopped at the end."""
    table = Table()
    app = RawSend(Starlette(routes=[WebSocketRoute("/ws/{name}", table.endpoint)]))
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, fd=listener.fileno(), lifespan="off",
                                           log_level="warning", ws="websockets-sansio"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield table, f"ws://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)
        listener.close()


async def test_frames_go_straight_to_the_socket_in_order(served) -> None:
    table, url = served
    async with connect(f"{url}/ws/anna", compression=None) as client:
        await asyncio.wait_for(table.opened.wait(), 5)
        conn = table.conns["anna"]
        assert conn.direct is not None  # uvicorn's sans-I/O protocol: the direct path
        assert table.nodelay["anna"] != 0  # Nagle off, though the listener came as an fd
        for n in range(50):
            conn.send(f"<p>{n}</p>", f"<p>{n}</p>".encode() if n % 2 else None)
        assert conn.outbox.empty()  # nothing had to wait
        got = [await asyncio.wait_for(client.recv(), 5) for _ in range(50)]
    assert got == [f"<p>{n}</p>" for n in range(50)]


async def test_two_small_frames_in_a_row_are_not_held_back(served) -> None:
    """With Nagle on, the second of two small frames waits for the client's delayed ACK of
    the first (40 ms): the bench's p95 of 44 ms (session 16)."""
    table, url = served
    async with connect(f"{url}/ws/anna", compression=None) as client:
        await asyncio.wait_for(table.opened.wait(), 5)
        conn = table.conns["anna"]
        worst = 0.0
        for n in range(20):
            started = time.perf_counter()
            conn.send(f"a{n}")
            conn.send(f"b{n}")
            assert await client.recv() == f"a{n}"
            assert await client.recv() == f"b{n}"
            worst = max(worst, time.perf_counter() - started)
            await client.send("ack")  # the client answers, as a page does with actions
    assert worst < 0.03, worst


async def test_a_socket_that_stops_reading_is_queued_then_closed(served) -> None:
    table, url = served
    async with connect(f"{url}/ws/slow", compression=None, max_size=None) as slow, \
            connect(f"{url}/ws/fast", compression=None, max_size=None) as fast:
        while len(table.conns) < 2:
            await asyncio.sleep(0.01)
        slow_conn, fast_conn = table.conns["slow"], table.conns["fast"]
        slow.transport.pause_reading()  # this phone stops reading
        queued_at = None
        for n in range(OUTBOX_LIMIT + 200):
            slow_conn.send(BIG)
            fast_conn.send(f"{n}")
            if queued_at is None and not slow_conn.outbox.empty():
                queued_at = n  # its buffer is full: from here its frames wait in the queue
            await asyncio.sleep(0)
        # the fast socket got every frame at once, in order, whatever the slow one did
        assert [await asyncio.wait_for(fast.recv(), 5) for _ in range(OUTBOX_LIMIT + 200)] \
            == [f"{n}" for n in range(OUTBOX_LIMIT + 200)]
        assert queued_at is not None and queued_at < 100
        assert slow_conn.writer is not None and slow_conn.writer.cancelled()  # given up on
        slow.transport.resume_reading()
        with pytest.raises(Exception):  # noqa: B017 - closed (1013) once its queue was full
            while True:
                await asyncio.wait_for(slow.recv(), 5)
        assert slow.close_code == 1013
