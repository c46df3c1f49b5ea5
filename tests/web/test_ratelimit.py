"""The rate limits' storage and the socket limit (``app/web/ratelimit.py``): the library's
decisions are unchanged, expired counters go on read and on the (sparse) walk, and the walk
is armed once a second, not 10 ms after every hit."""

from __future__ import annotations

import time

from limits import parse
from limits.strategies import SlidingWindowCounterRateLimiter

from app.settings import Settings
from app.web.ratelimit import SocketRates, SparseExpiryStorage


def test_the_walk_is_armed_once_a_second() -> None:
    storage = SparseExpiryStorage()
    limiter = SlidingWindowCounterRateLimiter(storage)
    storage.timer.join()  # the library's constructor runs one walk after 10 ms
    assert limiter.hit(parse("5/second"), "ws", "a")
    assert storage.timer.interval == SparseExpiryStorage.EXPIRE_EVERY == 1.0
    assert storage.timer.daemon
    first = storage.timer
    for _ in range(3):
        limiter.hit(parse("5/second"), "ws", "a")
    assert storage.timer is first  # while one walk is pending, hits arm no other
    first.cancel()


def test_decisions_and_expiry() -> None:
    storage = SparseExpiryStorage()
    limiter = SlidingWindowCounterRateLimiter(storage)
    rate = parse("2/second")
    assert [limiter.hit(rate, "ws", "a") for _ in range(3)] == [True, True, False]
    assert limiter.hit(rate, "ws", "b")  # another key has its own count
    assert len(storage.storage) == 2
    time.sleep(2.05)  # both windows (current and previous) have passed
    storage._MemoryStorage__expire_events()  # type: ignore[attr-defined]
    assert len(storage.storage) == 0  # the walk dropped the expired counters
    assert limiter.hit(rate, "ws", "a")
    storage.timer.cancel()


def test_socket_rates_count_per_player_and_room(tmp_path) -> None:
    rates = SocketRates(Settings(database_url="sqlite+aiosqlite:///:memory:",
                                 var_dir=tmp_path, ws_message_rate="2/hour;100/day"))
    assert [rates.hit("room1", "p1") for _ in range(3)] == [True, True, False]
    assert rates.hit("room1", "p2") and rates.hit("room2", "p1")
