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
from websockets.exceptions import ConnectionClosed

from tests.support import http
from tests.support.waiting import until_async

ACK = re.compile(r'data-ack="([^"]*)" data-version="(\d+)" data-duplicate="(\w+)"')
ERROR = re.compile(r'data-error="([a-z_]+)"(?: data-action-id="([^"]*)")?>([^<]*)<')
LIVE = re.compile(r'<div id="live(?:-version)?"[^>]*data-version="(\d+)"')
BASIS = re.compile(r'<div id="live-version"[^>]*data-version="(\d+)"[^>]*data-basis=\'([^\']*)\'')
# The newest version acknowledged per room, over every socket of the test: a scripted player
# looks at the table (waits for that version) before acting, as a person would.
_ACKED: dict[str, int] = {}


@dataclass
class Reply:
    """The server's answer to one action: ``ok`` with ``version``, or an error ``code`` with
    its ``message`` as shown to the player (translated, HTML entities decoded)."""

    ok: bool
    version: int = 0
    code: str = ""
    duplicate: bool = False
    message: str = ""


class SocketClosed(Exception):
    """The room socket closed (or its reader was stopped) before the awaited answer came."""


class RoomSocket:
    """One open room page: sends actions, collects every fragment it receives.

    A reader task collects the frames. When the connection ends, every action still waiting
    for its answer fails at once with ``SocketClosed`` (it does not wait for its timeout);
    an unexpected error in the reader fails the waiters with that error and is raised again
    by ``close()``. ``ended`` holds why the reader stopped (None while it runs).

    Like the page's script, every action carries the basis the page shows (the
    ``#live-version`` marker's ``data-basis``: room version, game number, the game's own
    fields); ``basis`` passed to ``act`` replaces it (to send a stale action on purpose).
    """

    def __init__(self, ws: ClientConnection, code: str = "") -> None:
        self.ws = ws
        self.code = code
        self.fragments: list[str] = []
        self.version = -1
        self.basis: dict = {}
        self._basis_version = -1
        self.ended: BaseException | None = None
        self._waiters: dict[str, asyncio.Future[Reply]] = {}
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self._receive(text)
        except ConnectionClosed as exc:  # closed without a clean close frame: an answer
            self._end(SocketClosed(f"connection lost: {exc}"))
        except asyncio.CancelledError:
            self._end(SocketClosed("reader cancelled"))
            raise
        except BaseException as exc:
            self._end(exc)
            raise
        else:
            self._end(SocketClosed(f"closed: {self.ws.close_code} {self.ws.close_reason}"))

    def _receive(self, text: str | bytes) -> None:
        if isinstance(text, bytes):
            raise TypeError(f"the room socket sends text frames only, got {text[:40]!r}")
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
            self._resolve(m.group(2) or "",
                          Reply(False, code=m.group(1), message=html.unescape(m.group(3))))

    def _end(self, reason: BaseException) -> None:
        """Remember why the reader stopped and fail every action still waiting."""
        self.ended = reason
        for fut in self._waiters.values():
            if not fut.done():
                fut.set_exception(reason)
        self._waiters.clear()
        self._changed.set()

    def _resolve(self, action_id: str, reply: Reply) -> None:
        fut = self._waiters.pop(action_id, None)
        if fut and not fut.done():
            fut.set_result(reply)

    async def send_raw(self, text: str | bytes) -> None:
        """Send anything, as a fuzzer would."""
        await self.ws.send(text)

    async def send_raw_for_error(self, text: str | bytes, timeout: float = 10) -> Reply:
        """Send a message that carries no usable action id (malformed, oversized, binary) and
        wait for the server's error answer to it (errors without an action id)."""
        return await self.send_raw_for_reply(text, "", timeout)

    async def send_raw_for_reply(self, text: str | bytes, action_id: str,
                                 timeout: float = 10) -> Reply:
        """Send anything and wait for the answer (ack or error) that names ``action_id``
        ("": an answer that names none). ``TimeoutError`` after ``timeout`` seconds."""
        if self.ended is not None:
            raise SocketClosed(f"socket already ended: {self.ended}")
        assert action_id not in self._waiters, "one message per action id at a time"
        fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiters[action_id] = fut
        try:
            await self.ws.send(text)
            try:
                return await asyncio.wait_for(fut, timeout)
            except TimeoutError:
                raise TimeoutError(f"room {self.code}: no answer naming {action_id!r} within "
                                   f"{timeout:g} s to {str(text)[:200]!r}") from None
        finally:
            if self._waiters.get(action_id) is fut:
                del self._waiters[action_id]

    async def act(self, kind: str, action_id: str | None = None, timeout: float = 10,
                  basis: dict | None = None, **fields) -> Reply:
        """Send ``{"type": kind, "action_id": ..., **basis, **fields}`` and wait for the ack
        or error (``basis``: the page's own unless given). First waits until this page shows
        the newest version acknowledged in the room (so it acts on what a person would see);
        after an ack, until it shows the version the action made.

        Raises ``TimeoutError`` after ``timeout`` seconds without an answer, ``SocketClosed``
        when the connection ends first."""
        if self.ended is not None:
            raise SocketClosed(f"socket already ended: {self.ended}")
        await self.wait_version(max(_ACKED.get(self.code, 0), 0), timeout)
        action_id = action_id or uuid.uuid4().hex
        fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiters[action_id] = fut
        base = self.basis if basis is None else basis
        try:
            await self.ws.send(json.dumps({**base, "type": kind, "action_id": action_id,
                                           **fields}))
            try:
                reply = await asyncio.wait_for(fut, timeout)
            except TimeoutError:
                raise TimeoutError(f"room {self.code}: no answer to {kind!r} within "
                                   f"{timeout:g} s") from None
        finally:
            if self._waiters.get(action_id) is fut:
                del self._waiters[action_id]
        if reply.ok:
            _ACKED[self.code] = max(_ACKED.get(self.code, 0), reply.version)
            await self.wait_version(reply.version, timeout)
        return reply

    async def hello(self, version: int) -> None:
        """Say which room version this page has."""
        await self.ws.send(json.dumps({"type": "hello", "version": version}))

    async def wait_version(self, version: int, timeout: float = 10) -> None:
        """Wait until a live fragment of at least ``version`` arrived; ``TimeoutError`` after
        ``timeout`` seconds, ``SocketClosed`` when the connection ends first."""
        async def wait() -> None:
            while self.version < version:
                if self.ended is not None:
                    raise SocketClosed(f"waiting for version {version}: {self.ended}")
                self._changed.clear()
                await self._changed.wait()
        try:
            await asyncio.wait_for(wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"room {self.code}: version {version} not shown within "
                               f"{timeout:g} s (the page shows {self.version})") from None

    def last_live(self) -> str:
        """What the page was sent for its newest version: the newest fragment with a version
        marker and every one after it (a seated player's own frame follows the room's shared
        frame of the version, ``app/web/room_frames.py``)."""
        last = max(i for i, f in enumerate(self.fragments) if LIVE.search(f))
        return "".join(self.fragments[last:])

    async def close(self) -> None:
        """Close the socket and wait for the reader to end; an unexpected error the reader
        met is raised here."""
        await self.ws.close()
        if not (self._reader.cancelled() or self._reader.cancelling()):
            await asyncio.wait_for(self._reader, 10)


