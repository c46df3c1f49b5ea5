"""The talk service: checks and stores what a seat says at the table, and announces it.

Path of one chat line (docs/architecture.md, "Talk at the table"): socket handler ->
``TalkService.act`` (who may say what, the per-player rate) -> ``ChatStore`` (one short
transaction of its own: never the room's version, lock or events, so no move waits for it and
no page's basis changes) -> ``announce(code)`` -> every process reloads the room's newest lines
and sends each page the talk parts whose key changed (``app.live.talk``). A reaction is not
stored: it is announced with its seat and shown for a moment.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import structlog
from limits import parse
from limits.strategies import MovingWindowRateLimiter

from app.errors import N_, KnobelError
from app.limits_storage import SparseExpiryStorage
from app.rooms.state import RoomState
from app.talk.lines import MAX_CHARS, REACTIONS, ChatLine, chat_on, clean_text
from app.talk.store import ChatStore

log = structlog.get_logger("knobel.talk")

TALK_ACTIONS = frozenset({"chat", "react", "unchat"})
RATE = parse("5/10 seconds")  # chat lines and reactions of one player in one room

TOO_FAST = KnobelError("chat_rate", N_(
    "You are talking too fast: wait a few seconds (at most 5 messages in 10 seconds)."), 429)
TOO_LONG = KnobelError("chat_too_long", N_("A message has at most 200 characters."), 400)
EMPTY = KnobelError("chat_empty", N_("Write something first."), 400)
NOT_SEATED = KnobelError("not_seated", N_("Only seated players can talk at the table."), 403)
CHAT_OFF = KnobelError("chat_off", N_("The host turned the chat off."), 409)
NOT_HOST = KnobelError("not_host", N_("Only the host can do that."), 403)
NO_SUCH_LINE = KnobelError("no_such_message", N_("That message is not there any more."), 404)
BAD_REACTION = KnobelError("bad_message", N_("The message is malformed."), 400)
NO_ROOM = KnobelError("unknown_room", N_("This room does not exist."), 404)


class Rooms(Protocol):
    """The room states (``app.rooms.service.RoomService``)."""

    async def snapshot(self, code: str, at_least: int = 0,
                       delta: str | None = None) -> RoomState | None:
        """The room's state as this process holds it (loaded when it holds none)."""


Announce = Callable[[str], Awaitable[None]]
"""``announce(code)``: the chat lines of room ``code`` changed (every process reloads them)."""
React = Callable[[str, int, str], Awaitable[None]]
"""``react(code, seat_id, reaction)``: show the reaction on that seat to everyone."""


class TalkService:
    """Chat lines and reactions of rooms: ``rooms`` gives the room states (who is seated,
    who hosts, whether the chat is on), ``store`` keeps the lines, ``announce`` and ``react``
    tell every process. Holds each room's newest lines (``lines``) until ``forget``."""

    def __init__(self, rooms: Rooms, store: ChatStore, announce: Announce,
                 react: React) -> None:
        self.rooms, self.store, self.announce, self.react_out = rooms, store, announce, react
        self._lines: dict[str, tuple[ChatLine, ...]] = {}
        self._limiter = MovingWindowRateLimiter(SparseExpiryStorage())

    def lines(self, code: str) -> tuple[ChatLine, ...] | None:
        """Room ``code``'s newest lines as this process holds them (None: not loaded)."""
        return self._lines.get(code)

    async def load(self, code: str) -> tuple[ChatLine, ...]:
        """Read room ``code``'s newest lines from the database and hold them (empty for an
        unknown room)."""
        state = await self.rooms.snapshot(code)
        lines = await self.store.newest(state.id) if state is not None else ()
        self._lines[code] = lines
        return lines

    def forget(self, code: str) -> None:
        """Drop what is held of room ``code`` (it left memory)."""
        self._lines.pop(code, None)

    async def act(self, code: str, player_id: str, message: dict[str, Any]) -> None:
        """Apply one talk message of ``player_id`` in room ``code``: ``{"type": "chat",
        "text": str}``, ``{"type": "react", "reaction": one of REACTIONS}`` or (the host)
        ``{"type": "unchat", "line": id}``. Raises ``KnobelError`` when refused (nothing is
        stored or shown): not seated, chat off, empty, over ``MAX_CHARS``, over the rate
        (5 in 10 s per player and room), not the host, no such line."""
        state = await self.rooms.snapshot(code)
        if state is None:
            raise NO_ROOM
        seat = state.seat_of(player_id)
        if seat is None:
            raise NOT_SEATED
        kind = message.get("type")
        if kind == "unchat":
            await self._remove(state, player_id, message.get("line"))
            return
        if kind == "react":
            reaction = message.get("reaction")
            if not isinstance(reaction, str) or reaction not in REACTIONS:
                raise BAD_REACTION
            self._count(code, player_id)
            await self.react_out(code, seat.id, reaction)
            return
        if not chat_on(state.options):
            raise CHAT_OFF
        text = clean_text(message.get("text"))
        if text is None:
            raise EMPTY
        if len(text) > MAX_CHARS:
            raise TOO_LONG
        self._count(code, player_id)
        await self.store.add(state.id, seat.id, player_id, seat.label, text)
        log.info("chat", room=code, seat=seat.id, chars=len(text))
        await self.announce(code)

    def _count(self, code: str, player_id: str) -> None:
        """Count one message of ``player_id`` in ``code``; ``TOO_FAST`` over the rate."""
        if not self._limiter.hit(RATE, "talk", f"{code}/{player_id}"):
            raise TOO_FAST

    async def _remove(self, state: RoomState, player_id: str, raw: Any) -> None:
        """The host takes line ``raw`` (its id) away."""
        if player_id != state.host_player_id:
            raise NOT_HOST
        try:
            line_id = int(str(raw))
        except ValueError:
            raise NO_SUCH_LINE from None
        if not await self.store.remove(state.id, line_id):
            raise NO_SUCH_LINE
        log.info("chat_removed", room=state.code, line=line_id)
        await self.announce(state.code)
