"""The bare fan-out baseline for ``bench/rooms_load.py``: a minimal WebSocket server.

It does nothing but fan out: a client connects to ``/r/<room>/ws`` (any room name); on each
message from a client the server bumps that room's counter ``N``, sends the sender a small
acknowledgement (``data-ack="<action_id>" data-version="N"``, so the load generator can time
the action exactly as it does against the app) and hands one payload of the app's live
fragment size to ``websockets.broadcast()`` for the *other* clients of the room. No database,
no rules, no rendering, no presence: the cost of moving the bytes, which is the ceiling for
any server written in Python on this machine.

The payload is a real live fragment captured from the app (``--payload-file``; its leading
``<div id="live" ... data-version="..."`` is rewritten per message) or, without one, filler
HTML of ``--payload-bytes``. Per-message deflate is negotiated as uvicorn does (same window
bits and memLevel), unless ``--no-compression``.

Run: ``python bench/fanout_baseline.py --port 8765 [--payload-file live.html]``; stop it with
SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import signal
import socket
from pathlib import Path

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

HEAD = re.compile(r'^\s*<div id="live"[^>]*>', re.S)


def payload_parts(path: str | None, size: int) -> tuple[str, str]:
    """``(prefix_before_version, rest)``: the payload is ``prefix + str(N) + rest``."""
    if path:
        body = Path(path).read_text(encoding="utf-8")
        m = HEAD.match(body)
        body = body[m.end():] if m else body
    else:
        row = '<span class="cell" role="gridcell" data-value="7">7</span>\n'
        body = (row * (size // len(row) + 1))[:size]
    return '<div id="live" hx-swap-oob="true" data-version="', '" data-status="playing">' + body


class Rooms:
    """Connections and message counters by room name."""

    def __init__(self, prefix: str, rest: str) -> None:
        self.prefix, self.rest = prefix, rest
        self.members: dict[str, set[ServerConnection]] = {}
        self.versions: dict[str, int] = {}

    async def handler(self, ws: ServerConnection) -> None:
        """Serve one client until it goes."""
        room = ws.request.path if ws.request else "/"
        members = self.members.setdefault(room, set())
        members.add(ws)
        try:
            async for message in ws:
                version = self.versions.get(room, 0) + 1
                self.versions[room] = version
                try:
                    action_id = json.loads(message).get("action_id", "")
                except (ValueError, AttributeError):
                    action_id = ""
                broadcast([ws], f'<div id="room-ack" hx-swap-oob="true" hidden '
                                f'data-ack="{action_id}" data-version="{version}" '
                                f'data-duplicate="false"></div>')
                broadcast([c for c in members if c is not ws],
                          f"{self.prefix}{version}{self.rest}")
        finally:
            members.discard(ws)
            if not members:
                self.members.pop(room, None)


async def main(args: argparse.Namespace) -> None:
    prefix, rest = payload_parts(args.payload_file, args.payload_bytes)
    rooms = Rooms(prefix, rest)
    extensions = [] if args.no_compression else [ServerPerMessageDeflateFactory(
        server_max_window_bits=12, client_max_window_bits=12, compress_settings={"memLevel": 5})]
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set_result, None)
    where = ({"sock": socket.socket(fileno=args.fd)} if args.fd is not None
             else {"host": args.host, "port": args.port})
    async with serve(rooms.handler, compression=None, extensions=extensions,
                     max_size=2**20, ping_interval=None, backlog=4096, **where) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print(f"baseline listening on ws://{args.host}:{port}", flush=True)
        await stop


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--fd", type=int, help="serve on this inherited listening socket "
                        "(instead of --host/--port: the caller holds the port)")
    parser.add_argument("--payload-file", help="a captured live fragment to broadcast")
    parser.add_argument("--payload-bytes", type=int, default=48_000,
                        help="filler size when no --payload-file (default 48000)")
    parser.add_argument("--no-compression", action="store_true",
                        help="do not negotiate per-message deflate")
    parser.add_argument("--no-uvloop", action="store_true",
                        help="plain asyncio (default: uvloop when installed, as uvicorn does)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse_args()
    try:
        import uvloop
    except ImportError:
        uvloop = None
    if uvloop is not None and not arguments.no_uvloop:
        uvloop.run(main(arguments))
    else:
        asyncio.run(main(arguments))