async def wait_for(condition, timeout: float = 10,
                   what: str = "the awaited fragment or state") -> None:
    """Wait until ``condition()`` is true; ``WaitTimeout`` naming ``what`` after ``timeout``
    seconds (``tests.support.waiting.until_async``)."""
    await until_async(condition, what, timeout, every=0.02)


@dataclass
class Guest:
    """A browser-less player with its own cookie jar against ``base_url``."""

    base_url: str
    name: str
    http: httpx.AsyncClient = field(init=False)

    def __post_init__(self) -> None:
        self.http = http.async_client(base_url=self.base_url, timeout=20)

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

    async def connect(self, code: str, origin: str | None = None, hello: int | None = -1,
                      accept_language: str | None = None) -> RoomSocket:
        """Open the room socket with this guest's cookies (session, and ``lang`` when set)
        and (by default) the site's Origin; ``accept_language`` is sent as the
        ``Accept-Language`` header. ``hello``: the version to announce (None: no hello)."""
        ws_url = self.base_url.replace("http://", "ws://") + f"/r/{code}/ws"
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())}
        if accept_language is not None:
            headers["Accept-Language"] = accept_language
        ws = await connect(ws_url, origin=origin or self.base_url,
                           additional_headers=headers, open_timeout=10)
        sock = RoomSocket(ws, code)
        if hello is not None:
            await sock.hello(hello)
        return sock

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self.http.aclose()


async def close_all(guests: list[Guest], sockets: list[RoomSocket]) -> None:
    """Close ``sockets``, then the ``guests``' HTTP clients."""
    for sock in sockets:
        await sock.close()
    for guest in guests:
        await guest.aclose()
