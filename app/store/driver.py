"""One statement on a pooled connection's own asyncpg driver, past SQLAlchemy's execution.

A room action on Postgres is one autocommit statement (``app.rooms.repository``: the event
and the version bump). Through SQLAlchemy's ``execute`` its parameters are processed, its
result wrapped and its cursor adapted: a third of the statement's CPU in this process
(bench/README.md, "Measured (2026-12-07, session 17..."). Sent on the same pooled
connection's asyncpg driver (``AsyncConnection.get_raw_connection().driver_connection``) as
a prepared statement, it costs the driver's time only, while the connection stays
SQLAlchemy's: checked out, returned and invalidated by its pool as every other.

Failures keep SQLAlchemy's handling: a unique violation is raised as SQLAlchemy's
``IntegrityError`` (as ``execute`` raises it); any other driver error returns None, and the
caller runs the statement through SQLAlchemy on the same connection, which then fails the
same way and is handled as before (a dead connection invalidates the pool and raises a
``DBAPIError`` that ``app.store.retry.on_fresh_connection`` retries). A statement that may
have committed before its reply was lost is safe to run again: every room write checks the
version it was decided on.
"""

from __future__ import annotations

from typing import Any

from asyncpg.exceptions import UniqueViolationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection


async def driver_execute(conn: AsyncConnection, sql: str, *args: Any) -> str | None:
    """Run ``sql`` (parameters ``$1``.. bound to ``args``, in asyncpg's types: a JSON
    column's value as its text) on ``conn``'s asyncpg connection; returns the command's
    status (e.g. ``"INSERT 0 1"``), or None when the driver failed (see the module: the
    caller runs the statement through SQLAlchemy). ``conn``: an async connection of a
    Postgres engine with the asyncpg driver, in autocommit mode (the statement commits on
    its own). Raises ``sqlalchemy.exc.IntegrityError`` on a unique violation."""
    raw = await conn.get_raw_connection()
    driver = raw.driver_connection
    if driver is None:  # the connection was invalidated: SQLAlchemy's turn
        return None
    try:
        status: str = await driver.execute(sql, *args)
    except UniqueViolationError as exc:
        raise IntegrityError(sql, args, exc) from exc
    except Exception:  # the connection died, a timeout, ...: SQLAlchemy's turn
        return None
    return status
