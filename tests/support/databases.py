"""Throwaway test databases (SQLite files and Postgres databases), built through Alembic.

Postgres comes from ``TEST_POSTGRES_URL`` (any database on the server; fresh databases are
created beside it and dropped afterwards). With ``REQUIRE_POSTGRES=1`` a missing or unreachable
Postgres fails the run instead of skipping.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from app.settings import ROOT, normalise_database_url
from app.store.db import make_engine
from app.store.models import Base

BACKENDS = ("sqlite", "postgres")


def postgres_base_url() -> str | None:
    """``TEST_POSTGRES_URL`` with the async driver, or None when unset."""
    url = os.environ.get("TEST_POSTGRES_URL")
    return normalise_database_url(url) if url else None


def postgres_required() -> bool:
    """True when a missing Postgres must fail the run (CI)."""
    return os.environ.get("REQUIRE_POSTGRES") == "1"


def alembic_config(url: str) -> Config:
    """An Alembic config for the project's migrations against ``url``."""
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["configure_logger"] = False
    return cfg


def migrate(url: str, revision: str = "head") -> None:
    """``alembic upgrade <revision>`` against ``url``."""
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    """``alembic downgrade <revision>`` against ``url``."""
    command.downgrade(alembic_config(url), revision)


async def _admin(sql: str) -> None:
    base = postgres_base_url()
    assert base
    engine = make_engine(base)
    try:
        async with engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


def create_postgres_database() -> str:
    """Create an empty database on the test server; returns its async URL."""
    base = postgres_base_url()
    assert base
    name = f"knobel_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    return make_url(base).set(database=name).render_as_string(hide_password=False)


def drop_postgres_database(url: str) -> None:
    """Drop a database made by ``create_postgres_database`` (closing leftover connections)."""
    name = make_url(url).database
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def create_sqlite_database(folder: Path) -> str:
    """A new SQLite file URL under ``folder`` (the file appears on first use)."""
    return f"sqlite+aiosqlite:///{folder / ('knobel-' + uuid.uuid4().hex[:8] + '.sqlite3')}"


async def _truncate(url: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            tables = [t.name for t in reversed(Base.metadata.sorted_tables)]
            if url.startswith("postgresql"):
                await conn.execute(
                    text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")
                )
            else:
                for table in tables:
                    await conn.execute(text(f"DELETE FROM {table}"))
    finally:
        await engine.dispose()


def truncate_all(url: str) -> None:
    """Empty every table of the migrated database ``url``."""
    asyncio.run(_truncate(url))


def postgres_problem() -> str | None:
    """Why ``TEST_POSTGRES_URL`` cannot be used (unset, or the connection error), or None when
    it answers."""
    if not postgres_base_url():
        return "TEST_POSTGRES_URL is unset"
    try:
        asyncio.run(_admin("SELECT 1"))
    except (OSError, DBAPIError) as exc:  # refused, unknown host, timeout; or refused by the server
        return f"{type(exc).__name__}: {exc}"
    return None
