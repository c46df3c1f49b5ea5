"""The rate limits' storage and the socket limit (``app/web/ratelimit.py``): the library's
decisions are unchanged, expired counters go on read and on the (sparse) walk, and the walk
is armed once a second, not 10 ms after every hit."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from limits import parse
from limits.strategies import SlidingWindowCounterRateLimiter

from app.main import create_app
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


def test_the_armed_walk_drops_expired_counters_by_itself() -> None:
    storage = SparseExpiryStorage()
    storage.EXPIRE_EVERY = 0.01  # this storage's walk: soon after a hit
    limiter = SlidingWindowCounterRateLimiter(storage)
    rate = parse("1/second")
    assert limiter.hit(rate, "ws", "a")
    for _ in range(300):  # a's windows pass (2 s); each hit of b arms the walk again
        limiter.hit(rate, "ws", "b")
        storage.timer.join()
        if not any("/a/" in key for key in storage.storage):
            break
        time.sleep(0.01)
    else:
        raise AssertionError(f"a's counters were never dropped: {list(storage.storage)}")
    assert any("/b/" in key for key in storage.storage)


def test_socket_rates_count_per_player_and_room(tmp_path) -> None:
    rates = SocketRates(Settings(database_url="sqlite+aiosqlite:///:memory:",
                                 var_dir=tmp_path, ws_message_rate="2/hour;100/day"))
    assert [rates.hit("room1", "p1") for _ in range(3)] == [True, True, False]
    assert rates.hit("room1", "p2") and rates.hit("room2", "p1")


class _ClientAddress:
    """The app seen from several client addresses: each request's ``X-Test-Client`` header
    becomes its client address (ASGI ``scope["client"]``), as another machine's would be;
    ``-`` is a server that reports no address (ASGI allows ``None``, e.g. on a Unix socket)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            address = dict(scope["headers"]).get(b"x-test-client", b"10.0.0.1").decode()
            scope = {**scope, "client": None if address == "-" else (address, 40000)}
        await self.app(scope, receive, send)


class _Visitor:
    """One client address with its own cookies (its own guest session)."""

    def __init__(self, client: TestClient, address: str) -> None:
        self.client, self.address, self.cookies = client, address, httpx.Cookies()

    def send(self, method: str, path: str, **kwargs) -> httpx.Response:
        """``method path`` sent from this address (redirects not followed)."""
        self.client.cookies = self.cookies
        response = self.client.request(method, path, headers={"x-test-client": self.address},
                                       follow_redirects=False, **kwargs)
        self.cookies = self.client.cookies
        return response

    def status(self, method: str, path: str, **kwargs) -> int:
        """The status of ``method path`` sent from this address."""
        return self.send(method, path, **kwargs).status_code

    def create_room(self) -> tuple[int, str]:
        """Create a Knister room: (status, the new room's code or "")."""
        response = self.send("POST", "/rooms", data={"game": "knister", "name": "Anna"})
        return response.status_code, response.headers.get("location", "").rsplit("/", 1)[-1]


@pytest.fixture
def limited(settings) -> Iterator[TestClient]:
    """An app allowing each client 2 rooms, 2 joins and 2 unknown room codes an hour (so no
    window runs out during the test), whose requests come from the address each names."""
    app = create_app(settings.model_copy(update={
        "rate_limit_rooms": "2/hour", "rate_limit_joins": "2/hour",
        "rate_limit_misses": "2/hour"}))
    with TestClient(_ClientAddress(app), base_url="http://testserver") as c:
        yield c


@pytest.fixture
def two_clients(limited: TestClient) -> tuple[_Visitor, _Visitor]:
    """Two addresses of the ``limited`` app."""
    return _Visitor(limited, "10.0.0.1"), _Visitor(limited, "10.0.0.2")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_http_limits_count_per_client_address(two_clients) -> None:
    ann, bob = two_clients
    made = [ann.create_room() for _ in range(3)]
    assert [status for status, _ in made] == [303, 303, 429]
    code = made[0][1]
    refused = ann.send("POST", "/rooms", data={"game": "knister", "name": "Anna"})
    assert (refused.status_code, refused.json()) == (429, {"detail": "too many requests"})
    assert bob.create_room()[0] == 303  # another address: its own count

    # joins: Ann's address may still join (another limit than rooms), twice
    assert [ann.status("POST", f"/r/{code}/join", data={"name": "Ann"}) for _ in range(3)] == [
        303, 303, 429]
    assert bob.status("POST", f"/r/{code}/join", data={"name": "Bob"}) == 303

    # unknown room codes: after two misses Ann's address is refused even a room that exists
    unknown = "ABCDEFGHJKMNPQRS"
    assert [ann.status("GET", f"/r/{unknown}") for _ in range(2)] == [404, 404]
    assert ann.status("GET", f"/r/{code}") == 429
    assert bob.status("GET", f"/r/{unknown}") == 404
    assert bob.status("GET", f"/r/{code}") == 200


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_requests_without_a_client_address_share_one_count(limited) -> None:
    """A server that reports no address (``scope["client"]`` None): the limits still hold,
    over all such requests together, and leave the addressed clients' counts alone."""
    first, second, known = (_Visitor(limited, "-"), _Visitor(limited, "-"),
                            _Visitor(limited, "10.0.0.3"))
    assert [first.create_room()[0], second.create_room()[0], first.create_room()[0]] == [
        303, 303, 429]
    assert [first.status("GET", "/r/ABCDEFGHJKMNPQRS") for _ in range(2)] == [404, 404]
    assert second.status("GET", "/r/ABCDEFGHJKMNPQRS") == 429
    assert known.create_room()[0] == 303
