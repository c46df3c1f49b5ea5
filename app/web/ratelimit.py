"""Rate limits (``limits``): per client for room creation, joins and unknown-room lookups
(HTTP), and per player and room for socket messages.

Counts live in this process's memory; behind several replicas each replica counts on its own,
which still bounds abuse per replica. Exceeding an HTTP limit answers 429; the socket answers
with an error message (``app.live.socket``).
"""

from __future__ import annotations

import threading

from fastapi import HTTPException, Request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter

from app.settings import Settings


class SparseExpiryStorage(MemoryStorage):
    """``limits``' in-memory storage whose walk over every key, to drop expired ones, runs
    at most once every ``EXPIRE_EVERY`` seconds instead of 10 ms after any hit.

    Expired counters are also dropped when read (``MemoryStorage.get``), so the walk decides
    nothing: it only bounds memory. At 2,000 open sockets (about 8,000 keys of sliding
    windows) the library's 10 ms walk, on a thread holding the GIL, took about a tenth of
    the server's CPU (bench/README.md, "rooms_load.py").
    """

    EXPIRE_EVERY = 1.0  # seconds

    def _MemoryStorage__schedule_expiry(self) -> None:  # the library's private hook
        if not self.timer.is_alive():
            walk = getattr(self, "_MemoryStorage__expire_events")  # noqa: B009 (the library's walk, name-mangled)
            self.timer = threading.Timer(self.EXPIRE_EVERY, walk)
            self.timer.daemon = True
            self.timer.start()


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
