"""Keep the cyclic garbage collector from stalling the event loop.

A full collection walks every tracked object; with 2,000 open sockets (each a stack of
coroutines, frames and protocol objects) that is ~500,000 objects and 300-400 ms in which no
socket is served, every few seconds under load (measured with bench/rooms_load.py; see
bench/README.md). So long-lived objects are frozen (``gc.freeze``: left out of collections)
every ``FREEZE_EVERY`` seconds, which is cheap, and every ``COLLECT_EVERY`` seconds everything
is collected once (frozen objects included, freeing any cycles among them) and frozen again.
Objects freed by reference counting (almost all) are freed at once, as always.

The young generations are collected less often than Python's default (``THRESHOLDS``): every
room version replaces a few hundred small objects per socket (what each page shows), which
with the default thresholds survive two young collections, reach the old generation and
trigger full collections every second or so.
"""

from __future__ import annotations

import asyncio
import gc

FREEZE_EVERY = 10.0  # seconds
COLLECT_EVERY = 600.0  # seconds
THRESHOLDS = (20_000, 50, 50)  # Python's default: (700, 10, 10)


def tune() -> None:
    """Set ``THRESHOLDS`` and freeze what start-up loaded (it lives as long as the process)."""
    gc.set_threshold(*THRESHOLDS)
    refreeze()


def refreeze() -> None:
    """Collect everything (frozen objects included), then freeze the survivors."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


async def keep_frozen(freeze_every: float = FREEZE_EVERY,
                      collect_every: float = COLLECT_EVERY) -> None:
    """Freeze every ``freeze_every`` seconds and ``refreeze`` every ``collect_every``
    seconds, until cancelled."""
    since = 0.0
    while True:
        await asyncio.sleep(freeze_every)
        since += freeze_every
        if since >= collect_every:
            since = 0.0
            refreeze()
        else:
            gc.freeze()
