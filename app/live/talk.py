"""Delivery of the talk at a table to this process's sockets (docs/rules.md, "Talk at the
table"): each page gets the talk parts whose key changed for it, after a chat line changed
or the room did (a new host, the chat turned off, a seat taken), and each reaction once.

Apart from room versions: a chat line never changes what a page shows of the game, nor the
basis its next move is decided on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Protocol

import structlog

from app.live.connection import Connection

log = structlog.get_logger("knobel.talk")


class TalkSource(Protocol):
    """The rooms' chat lines (``app.talk.service.TalkService``)."""

    def lines(self, code: str) -> Any:
        """The lines held of room ``code`` (None: not loaded)."""

    async def load(self, code: str) -> Any:
        """Read the room's lines from the database and hold them."""


class TalkRenderer(Protocol):
    """Renders talk parts and reactions (``app.web.talk_view.TalkRenderer``)."""

    def update(self, state: Any, lines: Any, player_id: str, lang: str,
               have: dict[str, Hashable] | None) -> tuple[str, dict[str, Hashable]]:
        """``(html, keys)``: the talk parts that differ from ``have``, and what is shown then."""

    def flash(self, state: Any, seat_id: int, reaction: str, lang: str) -> str:
        """A reaction of ``seat_id`` as a fragment ("" when it cannot be shown)."""

    def forget(self, code: str) -> None:
        """Drop what is kept of room ``code``."""


class TalkDelivery:
    """Sends talk to the sockets in ``rooms`` (sockets by room code): ``talk`` holds the
    lines, ``state_of(code)`` gives a room's state, ``renderer`` renders per viewer."""

    def __init__(self, rooms: dict[str, set[Connection]], talk: TalkSource,
                 state_of: Callable[[str], Awaitable[Any]], renderer: TalkRenderer) -> None:
        self.rooms, self.talk, self.state_of, self.renderer = rooms, talk, state_of, renderer
        self._reading: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()

    def refresh(self, conn: Connection, state: Any) -> None:
        """Send ``conn`` the talk parts of ``state``'s room that changed for it (loading the
        room's lines first when they are not held yet)."""
        lines = self.talk.lines(conn.code)
        if lines is None:
            self.changed(conn.code)
            return
        html, conn.talk_keys = self.renderer.update(state, lines, conn.player_id, conn.lang,
                                                    conn.talk_keys)
        if html:
            conn.send(html)

    def changed(self, code: str) -> None:
        """Room ``code``'s chat lines changed: read them again, then refresh every socket of
        the room here (one read at a time per room; a change during a read reads again)."""
        if code in self._reading:
            self._again.add(code)
            return
        if code in self.rooms:
            self._reading[code] = asyncio.create_task(self._read(code))

    async def _read(self, code: str) -> None:
        try:
            while True:
                self._again.discard(code)
                await self.talk.load(code)
                if code not in self._again:
                    break
            state = await self.state_of(code)
            if state is not None:
                for conn in list(self.rooms.get(code, ())):
                    self.refresh(conn, state)
        except Exception:
            log.exception("talk_delivery_failed", room=code)
        finally:
            self._reading.pop(code, None)

    async def flash(self, code: str, seat_id: int, reaction: str) -> None:
        """Show every socket of room ``code`` here the ``reaction`` of seat ``seat_id``
        (rendered once per language)."""
        conns = list(self.rooms.get(code, ()))
        if not conns:
            return
        state = await self.state_of(code)
        if state is None:
            return
        by_lang: dict[str, str] = {}
        for conn in conns:
            if conn.lang not in by_lang:
                by_lang[conn.lang] = self.renderer.flash(state, seat_id, reaction, conn.lang)
            if by_lang[conn.lang]:
                conn.send(by_lang[conn.lang])

    def forget(self, code: str) -> None:
        """Stop reading room ``code``'s lines (it left memory)."""
        task = self._reading.pop(code, None)
        if task is not None:
            task.cancel()
        self._again.discard(code)
        self.renderer.forget(code)
