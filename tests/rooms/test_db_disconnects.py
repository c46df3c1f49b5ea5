"""Postgres connections that die under the room service (issue 11, part 6).

Pooled connections are not pinged before use. When one turns out to be dead, the unit of work
(one autocommit statement or one transaction) runs again on a fresh connection; when the dead
connection had already committed it (its reply was lost), the second run finds the room version
moved, and the action is recognised by its ``action_id`` as a duplicate: applied once.

Real faults, on the test Postgres: ``pg_terminate_backend`` kills the service's pooled
connections; a proxy between the service and Postgres (``tests/support/tcp_proxy.py``) drops
the server's answer to a committed statement and cuts the connection.
"""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select, text
from sqlalchemy.engine import make_url
from structlog.testing import capture_logs

from app.rooms.dice import DiceSource
from app.rooms.service import RoomService
from app.store.db import Database, make_engine
from app.store.models import Game, GameEvent, Room
from tests.support.room_service import act_as
from tests.support.tcp_proxy import ReplyLosingProxy

ON_POSTGRES = pytest.mark.parametrize("backend", ["postgres"], indirect=True)

FACES = [random.Random(11).randint(1, 6) for _ in range(50)]


async def _publish(code: str, version: int, delta: str | None = None) -> None:
    return None


async def _knister_room(database_url: str) -> tuple[RoomService, Database, str]:
    """A started two-seat Knister room (Anna, Bram) whose 25 rolls are ``FACES``."""
    dice = DiceSource(allow_loaded=True)
    db = Database(database_url)
    service = RoomService(db, _publish, dice)
    code = await service.create_room("p-anna", "Anna", "knister")
    await service.join(code, "p-bram", "Bram")
    await act_as(service, code, "p-anna", {"type": "start"})
    dice.load(code, FACES)
    return service, db, code


async def _next_move(service: RoomService, code: str) -> tuple[str, dict, bool]:
    """(player, message, is the game's last action) of the next Knister move: the roll, or
    the first free cell of the first seat still to place."""
    state = await service.snapshot(code)
    cur = state.plugin.public(state.game_state)
    player_of = {s.id: s.player_id for s in state.seats}
    if not cur["roll_pending"]:
        return player_of[cur["roller"]], {"type": "roll", "roll": len(cur["rolls"])}, False
    seat = next(s for s in cur["active"] if s not in cur["placed"])
    grid = cur["sheets"][str(seat)]
    r, c = next((r, c) for r in range(5) for c in range(5) if grid[r][c] is None)
    last = len(cur["rolls"]) == 25 and len(cur["placed"]) == len(cur["active"]) - 1
    return player_of[seat], {"type": "place", "cell": f"{r},{c}", "roll": len(cur["rolls"])}, \
        last


