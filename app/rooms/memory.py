"""The rooms this process holds in memory: each room's state (rebuilt from the database by
the repository), one lock per room, and their release when the room goes idle.

The database is the truth: a state here is a cache of it, checked against the committed
version where an answer must be current, and dropped whenever a write fails.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import structlog

from app.rooms.delta import Delta
from app.rooms.errors import RoomError
from app.rooms.repository import RoomRepository
from app.rooms.state import RoomState
from app.rooms.timers import RoomTimers

log = structlog.get_logger("knobel.rooms")


class RoomMemory:
    """Room states and locks of this process. ``repo`` loads rooms and reads versions;
    ``timers`` are armed for each room loaded and forgotten with it; ``loaded(code)`` is
    called whenever a room comes into memory (the app's idle-room tracking,
    ``app.live.idle.IdleRooms.emptied``)."""

    def __init__(self, repo: RoomRepository, timers: RoomTimers,
                 loaded: Callable[[str], None] = lambda code: None) -> None:
        self.repo = repo
        self.timers = timers
        self.loaded = loaded
        self._rooms: dict[str, RoomState] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        # The game events of each room's latest commit in this process (app.rooms.delta),
        # announced with its version so other processes can fold them instead of reloading.
        self._deltas: dict[str, Delta] = {}

    def lock(self, code: str) -> asyncio.Lock:
        """The in-process lock serialising actions of room ``code``."""
        return self._locks.setdefault(code, asyncio.Lock())

    async def snapshot(self, code: str, at_least: int = 0,
                       delta: str | None = None) -> RoomState | None:
        """The room's state, reloaded from the database when ours is older than ``at_least``
        (an event committed by another process), not cached yet, or ``at_least`` is -1.
        ``delta``: the encoded ``Delta`` that made version ``at_least`` in another process;
        when ours is the version just before it, its events are folded in instead."""
        state = self._rooms.get(code)
        if state is not None and state.version >= at_least >= 0:
            return state
        async with self.lock(code):
            state = self._rooms.get(code)
            if state is not None and delta is not None and state.version == at_least - 1:
                state = self._fold(state, delta)
            if state is None or state.version < at_least or at_least < 0:
                state = await self._reload(code)
        if state is None:
            self._unlock_unknown(code)
        return state

    def _fold(self, state: RoomState, text: str) -> RoomState | None:
        """``state`` moved on by the encoded delta ``text``, or None (dropping it) when the
        delta does not follow it or its events do not apply: the caller reloads. Call locked."""
        delta = Delta.decode(text)
        if delta is None or not delta.follows(state):
            return None
        try:
            delta.fold(state)
        except Exception:  # the cache is in doubt: rebuild it from the database
            log.exception("fold_failed", room=state.code, version=delta.version)
            self._drop(state.code)
            return None
        self.timers.arm(state)
        return state

    def delta_of(self, code: str, version: int) -> str | None:
        """The encoded game events that made ``version`` of room ``code`` when this process
        committed them (``committed``), to announce with it; else None."""
        delta = self._deltas.get(code) if code in self._rooms else None
        return delta.encode() if delta is not None and delta.version == version else None

    def committed(self, code: str, delta: Delta | None) -> None:
        """Keep ``delta``, the game events of room ``code``'s latest commit here (None: a
        commit other processes must reload, e.g. one that ended the game)."""
        if delta is None:
            self._deltas.pop(code, None)
        else:
            self._deltas[code] = delta

    async def current(self, code: str) -> RoomState | None:
        """The room as the database has it now (one version check; reload when behind): for
        HTTP reads, which may reach a process that has not yet heard of another process's
        latest event. None for an unknown room."""
        async with self.lock(code):
            try:
                return await self._fresh(code)
            except RoomError:
                pass
        self._unlock_unknown(code)
        return None

    async def versions(self, codes: list[str]) -> dict[str, int]:
        """The committed version of each room in ``codes`` (``RoomRepository.versions``)."""
        return await self.repo.versions(codes)

    async def _reload(self, code: str) -> RoomState | None:
        """Rebuild room ``code`` from the database (None, dropping it, when it is gone)."""
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

    def _unlock_unknown(self, code: str) -> None:
        """Drop the lock of ``code`` after it turned out to name no room (so guessed codes
        leave nothing behind), unless someone holds it."""
        lock = self._locks.get(code)
        if code not in self._rooms and lock is not None and not lock.locked():
            del self._locks[code]

    def _drop(self, code: str) -> None:
        """Drop the cached state of room ``code`` (a write failed or lost a race)."""
        self._rooms.pop(code, None)
        self._deltas.pop(code, None)

    def presence_changed(self, code: str) -> None:
        """Re-arm the timer of ``code`` (an away roller may now be rolled for)."""
        state = self._rooms.get(code)
        if state is not None:
            self.timers.arm(state)

    def forget(self, code: str) -> bool:
        """Release what this process keeps for room ``code`` (cached state, lock, timer);
        False, keeping it, while an action holds its lock. The database is the truth: the
        next visit rebuilds it."""
        lock = self._locks.get(code)
        if lock is not None and lock.locked():
            return False
        self._rooms.pop(code, None)
        self._deltas.pop(code, None)
        self._locks.pop(code, None)
        self.timers.forget(code)
        return True

    def close(self) -> None:
        """Cancel every timer (shutdown)."""
        self.timers.close()
