"""A live room's action stored through the pooled connection's own driver
(app/store/driver.py, the statement in app/rooms/repository.py), on the test Postgres."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.rooms.dice import DiceSource
from app.rooms.repository import APPEND_ONE_SQL
from app.rooms.service import RoomService
from app.store.db import Database
from app.store.driver import driver_execute
from app.store.models import Game, GameEvent, Room
from tests.support.room_service import act_as

ON_POSTGRES = pytest.mark.parametrize("backend", ["postgres"], indirect=True)


async def _publish(code: str, version: int, delta: str | None = None) -> None:
    return None


@pytest.fixture
async def started(settings):
    """``(service, db, code)``: a started two-seat Knister room (Anna, Bram)."""
    db = Database(settings.database_url)
    service = RoomService(db, _publish, DiceSource(allow_loaded=True))
    code = await service.create_room("p-anna", "Anna", "knister")
    await service.join(code, "p-bram", "Bram")
    await act_as(service, code, "p-anna", {"type": "start"})
    yield service, db, code


async def _room(db: Database, code: str) -> tuple[int, int, int]:
    """(room id, version, running game id)."""
    async with db.engine.connect() as conn:
        room_id, version = (await conn.execute(
            select(Room.id, Room.version).where(Room.code == code))).one()
        game_id = (await conn.execute(select(Game.id).where(Game.room_id == room_id))).scalar()
    return room_id, version, game_id


def _autocommit(db: Database):
    """The engine in autocommit mode, as the repository sends a live room's action."""
    return db.engine.execution_options(isolation_level="AUTOCOMMIT")


@ON_POSTGRES
async def test_an_action_is_stored_with_every_column_as_sqlalchemy_would_store_it(started):
    service, db, code = started
    _, before, game_id = await _room(db, code)

    outcome = await service.act(code, "p-anna", {"type": "roll", "roll": 0, "action_id": "r-1"})

    assert outcome.version == before + 1
    async with db.engine.connect() as conn:
        event = (await conn.execute(select(
            GameEvent.type, GameEvent.action_id, GameEvent.seq, GameEvent.payload,
            GameEvent.created_at).where(GameEvent.game_id == game_id)
            .order_by(GameEvent.seq.desc()).limit(1))).one()
        version = (await conn.execute(select(Room.version).where(Room.code == code))).scalar()
    assert (event.type, event.action_id, event.seq) == ("roll", "r-1", 1)
    assert isinstance(event.payload, dict) and len(event.payload["dice"]) == 2
    assert isinstance(event.created_at, datetime) and event.created_at.utcoffset() is not None
    assert version == before + 1
    # and the room, reloaded from the database, is the one the service holds
    reloaded = await service.snapshot(code, -1)
    assert reloaded.plugin.public(reloaded.game_state)["rolls"] == \
        (await service.snapshot(code)).plugin.public(reloaded.game_state)["rolls"]


@ON_POSTGRES
async def test_the_statement_bumps_only_the_version_it_was_decided_on(started):
    service, db, code = started
    room_id, version, game_id = await _room(db, code)
    now = datetime.now().astimezone()
    auto = _autocommit(db)
    args = (game_id, 1, "roll", '{"dice": [1, 2]}', 1, "a-1", now)

    async with auto.connect() as conn:
        assert await driver_execute(conn, APPEND_ONE_SQL, room_id, version - 1, *args) == \
            "INSERT 0 0"  # another writer moved the version: nothing stored
        assert await driver_execute(conn, APPEND_ONE_SQL, room_id, version, *args) == \
            "INSERT 0 1"
        with pytest.raises(IntegrityError):  # the same event number again
            await driver_execute(conn, APPEND_ONE_SQL, room_id, version + 1, *args)
    _, after, _ = await _room(db, code)
    assert after == version + 1  # the refused statement bumped nothing


@ON_POSTGRES
async def test_a_connection_the_driver_cannot_use_is_left_to_sqlalchemy(started):
    service, db, code = started
    room_id, version, game_id = await _room(db, code)
    async with _autocommit(db).connect() as conn:
        raw = await conn.get_raw_connection()
        await raw.driver_connection.close()  # as if Postgres had gone
        assert await driver_execute(conn, APPEND_ONE_SQL, room_id, version, game_id, 1,
                                    "roll", "{}", 1, None, datetime.now().astimezone()) is None
        await conn.invalidate()
    _, after, _ = await _room(db, code)
    assert after == version
