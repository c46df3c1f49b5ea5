"""Migration g004 fills the kept records (``group_records``) and game list (``group_games``)
from the results recorded before it: downgrading past it and upgrading again gives the same
rows the recorder wrote (a fresh Postgres database).

Postgres only: on SQLite the way down passes v001, whose ``drop_column`` on ``games``
recreates that table (Alembic's batch mode) while the connection enforces foreign keys, so
the cascade empties every table that points at ``games`` (results, events) before g004 is
reached; a downgrade problem of v001, not of g004's fill."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from app.groups.models import GroupGame, GroupRecord
from app.store.db import Database
from tests.groups.games import known_games
from tests.store.test_migrations import fresh_url  # noqa: F401  (the fixture)
from tests.support import databases as dbs


async def _kept(url: str) -> tuple[list, list]:
    db = Database(url)
    try:
        async with db.sessionmaker() as session:
            records = [(r.group_id, r.month, r.kind, r.what, r.value, r.game_id, r.name,
                        r.number) for r in (await session.execute(
                            select(GroupRecord).order_by(GroupRecord.month, GroupRecord.kind,
                                                         GroupRecord.what))).scalars()]
            games = [(g.game_id, g.kind, g.code, g.number, g.places) for g in
                     (await session.execute(select(GroupGame).order_by(GroupGame.game_id)))
                     .scalars()]
            return records, games
    finally:
        await db.dispose()


async def _record(url: str) -> None:
    db = Database(url)
    try:
        await known_games(db)
    finally:
        await db.dispose()


@pytest.mark.parametrize("fresh_url", ["postgres"], indirect=True)
def test_g004_fills_records_and_games_from_the_results(fresh_url) -> None:  # noqa: F811
    dbs.migrate(fresh_url)
    asyncio.run(_record(fresh_url))
    recorded = asyncio.run(_kept(fresh_url))
    records, games = recorded
    assert len(games) == 5 and ("kniffel", "feats", 2) in {(r[2], r[3], r[4]) for r in records}
    dbs.downgrade(fresh_url, "r003")
    dbs.migrate(fresh_url)
    assert asyncio.run(_kept(fresh_url)) == recorded
