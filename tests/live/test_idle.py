"""The idle sweep (``app/live/idle.py``; docs/architecture.md, "Memory"): a room with no socket
here for ``after`` seconds (300 by default) is forgotten at the next sweep, which runs every
``every`` seconds once started, until stopped. The clock is the test's."""

from __future__ import annotations

import asyncio

from structlog.testing import capture_logs

from app.live.idle import IdleRooms


class Rooms:
    """What the sweep is given: ``forget(code)`` records the code and releases it."""

    def __init__(self) -> None:
        self.forgotten: list[str] = []
        self.now = 0.0

    def forget(self, code: str) -> bool:
        self.forgotten.append(code)
        return True

    def clock(self) -> float:
        return self.now


def test_a_room_leaves_when_it_has_been_idle_for_300_seconds_by_default() -> None:
    rooms = Rooms()
    idle = IdleRooms(rooms.forget, clock=rooms.clock)
    idle.emptied("A")
    rooms.now = 100
    idle.emptied("B")
    with capture_logs() as logs:
        rooms.now = 299.999
        assert idle.sweep() == []
        rooms.now = 300  # exactly A's idle time
        assert idle.sweep() == ["A"]
        assert idle.sweep() == []  # forgotten once
        rooms.now = 400
        assert idle.sweep() == ["B"]
    assert rooms.forgotten == ["A", "B"]
    assert [(e["event"], e["rooms"]) for e in logs] == [
        ("rooms_forgotten", 1), ("rooms_forgotten", 1)]  # only sweeps that forgot a room


async def test_once_started_the_sweep_runs_by_itself_until_stopped() -> None:
    rooms = Rooms()
    idle = IdleRooms(rooms.forget, after=10, every=0.01, clock=rooms.clock)
    await idle.stop()  # stopping what never started does nothing
    idle.emptied("A")
    idle.emptied("B")
    rooms.now = 10
    idle.start()
    for _ in range(500):
        if sorted(rooms.forgotten) == ["A", "B"]:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError(f"the sweep did not run: {rooms.forgotten}")
    task = idle._task
    await idle.stop()
    assert task is not None and task.done()  # ended, and stop() did not raise


def test_a_second_socket_of_an_occupied_room_keeps_it_occupied() -> None:
    """``occupied`` is told once per socket: the second socket of a room that has one open
    already (no idle time running) is fine, and the room stays until both are gone."""
    rooms = Rooms()
    idle = IdleRooms(rooms.forget, after=10, clock=rooms.clock)
    idle.emptied("A")  # loaded
    idle.occupied("A")  # first socket
    idle.occupied("A")  # second socket
    idle.occupied("B")  # a socket of a room never counted as empty
    rooms.now = 1000
    assert idle.sweep() == []
    idle.emptied("A")  # the last socket closed
    rooms.now = 1010
    assert idle.sweep() == ["A"] and rooms.forgotten == ["A"]
