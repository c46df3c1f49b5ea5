"""Scripted players for live-room tests: an HTTP client with its own guest cookie, and a
real WebSocket client (the ``websockets`` library) speaking the room protocol."""

from __future__ import annotations

import asyncio
import html
import json
import re
import uuid
from dataclasses import dataclass, field

import httpx
from websockets.asyncio.client import ClientConnection, connect

ACK = re.compile(r'data-ack="([^"]*)" data-version="(\d+)" data-duplicate="(\w+)"')
ERROR = re.compile(r'data-error="([a-z_]+)"(?: data-action-id="([^"]*)")?')
LIVE = re.compile(r'<div id="live(?:-version)?"[^>]*data-version="(\d+)"')
BASIS = re.compile(r'<div id="live-version"[^>]*data-version="(\d+)"[^>]*data-basis=\'([^\']*)\'')
# The newest version acknowledged per room, over every socket of the test: a scripted player
# looks at the table (waits for that version) before acting, as a person would.
_ACKED: dict[str, int] = {}


@dataclass
class Reply:
    """The server's answer to one action: ``ok`` with ``version``, or an error ``code``."""

    ok: bool
    version: int = 0
    code: str = ""
    duplicate: bool = False


class RoomSocket:
    """One open room page: sends actions, collects every fragment it receives.

    Like the page's script, every action carries the basis the page shows (the
    ``#live-version`` marker's ``data-basis``: room version, game number, the game's own
    fields); fields passed to ``act`` override it (to send a stale action on purpose).
    """

    def __init__(self, ws: ClientConnection, code: str = "") -> None:
        self.ws = ws
        self.code = code
        self.fragments: list[str] = []
        self.version = -1
        self.basis: dict = {}
        self._basis_version = -1
        self._waiters: dict[str, asyncio.Future[Reply]] = {}
        self._reader = asyncio.create_task(self._read())
        self._changed = asyncio.Event()

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self.fragments.append(text)
                for m in BASIS.finditer(text):
                    if int(m.group(1)) >= self._basis_version:
                        self._basis_version = int(m.group(1))
                        self.basis = json.loads(html.unescape(m.group(2)))
                if m := LIVE.search(text):
                    self.version = max(self.version, int(m.group(1)))
                    self._changed.set()
                for m in ACK.finditer(text):
                    self._resolve(m.group(1), Reply(True, int(m.group(2)),
                                                    duplicate=m.group(3) == "true"))
                for m in ERROR.finditer(text):
                    self._resolve(m.group(2) or "", Reply(False, code=m.group(1)))
        except Exception:
            pass

    def _resolve(self, action_id: str, reply: Reply) -> None:
        fut = self._waiters.pop(action_id, None)
        if fut and not fut.done():
            fut.set_result(reply)

    async def send_raw(self, text: str | bytes) -> None:
        """Send anything, as a fuzzer would."""
        await self.ws.send(text)

    async def act(self, kind: str, action_id: str | None = None, timeout: float = 10,
                  basis: dict | None = None, **fields) -> Reply:
        """Send ``{"type": kind, "action_id": ..., **basis, **fields}`` and wait for the ack
        or error (``basis``: the page's own unless given). First waits until this page shows
        the newest version acknowledged in the room (so it acts on what a person would see);
        after an ack, until it shows the version the action made."""
        await self.wait_version(max(_ACKED.get(self.code, 0), 0), timeout)
        action_id = action_id or uuid.uuid4().hex
        fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiters[action_id] = fut
        base = self.basis if basis is None else basis
        await self.ws.send(json.dumps({**base, "type": kind, "action_id": action_id,
                                       **fields}))
        reply = await asyncio.wait_for(fut, timeout)
        if reply.ok:
            _ACKED[self.code] = max(_ACKED.get(self.code, 0), reply.version)
            await self.wait_version(reply.version, timeout)
        return reply

    async def hello(self, version: int) -> None:
        """Say which room version this page has."""
        await self.ws.send(json.dumps({"type": "hello", "version": version}))

    async def wait_version(self, version: int, timeout: float = 10) -> None:
        """Wait until a live fragment of at least ``version`` arrived."""
        async def wait() -> None:
            while self.version < version:
                self._changed.clear()
                await self._changed.wait()
        await asyncio.wait_for(wait(), timeout)

    def last_live(self) -> str:
        """The newest live fragment received."""
        return next(f for f in reversed(self.fragments) if LIVE.search(f))

    async def close(self) -> None:
        """Close the socket."""
        await self.ws.close()
        self._reader.cancel()


async def wait_for(condition, timeout: float = 10) -> None:
    """Wait until ``condition()`` is true; ``TimeoutError`` after ``timeout`` seconds."""
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(wait(), timeout)


@dataclass
class Guest:
    """A browser-less player with its own cookie jar against ``base_url``."""

    base_url: str
    name: str
    http: httpx.AsyncClient = field(init=False)

    def __post_init__(self) -> None:
        self.http = httpx.AsyncClient(base_url=self.base_url, timeout=20)

    async def create_room(self, game: str = "knister") -> str:
        """Create a room; returns its code."""
        r = await self.http.post("/rooms", data={"game": game, "name": self.name})
        assert r.status_code == 303, r.text
        return r.headers["location"].rsplit("/", 1)[1]

    async def join(self, code: str) -> httpx.Response:
        """Take a seat in room ``code``."""
        return await self.http.post(f"/r/{code}/join", data={"name": self.name})

    async def state(self, code: str) -> dict:
        """The room's public JSON state."""
        r = await self.http.get(f"/r/{code}/state.json")
        assert r.status_code == 200
        return r.json()

    async def connect(self, code: str, origin: str | None = None, hello: int | None = -1
                      ) -> RoomSocket:
        """Open the room socket with this guest's cookie and (by default) the site's Origin."""
        ws_url = self.base_url.replace("http://", "ws://") + f"/r/{code}/ws"
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        ws = await connect(ws_url, origin=origin or self.base_url,
                           additional_headers={"Cookie": cookie}, open_timeout=10)
        sock = RoomSocket(ws, code)
        if hello is not None:
            await sock.hello(hello)
        return sock

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self.http.aclose()
