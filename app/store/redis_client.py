"""The one way the app opens Redis (``redis://``, ``rediss://`` or ``unix://`` URLs): redis-py's
asyncio client on a blocking connection pool, so a burst of commands waits for a free
connection instead of failing (redis-py's default pool raises ``MaxConnectionsError`` past 100
commands at once: announcements and leases were lost that way under load)."""

from __future__ import annotations

from typing import Any

CONNECTIONS = 32
"""Connections per client and process; a command waits up to ``WAIT`` seconds for one."""
WAIT = 5.0


def redis_client(url: str, connections: int = CONNECTIONS) -> Any:
    """A ``redis.asyncio.Redis`` for ``url`` (replies decoded as text) on a blocking pool of at
    most ``connections``; closing the client (``aclose()``) closes its pool. Nothing is
    connected until the first command."""
    from redis import asyncio as aioredis

    pool = aioredis.BlockingConnectionPool.from_url(
        url, decode_responses=True, max_connections=connections, timeout=WAIT)
    return aioredis.Redis.from_pool(pool)
