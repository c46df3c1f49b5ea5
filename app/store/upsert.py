"""The one dialect-specific piece: ``INSERT ... ON CONFLICT`` for SQLite and Postgres."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


def insert_for(session: AsyncSession, model: Any) -> Any:
    """An ``insert(model)`` of the session's dialect, which has ``on_conflict_do_*``.

    Raises NotImplementedError for a database other than SQLite or Postgres.
    """
    name = session.get_bind().dialect.name
    if name == "postgresql":
        return postgresql.insert(model)
    if name == "sqlite":
        return sqlite.insert(model)
    raise NotImplementedError(f"no upsert for {name}")
