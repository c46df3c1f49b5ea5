"""``app.store.periodic.Periodic``: rounds at start, on ``wake`` and every interval; ``stop``
lets the current round finish instead of cancelling it inside its database work (a CI run
hung 300 s at the end of a test, in the event loop's final cancellation of leftover tasks,
with the push sender and the deadline scheduler cancelled mid-round)."""

from __future__ import annotations

import asyncio

from app.store.periodic import Periodic


async def test_stop_waits_for_the_round_under_way_and_no_task_is_left() -> None:
    release, began, finished = asyncio.Event(), asyncio.Event(), []

    async def work() -> None:
        began.set()
        await release.wait()  # a round busy with its database work
        finished.append(True)

    job = Periodic(work, interval=60, name="test")
    job.start()
    await began.wait()
    stopping = asyncio.create_task(job.stop())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # not cancelled: waiting for the round
    release.set()
    await stopping
    assert finished == [True]
    assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []


async def test_rounds_come_at_start_on_wake_and_an_overlong_round_is_cancelled() -> None:
    rounds: list[int] = []
    forever = asyncio.Event()

    async def work() -> None:
        rounds.append(len(rounds))
        if len(rounds) == 3:
            await forever.wait()

    job = Periodic(work, interval=60, name="test", grace=0.1)
    job.start()
    await asyncio.sleep(0.02)
    assert rounds == [0]
    job.wake()
    await asyncio.sleep(0.02)
    assert rounds == [0, 1]
    job.wake()
    await asyncio.sleep(0.02)
    await job.stop()  # the third round never ends: cancelled after the grace
    assert rounds == [0, 1, 2]
    assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []
