"""Rate limits (``limits``): per client for room creation, joins and unknown-room lookups
(HTTP), and per player and room for socket messages.

Counts live in this process's memory; behind several replicas each replica counts on its own,
which still bounds abuse per replica. Exceeding an HTTP limit answers 429; the socket answers
with an error message (``app.web.socket``). The counters' storage is
``app.limits_storage.SparseExpiryStorage`` (shared with the talk service).
"""

from __future__ import annotations

from fastapi import HTTPException, Request
from limits import RateLimitItem, parse_many
from limits.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter

from app.limits_storage import SparseExpiryStorage
from app.settings import Settings


class SocketRates:
    """The socket message limit of one app (``WS_MESSAGE_RATE``, e.g. ``"20/second;300/minute"``),
    counted per player and room so that extra tabs add no quota (sliding-window counters:
    a moving window would keep every message's time)."""

    def __init__(self, settings: Settings) -> None:
        self._limiter = SlidingWindowCounterRateLimiter(SparseExpiryStorage())
        self._rates: list[RateLimitItem] = parse_many(settings.ws_message_rate)

    def hit(self, room: str, player_id: str) -> bool:
        """Count one message of ``player_id`` in ``room``; False when it is over a limit."""
        return all(self._limiter.hit(rate, room, player_id) for rate in self._rates)


class RateLimits:
    """The HTTP limits of one app, configured from settings (``RATE_LIMIT_*``)."""

    def __init__(self, settings: Settings) -> None:
        self._limiter = MovingWindowRateLimiter(SparseExpiryStorage())
        self._rules = {
            "create_room": parse_many(settings.rate_limit_rooms),
            "join": parse_many(settings.rate_limit_joins),
            "room_miss": parse_many(settings.rate_limit_misses),
            "push": parse_many(settings.rate_limit_push),
        }

    def hit(self, kind: str, request: Request) -> None:
        """Count one ``kind`` action by the client; raises HTTP 429 over the limit."""
        client = _client(request)
        if not all(self._limiter.hit(rule, kind, client) for rule in self._rules[kind]):
            raise HTTPException(429, detail="too many requests")

    def blocked(self, kind: str, request: Request) -> bool:
        """True when the client is over the ``kind`` limit already (without counting)."""
        client = _client(request)
        return not all(self._limiter.test(rule, kind, client) for rule in self._rules[kind])


def _client(request: Request) -> str:
    """Whose count a request adds to: its client's address, or "" when the server reports
    none (all such requests then share one count)."""
    return request.client.host if request.client else ""
