"""A background job that does a round of database work every few seconds (the push sender,
the turn-based rooms' deadline scheduler) and stops between rounds, never inside one.

Cancelling a task in the middle of its database work leaves the driver's clean-up (an
``AsyncSession`` closes itself in a shielded task) running while the app disposes of the
pool and closes its event loop: seen in CI as a test that hung for 300 s at its end, in the
loop's final cancellation of leftover tasks. So ``stop`` asks the loop to end after the
current round and waits for it (cancelling only a round that overruns ``grace``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import structlog

log = structlog.get_logger("knobel.periodic")


class Periodic:
    """Runs ``work()`` (one round; its errors are logged, the next round comes) at once on
    ``start``, then every ``interval`` seconds and at once after ``wake()``, until ``stop``.
    ``name`` names it in the log."""

    def __init__(self, work: Callable[[], Awaitable[Any]], interval: float, name: str,
                 grace: float = 10.0) -> None:
        self.work, self.interval, self.name, self.grace = work, interval, name, grace
        self._wake: asyncio.Event | None = None
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """Run a round now (between rounds: at once; during one: right after it)."""
        if self._wake is not None:
            self._wake.set()

    async def _run(self) -> None:
        assert self._wake is not None
        while not self._stopping:
            try:
                await self.work()
            except Exception:
                log.exception("round_failed", job=self.name)
            if self._stopping:
                break
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.interval):
                    await self._wake.wait()
            self._wake.clear()

    def start(self) -> None:
        """Start the rounds in the running event loop (an app started again, as tests do,
        gets a fresh wake-up event)."""
        self._stopping = False
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """End the rounds: the current one finishes first (cancelled after ``grace``
        seconds)."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self.wake()
        try:
            await asyncio.wait_for(asyncio.shield(task), self.grace)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
