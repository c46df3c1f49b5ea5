"""Idle rooms leave memory and come back from the database (issue 15): the service forgets a
room's state, lock and timer; the sweep forgets only rooms idle long enough with no socket."""

from __future__ import annotations

from app.live.idle import IdleRooms
from app.rooms.dice import DiceSource
from app.rooms.service import RoomService
from app.store.db import Database
from app.web.room_view import PartCache, live_context
from tests.support.room_service import act_as


async def _publish(code: str, version: int, delta: str | None = None) -> None:
    return None


async def test_a_forgotten_room_comes_back_from_the_database(settings) -> None:
    db = Database(settings.database_url)
    loaded: list[str] = []
    service = RoomService(db, _publish, DiceSource(allow_loaded=True))
    service.loaded = loaded.append
    code = await service.create_room("p-ann", "Ann", "knister")
    await service.join(code, "p-bob", "Bob")
    await act_as(service, code, "p-ann", {"type": "start"})
    before = await service.snapshot(code)
    assert before is not None and loaded
    parts = PartCache()
    live_context(before, "p-ann", frozenset(), parts)["part_html"](
        live_context(before, "p-ann", frozenset(), parts)["room_parts"][0])
    assert len(parts) == 1
    assert service.forget(code)
    parts.forget(code)
    assert code not in service._rooms and code not in service._locks and len(parts) == 0
    after = await service.snapshot(code)
    assert after is not None and after is not before
    assert (after.version, after.game_state.roller) == (before.version, before.game_state.roller)
    service.close()
    await db.dispose()


async def test_a_room_busy_with_an_action_is_kept(settings) -> None:
    db = Database(settings.database_url)
    service = RoomService(db, _publish, DiceSource())
    code = await service.create_room("p-ann", "Ann", "knister")
    await service.snapshot(code)
    async with service.lock(code):
        assert not service.forget(code)
    assert service.forget(code)
    service.close()
    await db.dispose()


async def test_codes_that_name_no_room_leave_nothing_behind(settings) -> None:
    db = Database(settings.database_url)
    service = RoomService(db, _publish, DiceSource())
    for code in ("ABCDEF", "GHJKLM"):
        assert await service.snapshot(code) is None
        assert await service.current(code) is None
    assert service._rooms == {} and service._locks == {}
    service.close()
    await db.dispose()


def test_the_sweep_forgets_rooms_idle_long_enough_and_not_occupied_ones() -> None:
    now = [0.0]
    forgotten: list[str] = []
    keep = {"BUSY"}

    def forget(code: str) -> bool:
        if code in keep:
            return False
        forgotten.append(code)
        return True

    idle = IdleRooms(forget, after=300, clock=lambda: now[0])
    for code in ("OLD", "BUSY", "BACK"):
        idle.emptied(code)
    now[0] = 200
    idle.emptied("NEW")
    idle.occupied("BACK")  # a socket opened again
    assert idle.sweep() == [] and forgotten == []
    now[0] = 301
    assert idle.sweep() == ["OLD"]
    now[0] = 600
    assert idle.sweep() == ["NEW"]  # BUSY is kept for a later sweep, BACK has a socket
    keep.clear()
    assert idle.sweep() == ["BUSY"]


def test_the_sweep_runs_every_quarter_of_the_idle_time_at_most_every_30_seconds() -> None:
    # a room leaves memory at most a quarter of its idle time late (bench/soak.py)
    assert IdleRooms(lambda code: True, after=5).every == 1.25
    assert IdleRooms(lambda code: True, after=300).every == 30.0
    assert IdleRooms(lambda code: True, after=300, every=2).every == 2
