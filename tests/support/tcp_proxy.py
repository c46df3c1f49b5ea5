"""A TCP proxy in front of Postgres that can lose the server's answer to one statement.

The app connects to the proxy instead of the server. ``lose_reply(tag)`` arms it: the next chunk
the server sends that contains the command tag ``tag`` (``b"INSERT 0 1"``, ``b"COMMIT"``: the
server sends it once the statement is committed) is dropped and both sides of that connection
are cut. The database has done the work; the app sees its connection die mid-statement, as when
Postgres or the network fails at that instant.
"""

from __future__ import annotations

import asyncio
import contextlib


class ReplyLosingProxy:
    """``127.0.0.1:<port>`` forwarding to ``host:port``; runs on the current event loop.

    ``lose_reply(tag)`` arms one cut; ``cuts`` counts the cuts done; ``connections`` counts
    the client connections accepted. Use ``async with`` (or ``start()`` / ``close()``).
    """

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.cuts = 0
        self.connections = 0
        self._tag: bytes | None = None
        self._cut = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> ReplyLosingProxy:
        """Listen on a free port (``self.port``)."""
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def lose_reply(self, tag: bytes) -> None:
        """Cut the connection whose server next answers with command tag ``tag``."""
        self._tag = tag + b"\x00"  # CommandComplete: the tag as a NUL-terminated string
        self._cut.clear()

    async def wait_cut(self, timeout: float = 10) -> None:
        """Wait until the armed cut happened."""
        await asyncio.wait_for(self._cut.wait(), timeout)

    async def _accept(self, client_r: asyncio.StreamReader,
                      client_w: asyncio.StreamWriter) -> None:
        self.connections += 1
        server_r, server_w = await asyncio.open_connection(*self.target)
        self._writers |= {client_w, server_w}
        pipes = {asyncio.ensure_future(self._pipe(client_r, server_w, None)),
                 asyncio.ensure_future(self._pipe(server_r, client_w, (client_w, server_w)))}
        try:
            await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for writer in (client_w, server_w):
                writer.transport.abort()
                self._writers.discard(writer)
            for pipe in pipes:
                pipe.cancel()
                # a pipe ends with EOF, or the reset of the connection the other one cut
                with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                    await pipe

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    cut: tuple[asyncio.StreamWriter, asyncio.StreamWriter] | None) -> None:
        while data := await reader.read(65536):
            if cut is not None and self._tag is not None and self._tag in data:
                self._tag = None
                self.cuts += 1
                for side in cut:
                    side.transport.abort()
                self._cut.set()
                return
            writer.write(data)
            await writer.drain()

    async def close(self) -> None:
        """Stop listening and cut every connection."""
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()

    async def __aenter__(self) -> ReplyLosingProxy:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
