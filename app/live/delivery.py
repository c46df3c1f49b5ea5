"""Delivery of room versions to this process's sockets: each page gets only what changed for
it, a failed delivery is tried again, and a periodic check catches up pages left behind.

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
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import structlog

from app.live.connection import Connection

log = structlog.get_logger("knobel.hub")

SLOW_DELIVERY = 0.05  # seconds: rendering one room's update for longer than this is logged
REDELIVER_DELAYS = (0.1, 0.2, 0.5, 1.0, 2.0)  # seconds before each retry; the last repeats
Snapshot = Callable[[str, int, str | None], Awaitable[Any]]
"""``snapshot(code, at_least, delta)`` -> the room state at least that new (None: no such
room); ``delta``: what made version ``at_least`` in another process, as announced (or None)."""
Versions = Callable[[list[str]], Awaitable[dict[str, int]]]
"""``versions(codes)`` -> the committed version of each of those rooms (one query)."""


class Renderer(Protocol):
    """Turns a room state into what one viewer's page must receive (``app.web.room_frames``).

    Frames are texts, one socket message each; a frame that every viewer of a version gets
    alike is the very same ``str`` object for all of them (encoded once, ``Delivery``)."""

    def update(self, state: Any, player_id: str, lang: str, online: frozenset[str],
               have: Any = None) -> tuple[tuple[str, ...], Any]:
        """``(frames, delivered)``: what a page showing ``have`` (None: nothing known)
        receives to show ``state``, and what it shows then."""

    def refresh(self, state: Any, player_id: str, lang: str, online: frozenset[str],
                own: frozenset[str] = frozenset()) -> tuple[tuple[str, ...], Any]:
        """``(frames, delivered)`` for a page that says it shows ``state``: what may have
        moved since it was served without a new version (who is online) is sent again,
        and its own parts (those it lists, ``own``, and those it should)."""


class Encoded:
    """Frames encoded once for every socket they go to: the UTF-8 bytes of each distinct
    frame object of one delivery."""

    def __init__(self) -> None:
        self._bytes: dict[int, tuple[str, bytes]] = {}

    def send(self, conn: Connection, frames: tuple[str, ...]) -> None:
        """Send ``frames`` to ``conn`` (together), each encoded at most once per delivery."""
        if not frames:
            return
        texts = []
        for frame in frames:
            found = self._bytes.get(id(frame))
            if found is None or found[0] is not frame:
                found = self._bytes[id(frame)] = (frame, frame.encode())
            texts.append(found[1])
        conn.send_all(tuple(texts))


class Delivery:
    """Sends room versions to the sockets in ``rooms`` (sockets by room code): ``snapshot``
    reads room states, ``renderer`` renders them per viewer, ``online(code)`` says who is
    online in a room; ``after(conn, state)`` runs once a page was sent ``state`` (the talk
    at the table follows the room: ``app.live.talk``)."""

    def __init__(self, snapshot: Snapshot, renderer: Renderer,
                 online: Callable[[str], frozenset[str]],
                 rooms: dict[str, set[Connection]] | None = None,
                 after: Callable[[Connection, Any], None] = lambda conn, state: None) -> None:
        self.snapshot = snapshot
        self.renderer = renderer
        self.online = online
        self.rooms: dict[str, set[Connection]] = {} if rooms is None else rooms
        self.after = after
        self._redelivering: dict[str, asyncio.Task[None]] = {}

    def shown(self, conn: Connection, state: Any, own: frozenset[str] = frozenset()) -> None:
        """Note that ``conn``'s page already shows ``state`` (it said so in its hello), so
        later versions send it only what changed; what may have moved since the page was
        served (presence, its own player coming back included) is sent now, and the page's
        own parts (``own``: those it says it shows as its own) again."""
        conn.last_version = state.version
        frames, conn.delivered = self.renderer.refresh(state, conn.player_id, conn.lang,
                                                       self.online(conn.code), own)
        conn.send_all(tuple(frame.encode() for frame in frames))
        self.after(conn, state)

    async def send_snapshot(self, conn: Connection, known: int = -1) -> None:
        """Send ``conn`` the whole live room as it is now (from the database when ``known``
        is newer than our copy: another process wrote it)."""
        state = await self.snapshot(conn.code, known + 1 if known >= 0 else 0, None)
        if state is not None:
            conn.last_version = state.version
            frames, conn.delivered = self.renderer.update(state, conn.player_id, conn.lang,
                                                          self.online(conn.code))
            conn.send_all(tuple(frame.encode() for frame in frames))
            self.after(conn, state)

    async def deliver(
        self, code: str, version: int = 0, force: bool = False, skip: Connection | None = None,
        delta: str | None = None,
    ) -> None:
        """Send every socket of room ``code`` that is behind ``version`` its fragment
        (``delta``: what made that version, as announced)."""
        conns = [c for c in self.rooms.get(code, ()) if c is not skip]
        if not conns:
            return
        state = await self.snapshot(code, version, delta)
        if state is None:
            return
        started = time.perf_counter()
        online = self.online(code)
        encoded = Encoded()
        for conn in conns:
            if conn.last_version > state.version or (
                    not force and conn.last_version >= state.version):
                continue  # it has this version already, or a newer one (never go back)
            frames, conn.delivered = self.renderer.update(state, conn.player_id, conn.lang,
                                                          online, conn.delivered)
            conn.last_version = state.version
            encoded.send(conn, frames)
            self.after(conn, state)
        took = time.perf_counter() - started
        if took > SLOW_DELIVERY:
            log.warning("slow_delivery", room=code, version=state.version, sockets=len(conns),
                        ms=round(took * 1000, 1))

    async def deliver_or_retry(self, code: str, version: int = 0, force: bool = False,
                               skip: Connection | None = None) -> None:
        """``deliver``; when that fails (the room could not be read), ``redeliver``."""
        try:
            await self.deliver(code, version, force, skip)
        except Exception:
            log.exception("deliver_failed", room=code, version=version)
            self.redeliver(code)

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

    async def check(self, versions: Versions) -> None:
        """One check: read the committed version of every room with a socket here; deliver
        where a socket is behind it (its announcement was lost, or the process that
        committed it died before announcing it). The hub runs it every few seconds
        (``app.store.periodic.Periodic``: stopped between checks, never inside one)."""
        if not self.rooms:
            return
        try:
            committed = await versions(list(self.rooms))
        except Exception as exc:
            log.warning("version_check_failed", rooms=len(self.rooms),
                        error=type(exc).__name__)
            return
        caught_up = 0
        for code, version in committed.items():
            if not any(c.last_version < version for c in self.rooms.get(code, ())):
                continue
            caught_up += 1
            await self.deliver_or_retry(code, version)
            await asyncio.sleep(0)  # one room per turn, as in Hub.run()
        if caught_up:  # lost announcements, or ones still on their way
            log.info("caught_up", rooms=caught_up)

    def forget(self, code: str) -> None:
        """Stop retrying deliveries to room ``code`` (it left memory)."""
        task = self._redelivering.pop(code, None)
        if task is not None:
            task.cancel()

    async def stop(self) -> None:
        """Cancel every retry (shutdown)."""
        for task in list(self._redelivering.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
