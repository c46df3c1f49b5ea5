"""Which process moves a room's bots: a lease per room (docs/architecture.md, "Bots").

With one process (``memory://``) the process always holds it. With several behind Redis, the
lease is the key ``knobel:bots:<code>`` holding the owner's token, taken with ``SET NX PX`` and
renewed (only by its owner, in one Lua script) before every bot move; an owner that dies loses
it after ``ttl`` seconds and another process takes over. The lease only keeps two processes
from both deciding for the bots; the final guard is the room service itself (action ids and
the basis check: a move decided twice is applied once).
"""

from __future__ import annotations

import secrets
from typing import Protocol

import structlog

from app.store.redis_client import redis_client

log = structlog.get_logger("knobel.bots")
KEY = "knobel:bots:{}"
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) and 1 or 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class Lease(Protocol):
    """Ownership of rooms' bot moves."""

    async def hold(self, code: str) -> bool:
        """Take or renew the lease of room ``code``; True when this process holds it."""

    async def release(self, code: str) -> None:
        """Give up the lease of room ``code`` (if held)."""

    async def close(self) -> None:
        """Close connections (shutdown)."""


class LocalLease:
    """One process: it always holds every lease."""

    async def hold(self, code: str) -> bool:
        """Always True."""
        return True

    async def release(self, code: str) -> None:
        """Nothing to give up."""

    async def close(self) -> None:
        """Nothing to close."""


class RedisLease:
    """A lease per room in Redis (``url``: ``redis://...``), ``ttl`` seconds long."""

    def __init__(self, url: str, ttl: float = 5.0) -> None:
        self._redis = redis_client(url)
        self.token = secrets.token_hex(8)
        self.ttl_ms = int(ttl * 1000)

    async def hold(self, code: str) -> bool:
        """Renew our lease or take a free one; False when another process holds it or Redis
        cannot be reached (then nobody here moves bots: safe)."""
        try:
            held = await self._redis.eval(_RENEW, 1, KEY.format(code), self.token, self.ttl_ms)
        except Exception as exc:
            log.warning("bot_lease_failed", room=code, error=type(exc).__name__)
            return False
        return bool(held)

    async def release(self, code: str) -> None:
        """Delete our lease (not another process's)."""
        try:
            await self._redis.eval(_RELEASE, 1, KEY.format(code), self.token)
        except Exception as exc:
            log.warning("bot_lease_release_failed", room=code, error=type(exc).__name__)

    async def close(self) -> None:
        """Close the connection pool."""
        await self._redis.aclose()


def make_lease(broadcast_url: str) -> Lease:
    """The lease for ``BROADCAST_URL``: Redis when it is ``redis://...``, else local."""
    if broadcast_url.startswith(("redis://", "rediss://", "unix://")):
        return RedisLease(broadcast_url)
    return LocalLease()
