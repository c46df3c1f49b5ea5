"""The schema comes from Alembic: upgrade, downgrade and upgrade again on both databases."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import inspect

from app.store.db import make_engine
from tests.conftest import require_backend
from tests.support import databases as dbs

EXPECTED_TABLES = {"players", "rooms", "seats", "games", "game_events", "alembic_version"}


async def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
    finally:
        await engine.dispose()


@pytest.mark.parametrize("backend_name", dbs.BACKENDS)
def test_upgrade_downgrade_upgrade(backend_name: str, tmp_path) -> None:
    require_backend(backend_name)
    url = (
        dbs.create_sqlite_database(tmp_path)
        if backend_name == "sqlite"
        else dbs.create_postgres_database()
    )
    try:
        dbs.migrate(url)
        assert EXPECTED_TABLES <= asyncio.run(_tables(url))
        dbs.downgrade(url, "base")
        assert asyncio.run(_tables(url)) <= {"alembic_version"}
        dbs.migrate(url)
        assert EXPECTED_TABLES <= asyncio.run(_tables(url))
    finally:
        if backend_name == "postgres":
            dbs.drop_postgres_database(url)


def test_event_log_rejects_a_second_event_with_the_same_seq(settings) -> None:
    from sqlalchemy.exc import IntegrityError

    from app.store.models import Game, GameEvent

    async def run() -> None:
        engine = make_engine(settings.database_url)
        from sqlalchemy.ext.asyncio import async_sessionmaker

        maker = async_sessionmaker(engine, expire_on_commit=False)
        try:
            async with maker() as session:
                game = Game(kind="knister", options={}, seat_ids=[])
                session.add(game)
                await session.flush()
                session.add(GameEvent(game_id=game.id, seq=1, type="roll", payload={}))
                await session.commit()
                session.add(GameEvent(game_id=game.id, seq=1, type="roll", payload={}))
                with pytest.raises(IntegrityError):
                    await session.commit()
        finally:
            await engine.dispose()

    asyncio.run(run())