async def _stored(database_url: str, code: str) -> dict:
    """What the database holds for room ``code``: its version, its events' action ids, and
    its games' statuses and results."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            version = (await conn.execute(
                select(Room.version).where(Room.code == code))).scalar_one()
            events = (await conn.execute(
                select(GameEvent.type, GameEvent.action_id).join(Game).join(Room)
                .where(Room.code == code).order_by(GameEvent.seq))).all()
            games = (await conn.execute(
                select(Game.status, Game.result).join(Room).where(Room.code == code))).all()
    finally:
        await engine.dispose()
    return {"version": version, "events": [tuple(e) for e in events],
            "games": [tuple(g) for g in games]}


async def _kill_pooled_connections(database_url: str) -> int:
    """Terminate every other session on the test database (the service's pool); how many."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            return (await conn.execute(text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"))).scalar_one()
    finally:
        await engine.dispose()


def _retries(logs: list[dict]) -> list[tuple[str, int]]:
    return [(e["unit"], e["attempt"]) for e in logs if e["event"] == "db_retry"]


@ON_POSTGRES
async def test_an_action_on_a_dead_pooled_connection_is_retried_and_applied_once(settings):
    service, db, code = await _knister_room(settings.database_url)
    before = await _stored(settings.database_url, code)
    assert await _kill_pooled_connections(settings.database_url) >= 1

    with capture_logs() as logs:
        outcome = await service.act(code, "p-anna", {"type": "roll", "roll": 0,
                                                      "action_id": "roll-1"})

    assert (outcome.version, outcome.duplicate) == (before["version"] + 1, False)
    assert _retries(logs) == [("append", 1)]
    after = await _stored(settings.database_url, code)
    assert after["version"] == before["version"] + 1
    assert after["events"] == [("roll", "roll-1")]
    service.close()
    await db.dispose()


@ON_POSTGRES
async def test_a_read_on_a_dead_pooled_connection_is_retried(settings):
    service, db, code = await _knister_room(settings.database_url)
    version = (await service.snapshot(code)).version
    assert await _kill_pooled_connections(settings.database_url) >= 1

    with capture_logs() as logs:
        state = await service.snapshot(code, -1)  # -1: reload from the database

    assert state is not None and state.version == version
    assert _retries(logs) == [("load_room", 1)]
    with capture_logs() as logs:
        assert await service.versions([code, "ZZZZZZ"]) == {code: version}
    assert _retries(logs) == []  # the pool was renewed by the first failure
    service.close()
    await db.dispose()


@ON_POSTGRES
async def test_an_action_whose_committed_reply_was_lost_is_answered_as_a_duplicate(settings):
    url = make_url(settings.database_url)
    async with ReplyLosingProxy(url.host or "127.0.0.1", url.port or 5432) as proxy:
        proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(False)
        service, db, code = await _knister_room(proxied)
        before = await _stored(settings.database_url, code)

        proxy.lose_reply(b"INSERT 0 1")  # the one-statement append of a roll
        with capture_logs() as logs:
            outcome = await service.act(code, "p-anna", {"type": "roll", "roll": 0,
                                                      "action_id": "r-1"})

        assert proxy.cuts == 1
        assert _retries(logs) == [("append", 1)]
        assert (outcome.version, outcome.duplicate) == (before["version"] + 1, True)
        after = await _stored(settings.database_url, code)
        assert after["version"] == before["version"] + 1
        assert after["events"] == [("roll", "r-1")]
        # the game goes on from there: the roll is the queued one, Bram can place it
        state = await service.snapshot(code)
        assert state.plugin.public(state.game_state)["rolls"] == [FACES[:2]]
        assert not (await service.act(code, "p-bram", {"type": "place", "cell": "0,0",
                                                       "roll": 1})).duplicate
        service.close()
        await db.dispose()


@ON_POSTGRES
async def test_the_last_action_whose_commit_reply_was_lost_finishes_the_game_once(settings):
    url = make_url(settings.database_url)
    async with ReplyLosingProxy(url.host or "127.0.0.1", url.port or 5432) as proxy:
        proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(False)
        service, db, code = await _knister_room(proxied)
        for _ in range(80):  # 25 rolls x (1 roll + 2 placements) = 75 actions
            player, message, last = await _next_move(service, code)
            if last:
                break
            await service.act(code, player, message)
        else:
            raise AssertionError("the game did not reach its last action")
        before = await _stored(settings.database_url, code)

        proxy.lose_reply(b"COMMIT")  # the transaction that stores the move and the result
        outcome = await service.act(code, player, {**message, "action_id": "last"})

        assert proxy.cuts == 1
        assert (outcome.version, outcome.duplicate) == (before["version"] + 1, True)
        after = await _stored(settings.database_url, code)
        assert after["version"] == before["version"] + 1
        assert after["events"][:-1] == before["events"]
        assert after["events"][-1] == ("place", "last")
        state = await service.snapshot(code)
        assert state.status == "finished"
        # FACES draws each die from a fresh Random(11): every roll is 4 + 4, every cell an 8,
        # every line five of a kind (10): 5 rows + 5 columns + 2 x 2 diagonals = 140 a seat
        totals = {str(seat): 140 for seat in state.game_state.order}
        assert after["games"] == [("finished", {"totals": totals, "records": []})]
        service.close()
        await db.dispose()


async def test_versions_reads_many_rooms_in_chunks(settings):
    service, db, code = await _knister_room(settings.database_url)
    others = [f"Q{i:05d}" for i in range(2500)]  # three chunks; unknown codes are left out
    assert await service.versions([*others[:1200], code, *others[1200:]]) == \
        {code: (await service.snapshot(code)).version}
    service.close()
    await db.dispose()
