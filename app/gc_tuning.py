"""Keep the cyclic garbage collector from stalling the event loop.

A full collection walks every tracked object; with 2,000 open sockets (each a stack of
coroutines, frames and protocol objects) that is ~500,000 objects and 300-400 ms in which no
socket is served, every few seconds under load (measured with bench/rooms_load.py; see
bench/README.md). So long-lived objects are frozen (``gc.freeze``: left out of collections)
every ``FREEZE_EVERY`` seconds, which is cheap, and every ``COLLECT_EVERY`` seconds everything
is collected once (frozen objects included, freeing any cycles among them) and frozen again.
Objects freed by reference counting (almost all) are freed at once, as always.

Frozen objects that become garbage later stay until the next full collection: a room's closed
sockets (each a cycle of connection, writer task, coroutine and protocol objects) and its
released state. So when rooms leave memory (``released``), everything is collected at the next
freeze tick (at most every ``RELEASE_EVERY`` seconds) and the C heap is trimmed
(``malloc_trim``), so the memory goes back to the system (bench/soak.py).

While busy (``BUSY_SOCKETS`` open sockets), everything young is frozen every ``YOUNG_EVERY``
seconds instead of collected. A young collection walks every object made since the last one
and finds next to no garbage: at 250 rooms x 8 seats (bench/rooms_load.py) it walked tens of
thousands of live objects (what every page shows, the frames on their way) for 20-35 ms each
time and freed a few dozen, about 10% of the process's CPU (0.84 cores busy against 0.78 with
freezing, and 0.76 with no collector at all: bench/README.md, session 16). Tuples and lists
taken from CPython's free lists are tracked without counting towards the youngest
generation's threshold, so without the timer they piled up and were walked in one long
collection in the middle of a delivery. Cyclic garbage made while busy (a few dozen objects a
second: a closed socket's connection and writer task) waits in the frozen generation for the
next full collection: every ``COLLECT_EVERY`` seconds, or sooner when rooms leave memory.

A calm process is not frozen that often (only every ``FREEZE_EVERY`` seconds): it would keep
objects that die soon after in the frozen generation, where their cycles wait for the next
full collection (a soak of 2,000 rooms with few sockets open at a time kept +70 MB after
eviction instead of +47 MB when frozen every second).

The young generations are collected less often than Python's default (``THRESHOLDS``) while
busy: every room version replaces a few hundred small objects per socket (what each page
shows), which with the default thresholds survive two young collections, reach the old
generation and trigger full collections every second or so.

A calm process (fewer than ``BUSY_SOCKETS`` open sockets) runs with Python's default
thresholds (``CALM_THRESHOLDS``) and collects released rooms' frozen garbage at the next
freeze tick: its collections are short, and its cyclic garbage (closed sockets, released
rooms) is freed within seconds instead of piling up. Garbage that piles up raises the heap's
peak, and CPython gives a heap arena back only when every object in it is gone, so a high
peak stays: a soak of 10,000 rooms (bench/soak.py) kept +49.5 MB after eviction with the
busy settings at all times and +30.5 MB with these (bench/README.md, session 7).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import time
from collections.abc import Callable
from typing import Any

import structlog

log = structlog.get_logger("knobel.gc")

FREEZE_EVERY = 10.0  # seconds
YOUNG_EVERY = 0.25  # seconds: everything young is frozen this often when busy
BUSY_SOCKETS = 500  # open sockets from which the process counts as busy
COLLECT_EVERY = 600.0  # seconds
RELEASE_EVERY = 30.0  # seconds: the most often rooms leaving memory cause a full collection
THRESHOLDS = (20_000, 50, 50)  # while busy
CALM_THRESHOLDS = (700, 10, 10)  # Python's default, while not busy
SLOW_COLLECTION = 0.02  # seconds: a collection this long is logged (``gc_slow``) while busy
CALM_SLOW_COLLECTION = 0.05  # seconds: the same while calm (full collections run more often)
_slow = SLOW_COLLECTION
_released = 0  # rooms that left memory since the last full collection


def _libc_trim() -> None:
    """Give free C-heap pages back to the system (glibc ``malloc_trim``; elsewhere nothing)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim(0)
    except (OSError, AttributeError):
        pass


def released(rooms: int) -> None:
    """``rooms`` rooms left memory: collect their frozen garbage soon (``keep_frozen``)."""
    global _released
    _released += rooms


_started = 0.0


def _watch(phase: str, info: dict[str, Any]) -> None:
    """``gc.callbacks`` hook: log every collection longer than ``SLOW_COLLECTION``
    (``CALM_SLOW_COLLECTION`` while calm)."""
    global _started
    if phase == "start":
        _started = time.perf_counter()
        return
    took = time.perf_counter() - _started
    if took > _slow:
        log.warning("gc_slow", generation=info.get("generation"), ms=round(took * 1000, 1),
                    collected=info.get("collected"), objects=gc.get_count())


def tune() -> None:
    """Set ``THRESHOLDS``, log slow collections and freeze what start-up loaded (it lives
    as long as the process)."""
    gc.set_threshold(*THRESHOLDS)
    if _watch not in gc.callbacks:
        gc.callbacks.append(_watch)
    refreeze()


def refreeze() -> None:
    """Collect everything (frozen objects included), then freeze the survivors; give the
    freed C heap back to the system."""
    global _released
    _released = 0
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _libc_trim()


def _set_mode(calm: bool) -> None:
    """Thresholds and the slow-collection log limit for a calm or a busy process."""
    global _slow
    gc.set_threshold(*(CALM_THRESHOLDS if calm else THRESHOLDS))
    _slow = CALM_SLOW_COLLECTION if calm else SLOW_COLLECTION


async def keep_frozen(freeze_every: float = FREEZE_EVERY,
                      collect_every: float = COLLECT_EVERY,
                      young_every: float = YOUNG_EVERY,
                      busy: Callable[[], bool] | None = None) -> None:
    """Freeze what is young every ``young_every`` seconds while ``busy()`` (None: always
    busy), freeze every ``freeze_every`` seconds and ``refreeze`` every
    ``collect_every`` seconds, or sooner when rooms were ``released`` (at the next freeze
    tick while calm, at least ``RELEASE_EVERY`` seconds apart while busy); the thresholds
    follow ``busy()`` (``THRESHOLDS`` or ``CALM_THRESHOLDS``); until cancelled."""
    since = young = 0.0
    step = min(young_every, freeze_every)
    while True:
        await asyncio.sleep(step)
        calm = busy is not None and not busy()
        _set_mode(calm)
        young += step
        if young < freeze_every:
            if not calm:
                gc.freeze()  # what lived this long is kept: no young collection walks it
            continue
        young = 0.0
        since += freeze_every
        if since >= collect_every or (_released and (calm or since >= RELEASE_EVERY)):
            since = 0.0
            refreeze()
        else:
            gc.freeze()
