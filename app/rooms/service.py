"""The room service: every change to a room goes through here, one at a time per room.

Path of one action (docs/architecture.md): socket handler -> ``RoomService.act`` (per-room
lock; a repeated action id is a duplicate; the action's basis is checked) -> room action
(``room_actions``) or the game's plug-in ``decide`` (pure rules) -> the repository appends
events and bumps the room version in one transaction (the version check serialises writers
across processes) -> ``publish(code, version)`` -> the hub renders fragments per recipient.
Timers (``timers``) come back through ``fire_timer``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

import structlog

from app.clock import utcnow
from app.rooms.codes import new_code
from app.rooms.dice import DiceSource
from app.rooms.errors import Conflict, RoomError
from app.rooms.games import GAMES, get_game
from app.rooms.games.base import ActionError, Event, Table
from app.rooms.repository import RoomRepository, event_rows
from app.rooms.room_actions import ROOM_ACTIONS, RoomActions
from app.rooms.rules import HOST_GRACE, check_basis, required_basis
from app.rooms.state import RoomState
from app.rooms.timers import RoomTimers
from app.store.db import Database

log = structlog.get_logger("knobel.rooms")

Publish = Callable[[str, int], Awaitable[None]]
MAX_ACTION_ID = 64


class PresenceView(Protocol):
    """Who is online in a room (``app.live.presence.Presence`` in the app)."""

    def online(self, code: str) -> frozenset[str]:
        """Player ids with an open socket in room ``code``."""

    def away_since(self, code: str) -> dict[str, datetime]:
        """When each away player of room ``code`` went (UTC)."""


@dataclass
class Outcome:
    """What an accepted action did: the room ``version`` after it, and whether it was a
    repeat of an action already applied (``duplicate``)."""

    version: int
    duplicate: bool = False


class RoomService:
    """Creates rooms, seats players, and applies actions and timers to rooms.

    ``db``: the database; ``publish(code, version)``: announces a committed version;
    ``dice``: the server's dice; ``presence``: who is online (or, for tests, ``online(code)``:
    player ids with an open socket there, ``away_since(code)``: when each away player went);
    ``clock``: now (UTC);
    ``host_grace``: how long a host may be away outside a game before the role passes on.
    """

    def __init__(self, db: Database, publish: Publish, dice: DiceSource,
                 online: Callable[[str], frozenset[str]] = lambda code: frozenset(),
                 away_since: Callable[[str], dict[str, datetime]] = lambda code: {},
                 clock: Callable[[], datetime] = utcnow,
                 host_grace: timedelta = HOST_GRACE,
                 presence: PresenceView | None = None) -> None:
        self.db, self.publish, self.dice, self.clock = db, publish, dice, clock
        self.online, self.away_since = online, away_since
        if presence is not None:
            self.online, self.away_since = presence.online, presence.away_since
        self.loaded: Callable[[str], None] = lambda code: None  # a room came into memory
        self.repo = RoomRepository(db, clock)
        self.actions = RoomActions(self.repo, self._reload, lambda c: self.online(c), clock)
        self.timers = RoomTimers(clock, host_grace, lambda: (self.online, self.away_since),
                                 self.fire_timer)
        self._rooms: dict[str, RoomState] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    # ----- reading -------------------------------------------------------------------------

    def lock(self, code: str) -> asyncio.Lock:
        """The in-process lock serialising actions of room ``code``."""
        return self._locks.setdefault(code, asyncio.Lock())

    async def snapshot(self, code: str, at_least: int = 0) -> RoomState | None:
        """The room's state, reloaded from the database when ours is older than ``at_least``
        (an event committed by another process), not cached yet, or ``at_least`` is -1."""
        state = self._rooms.get(code)
        if state is not None and state.version >= at_least >= 0:
            return state
        async with self.lock(code):
            state = self._rooms.get(code)
            if state is None or state.version < at_least or at_least < 0:
                state = await self._reload(code)
        return state

    async def current(self, code: str) -> RoomState | None:
        """The room as the database has it now (one version check; reload when behind): for
        HTTP reads, which may reach a process that has not yet heard of another process's
        latest event. None for an unknown room."""
        async with self.lock(code):
            try:
                return await self._fresh(code)
            except RoomError:
                return None

    async def versions(self, codes: list[str]) -> dict[str, int]:
        """The committed version of each room in ``codes`` (``RoomRepository.versions``)."""
        return await self.repo.versions(codes)

    async def _reload(self, code: str) -> RoomState | None:
        state = await self.repo.load(code)
        if state is None:
            self._rooms.pop(code, None)
            return None
        self._rooms[code] = state
        self.timers.arm(state)
        self.loaded(code)
        return state

    async def _fresh(self, code: str) -> RoomState:
        """The cached state if it matches the database's version, else a reload. Call locked.
        Raises ``RoomError`` (404) for an unknown room."""
        state = self._rooms.get(code)
        version = await self.repo.version(code)
        if version is None:
            raise RoomError("unknown_room", "This room does not exist.", 404)
        if state is None or state.version != version:
            state = await self._reload(code)
            assert state is not None
        return state

    def table(self, state: RoomState) -> Table:
        """The plug-in's view of the table (``RoomTimers.table``)."""
        return self.timers.table(state)

    # ----- creating and joining ------------------------------------------------------------

    async def create_room(self, player_id: str, name: str, kind: str) -> str:
        """Create a room of game ``kind`` hosted by ``player_id`` (seated as ``name``); returns
        its code. Raises ``RoomError`` (400) for an unknown game."""
        if kind not in GAMES:
            raise RoomError("unknown_game", "Unknown game.", 400)
        code = new_code()
        await self.repo.create(code, kind, get_game(kind).default_options(), player_id, name)
        log.info("room_created", room=code, player=player_id, game=kind)
        return code

    async def join(self, code: str, player_id: str, name: str) -> int:
        """Seat ``player_id`` as ``name`` in room ``code``; returns the new room version (the
        current one when already seated: one seat per player, however many tabs). Raises
        ``RoomError``: unknown room (404), game running or room full (409), busy (503)."""
        async with self.lock(code):
            for _ in range(3):
                try:
                    version = await self.actions.join(await self._fresh(code), player_id, name)
                except Conflict:
                    continue
                break
            else:
                raise RoomError("busy", "The room is busy, please try again.", 503)
        log.info("seat_taken", room=code, player=player_id)
        await self.publish(code, version)
        return version

    # ----- actions ---------------------------------------------------------------------------

    async def act(self, code: str, player_id: str, message: dict[str, Any]) -> Outcome:
        """Apply one client ``message`` (``{"type": ..., "action_id": ..., ...}``) for
        ``player_id`` in room ``code``; the seat comes from the player, never the message.

        Returns the ``Outcome``; raises ``ActionError``/``RoomError`` when refused (nothing
        changed). A message whose ``action_id`` was applied before is not applied again.
        """
        started = time.perf_counter()
        action_id, kind = message.get("action_id"), message.get("type")
        if not isinstance(kind, str) or action_id is not None and (
                not isinstance(action_id, str) or not 0 < len(action_id) <= MAX_ACTION_ID):
            raise RoomError("bad_message", "The message is malformed.", 400)
        async with self.lock(code):
            # The cached state is used without asking the database for its version first:
            # a write from a stale cache fails the version check (Conflict: reload, retry),
            # and a refusal is only final once the database version confirms the cache.
            cached = self._rooms.get(code)
            duplicate = None
            for _ in range(3):
                state = cached or await self._fresh(code)
                if action_id and action_id in state.recent_actions:
                    duplicate = Outcome(state.recent_actions[action_id], duplicate=True)
                    version = state.version
                    break
                try:
                    version = await self._apply(state, player_id, kind, message, action_id)
                except Conflict:
                    self._rooms.pop(code, None)
                    cached = None
                    continue
                except ActionError:
                    if cached is None or await self._fresh(code) is cached:
                        raise
                    cached = None  # the cache was behind another process: decide again
                    continue
                break
            else:
                raise RoomError("busy", "The room is busy, please try again.", 503)
        if duplicate is not None:  # announced again: the first try may have committed
            await self.publish(code, version)  # without being announced
            return duplicate
        log.info("action", room=code, player=player_id, type=kind, version=version,
                 ms=round((time.perf_counter() - started) * 1000, 1))
        await self.publish(code, version)
        return Outcome(version)

    async def _apply(self, state: RoomState, player_id: str, kind: str,
                     message: dict[str, Any], action_id: str | None) -> int:
        seat = state.seat_of(player_id)
        claimed = message.get("seat")
        if kind != "remove" and claimed is not None and (
                seat is None or str(claimed) != str(seat.id)):
            raise RoomError("not_your_seat", "You can only act for your own seat.", 403)
        if kind not in ROOM_ACTIONS and kind not in state.plugin.actions:
            raise RoomError("unknown_action", "Unknown action.", 400)
        # Every action names the state it was decided on (its page's basis): a page that was
        # offline or behind is refused, and shown the table as it is now.
        check_basis(required_basis(state, kind), message)
        if kind in ROOM_ACTIONS:
            return await self.actions.decide(state, player_id, kind, message, action_id)
        if seat is None:
            raise RoomError("not_seated", "Only seated players can do that.", 403)
        if state.status != "playing" or state.game_state is None:
            raise RoomError("not_playing", "No game is running.")
        events = state.plugin.decide(state.game_state, seat.id, message,
                                     self.dice.for_room(state.code))
        return await self._append(state, events, action_id)

    async def _append(self, state: RoomState, events: list[Event], action_id: str | None) -> int:
        """Fold ``events`` into the cached state and store them (finishing the game when they
        end it); a failed write drops the cached state. Returns the new version."""
        now = self.clock()
        events = [Event(e.type, e.payload, e.seat_id, now) for e in events]
        plugin, game = state.plugin, state.game
        assert game is not None
        first_seq = state.last_seq + 1
        try:
            for event in events:  # optimistic: a failed commit drops the cached state
                plugin.apply(state.game_state, event)
            over = plugin.is_over(state.game_state)
            totals = plugin.totals(state.game_state) if over else None
            await self.repo.append(state, event_rows(game.id, first_seq, events, action_id),
                                   totals, now)
        except BaseException:
            self._rooms.pop(state.code, None)
            raise
        version = state.version = state.version + 1
        state.last_seq = first_seq + len(events) - 1
        state.remember_action(action_id, version)
        if totals is not None:
            game.status, game.totals, state.status = "finished", totals, "finished"
            log.info("game_finished", room=state.code, game=game.id, totals=totals)
        self.timers.arm(state)
        return version

    # ----- timers ----------------------------------------------------------------------------

    def presence_changed(self, code: str) -> None:
        """Re-arm the timer of ``code`` (an away roller may now be rolled for)."""
        state = self._rooms.get(code)
        if state is not None:
            self.timers.arm(state)

    async def fire_timer(self, code: str) -> None:
        """Apply what is due in room ``code`` (if still due): the plug-in's automatic events
        during a game, the host hand-over outside one."""
        version = None
        async with self.lock(code):
            try:
                state = await self._fresh(code)
            except RoomError:
                return
            try:
                version = await self._due(state)
            except Conflict:
                self._rooms.pop(code, None)
            if version is None and code in self._rooms:
                self.timers.arm(self._rooms[code])
        if version is not None:
            log.info("timer_events", room=code, version=version)
            await self.publish(code, version)

    async def _due(self, state: RoomState) -> int | None:
        """Write what is due now in ``state``'s room; the new version, or None. Call locked."""
        now = self.clock()
        if state.status == "playing" and state.game_state is not None:
            events = state.plugin.on_timer(state.game_state, self.table(state), now,
                                           self.dice.for_room(state.code))
            return await self._append(state, events, None) if events else None
        handoff = self.timers.handoff(state, now)
        if handoff is None or handoff[0] > now:
            return None
        log.info("host_handed_over", room=state.code, host=handoff[1].player_id)
        return await self.actions.set_room(state, None, host_player_id=handoff[1].player_id)

    def forget(self, code: str) -> bool:
        """Release what this process keeps for room ``code`` (cached state, lock, timer);
        False, keeping it, while an action holds its lock. The database is the truth: the
        next visit rebuilds it."""
        lock = self._locks.get(code)
        if lock is not None and lock.locked():
            return False
        self._rooms.pop(code, None)
        self._locks.pop(code, None)
        self.timers.forget(code)
        return True

    def close(self) -> None:
        """Cancel every timer (shutdown)."""
        self.timers.close()


__all__ = ["ActionError", "Outcome", "RoomError", "RoomService"]
