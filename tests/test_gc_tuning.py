"""Rooms that leave memory have their frozen garbage collected soon (app/gc_tuning.py)."""

from __future__ import annotations

import asyncio
import gc

import pytest

from app import gc_tuning
from tests.support.waiting import until_async


@pytest.fixture(autouse=True)
def _thresholds():
    """keep_frozen sets the process's thresholds: put the test process's back."""
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


class Cycle:
    """A piece of garbage only the cyclic collector frees."""

    def __init__(self) -> None:
        self.me = self


async def test_released_rooms_trigger_a_full_collection_of_frozen_garbage() -> None:
    assert await _release_collects(busy=None, release_every=0.02)


def _frozen() -> list[object]:
    gc.unfreeze()
    try:
        return gc.get_objects()
    finally:
        gc.freeze()


async def test_a_busy_process_freezes_what_is_young_instead_of_collecting_it() -> None:
    # a young collection under load walked tens of thousands of live objects to free a few
    # dozen (about 10% of the CPU at 250 rooms x 8 seats): while busy, what is young is
    # frozen on the timer instead, and no collection walks it until the next full one
    was_enabled = gc.isenabled()
    gc.disable()  # no automatic collection: only the timer's
    gc_tuning.refreeze()
    try:
        kept = Cycle()
        frozen_before = gc.get_freeze_count()
        collections = gc.get_stats()[0]["collections"]
        task = asyncio.create_task(gc_tuning.keep_frozen(freeze_every=60.0, young_every=0.01))
        try:
            await until_async(lambda: gc.get_freeze_count() > frozen_before,
                              "what is young is frozen", 1, every=0.01)
        finally:
            task.cancel()
        assert any(o is kept for o in _frozen())
        assert not any(o is kept for o in gc.get_objects(0))
        assert gc.get_stats()[0]["collections"] == collections  # nothing was walked
    finally:
        gc_tuning.refreeze()
        gc_tuning._set_mode(False)
        if was_enabled:
            gc.enable()


class Ticks:
    """A ``busy`` function for ``keep_frozen`` that answers ``busy`` and counts how often it
    was asked: once at the start of every tick, so after ``n + 1`` questions ``n`` ticks
    are done (the positive barrier instead of a sleep)."""

    def __init__(self, busy: bool) -> None:
        self.busy, self.asked = busy, 0

    def __call__(self) -> bool:
        self.asked += 1
        return self.busy

    async def done(self, ticks: int) -> None:
        """Wait until ``ticks`` more ticks have run to their end."""
        target = self.asked + ticks + 1
        await until_async(lambda: self.asked >= target, f"{ticks} ticks of keep_frozen", 10,
                          every=0.005)


async def _release_collects(busy: bool, release_every: float = 60.0) -> bool:
    """Whether one released room gets its frozen garbage collected within 20 freeze ticks
    (0.01 s each), with ``RELEASE_EVERY`` at ``release_every`` seconds, while the process is
    ``busy`` or not."""
    gc_tuning.refreeze()
    cycle = Cycle()
    gc.freeze()  # frozen while in use, as a room's sockets are after ten seconds
    assert gc.get_freeze_count() > 0
    cycle_id = id(cycle)
    del cycle  # now garbage, but frozen: no ordinary collection frees it
    gc.collect()
    assert any(id(o) == cycle_id for o in gc.get_objects() + _frozen())
    gc_tuning.released(1)
    ticks = Ticks(busy)
    task = asyncio.create_task(gc_tuning.keep_frozen(
        freeze_every=0.01, collect_every=60.0, busy=ticks))
    old, gc_tuning.RELEASE_EVERY = gc_tuning.RELEASE_EVERY, release_every
    try:
        await ticks.done(20)
    finally:
        gc_tuning.RELEASE_EVERY = old
        task.cancel()
    collected = gc_tuning._released == 0
    gc.unfreeze()
    gone = not any(id(o) == cycle_id and isinstance(o, Cycle) for o in gc.get_objects())
    gc_tuning.refreeze()
    gc_tuning._released = 0
    return collected and gone


async def test_a_calm_process_collects_released_rooms_at_once_a_busy_one_waits() -> None:
    # a calm process (few sockets) collects a released room's frozen garbage at the next
    # freeze tick, so it does not pile up (bench/soak.py); a busy one at most every
    # RELEASE_EVERY seconds, as a full collection then takes hundreds of ms
    assert await _release_collects(busy=False)
    assert not await _release_collects(busy=True)


async def test_the_thresholds_follow_whether_the_process_is_busy() -> None:
    ticks = Ticks(True)
    task = asyncio.create_task(gc_tuning.keep_frozen(
        freeze_every=60.0, young_every=0.01, busy=ticks))
    try:
        await ticks.done(2)
        assert gc.get_threshold() == gc_tuning.THRESHOLDS
        ticks.busy = False
        await ticks.done(2)
        assert gc.get_threshold() == gc_tuning.CALM_THRESHOLDS == (700, 10, 10)
        assert gc_tuning._slow == gc_tuning.CALM_SLOW_COLLECTION
    finally:
        task.cancel()
        gc_tuning._set_mode(False)
