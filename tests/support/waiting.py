"""Bounded waits for tests: ask again until a condition holds, or fail saying what never
happened. Every test and helper that waits for a state (rather than for an answer it can
await) waits through these, so no wait can spin for ever or end in silence."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


class WaitTimeout(AssertionError):
    """A waited-for condition did not hold within its time."""


def _failed(what: str, timeout: float, last: object) -> WaitTimeout:
    seen = "" if last is None or isinstance(last, bool) else f" (last seen: {str(last)[:300]})"
    return WaitTimeout(f"{what}: not within {timeout:g} s{seen}")


def until(condition: Callable[[], T], what: str, timeout: float = 10.0,
          every: float = 0.05) -> T:
    """Call ``condition()`` every ``every`` seconds until it returns something true, and
    return that. ``what``: the awaited state in words (the failure message). Raises
    ``WaitTimeout`` after ``timeout`` seconds; exceptions of ``condition`` pass through."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _failed(what, timeout, value)
        time.sleep(every)


async def until_async(condition: Callable[[], T | Awaitable[T]], what: str,
                      timeout: float = 10.0, every: float = 0.05) -> T:
    """``until`` for the event loop: ``condition`` may be a plain function or a coroutine
    function (awaited each time, e.g. reading the room's state.json); sleeps without blocking
    the loop. Raises ``WaitTimeout`` after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if loop.time() >= deadline:
            raise _failed(what, timeout, value)
        await asyncio.sleep(every)


def receive_until(receive: Callable[[], str], marker: str, limit: int = 10) -> str:
    """Read a test socket's messages (``receive()``: the next text) until one holds
    ``marker``, and return it. Other parts may come first: a room's talk parts, say, whose
    read was started by an earlier socket of the room (``app/live/talk.py``). Fails after
    ``limit`` messages without the marker."""
    seen: list[str] = []
    for _ in range(limit):
        seen.append(receive())
        if marker in seen[-1]:
            return seen[-1]
    raise AssertionError(f"no message with {marker!r} in {limit}: {[s[:80] for s in seen]}")
