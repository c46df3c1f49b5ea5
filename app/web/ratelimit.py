"""Per-client rate limits for room creation, joins and unknown-room lookups (``limits``).

Counts live in this process's memory (moving windows); behind several replicas each replica
counts on its own, which still bounds abuse per replica. Exceeding a limit answers 429.
"""

from __future__ import annotations

from fastapi import HTTPException, Request
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from app.settings import Settings


class RateLimits:
    """The HTTP limits of one app, configured from settings (``RATE_LIMIT_*``)."""

    def __init__(self, settings: Settings) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._rules = {
            "create_room": parse_many(settings.rate_limit_rooms),
            "join": parse_many(settings.rate_limit_joins),
            "room_miss": parse_many(settings.rate_limit_misses),
        }

    def hit(self, kind: str, request: Request) -> None:
        """Count one ``kind`` action by the client; raises HTTP 429 over the limit."""
        client = request.client.host if request.client else "unknown"
        if not all(self._limiter.hit(rule, kind, client) for rule in self._rules[kind]):
            raise HTTPException(429, detail="too many requests")

    def blocked(self, kind: str, request: Request) -> bool:
        """True when the client is over the ``kind`` limit already (without counting)."""
        client = request.client.host if request.client else "unknown"
        return not all(self._limiter.test(rule, kind, client) for rule in self._rules[kind])
