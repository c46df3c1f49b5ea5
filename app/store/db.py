"""The async SQLAlchemy engine and session factory.

SQLite gets WAL mode, foreign keys and a busy timeout so several connections (and a restarted
server) can share one file; Postgres uses asyncpg with a small pool.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


def make_engine(url: str, pool_size: int = 20, max_overflow: int = 10,
                pool_timeout: float = 30.0) -> AsyncEngine:
    """Create an async engine for ``url`` (an async-driver SQLAlchemy URL).

    For a SQLite file the parent folder is created first (when possible).
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            try:
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            except OSError:
                pass  # reported by the first query (and /healthz), not at start-up
        pool = ({} if parsed.database in (None, "", ":memory:") else
                {"pool_size": pool_size, "max_overflow": max_overflow,
                 "pool_timeout": pool_timeout})
        engine = create_async_engine(url, connect_args={"timeout": 30}, **pool)

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - driver hook
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    # 20 kept open: under load, connections beyond the pool are opened and closed per
    # transaction, which costs more than the transaction (bench/rooms_load.py). No ping
    # before each use (a round trip per action): when Postgres restarts, the first failing
    # statement invalidates the whole pool and its unit runs again on a fresh connection
    # (app/store/retry.py); idle connections are renewed hourly.
    return create_async_engine(url, pool_size=pool_size, max_overflow=max_overflow,
                               pool_timeout=pool_timeout, pool_recycle=3600)


class Database:
    """One engine and its session factory; ``session()`` yields a fresh ``AsyncSession``."""

    def __init__(self, url: str, pool_size: int = 20, max_overflow: int = 10,
                 pool_timeout: float = 30.0) -> None:
        self.url = url
        self.engine = make_engine(url, pool_size, max_overflow, pool_timeout)
        self.sessionmaker = async_sessionmaker(self.engine, expire_on_commit=False)

    async def session(self) -> AsyncIterator[AsyncSession]:
        """Yield a session that is closed (and rolled back if uncommitted) afterwards."""
        async with self.sessionmaker() as session:
            yield session

    async def dispose(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()
