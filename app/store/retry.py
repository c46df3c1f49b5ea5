"""Run a unit of database work again when its pooled connection turned out to be dead.

Pooled connections are not pinged before use (that would cost a round trip per action). After
Postgres restarts, every pooled connection is dead, and the first statement sent on one fails
with a ``DBAPIError`` whose ``connection_invalidated`` is true; SQLAlchemy then marks every
connection of the pool opened before that moment as stale, so the next checkout connects
afresh ("Disconnect Handling - Optimistic" in SQLAlchemy's pooling docs). SQLAlchemy cannot
re-run the lost transaction itself; the caller can: ``on_fresh_connection`` runs the whole unit
(one transaction, or one autocommit statement) again.

A unit may have committed before its connection died (the reply was lost). Units that write
are safe to run again because every room write checks the room version it was decided on: the
second attempt finds the version moved and raises ``Conflict``, and the room service then
reloads and recognises the action by its ``action_id`` as a duplicate.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import structlog
from sqlalchemy.exc import DBAPIError

log = structlog.get_logger("knobel.store")

T = TypeVar("T")
ATTEMPTS = 3  # one try and two retries: each retry gets a fresh connection


async def on_fresh_connection(unit: Callable[[], Awaitable[T]], name: str) -> T:
    """``await unit()``; when it fails because its connection was dead, run it again.

    ``unit``: a coroutine function that opens its own connection or session and does one whole
    transaction (or one autocommit statement); ``name`` names it in the log. Only errors
    SQLAlchemy flags with ``connection_invalidated`` are retried, at most ``ATTEMPTS`` runs in
    all, with no pause (the pool connects afresh at once). Anything else - a refused connection
    while the database is down, a constraint violation, a ``Conflict`` - is raised unchanged,
    as is the last disconnect error.
    """
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return await unit()
        except DBAPIError as exc:
            if not exc.connection_invalidated or attempt == ATTEMPTS:
                raise
            log.warning("db_retry", unit=name, attempt=attempt,
                        error=type(exc.orig).__name__ if exc.orig is not None else "")
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises
