"""Idle rooms leave memory: a room with no open socket on this process for ``after`` seconds
is forgotten (its cached state, lock, timers, presence records and rendered parts), and comes
back from the database on the next visit."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

import structlog

log = structlog.get_logger("knobel.idle")


class IdleRooms:
    """Tracks since when each room has had no socket here and forgets it after ``after``
    seconds (checked every ``every`` seconds; by default a quarter of ``after``, at most 30,
    so a room leaves at most a quarter of its idle time late: rooms kept longer than that
    raise the heap's peak, which CPython does not give back, bench/soak.py).
    ``forget(code)`` releases everything this process keeps for a room; it returns False
    when the room is busy (kept for the next sweep). ``clock()``: monotonic seconds."""

    def __init__(self, forget: Callable[[str], bool], after: float = 300.0,
                 every: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.forget = forget
        self.after = after
        self.every = every if every is not None else min(30.0, after / 4)
        self.clock = clock
        self._empty_since: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None

    def emptied(self, code: str) -> None:
        """Room ``code``'s last socket here closed, or the room was (re)loaded: its idle
        time starts now (a room with a socket here is never forgotten)."""
        self._empty_since[code] = self.clock()

    def occupied(self, code: str) -> None:
        """Room ``code`` has a socket here again."""
        self._empty_since.pop(code, None)

    def sweep(self) -> list[str]:
        """Forget every room idle for ``after`` seconds; returns their codes."""
        now = self.clock()
        gone = []
        for code, since in list(self._empty_since.items()):
            if now - since >= self.after and self.forget(code):
                self._empty_since.pop(code, None)
                gone.append(code)
        if gone:
            log.info("rooms_forgotten", rooms=len(gone))
        return gone

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.sweep()

    def start(self) -> None:
        """Sweep every ``every`` seconds until ``stop``."""
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop sweeping."""
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
