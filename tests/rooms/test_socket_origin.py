"""The room socket's Origin check (``app/live/origin.py``, README "Configuration":
``ALLOWED_ORIGINS``): a handshake is accepted only from the page's own host and port, or, when
``ALLOWED_ORIGINS`` is set, from exactly one of the origins it lists (scheme, host and port).

Each case opens a real handshake against the app (a guest with a session, a room that
exists), so a refusal can only come from the Origin."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.live.origin import origin_allowed
from app.main import create_app
from app.settings import Settings
from tests.support.waiting import receive_until

SQLITE = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
"""The Origin check does not depend on the database: one backend is enough."""

SITE = "http://knobel.test:8000"  # the address the test client reaches the app at


class Handshakes:
    """A guest with a session in a new room of an app on ``SITE``."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        created = client.post("/rooms", data={"game": "knister", "name": "Anna"},
                              follow_redirects=False)
        assert created.status_code == 303
        self.code = created.headers["location"].rsplit("/", 1)[1]

    def accepted(self, origin: str | None) -> bool:
        """Whether a socket with this ``Origin`` header (None: no header) is accepted."""
        headers = {} if origin is None else {"origin": origin}
        try:
            url = SITE.replace("http://", "ws://") + f"/r/{self.code}/ws"
            with self.client.websocket_connect(url, headers=headers) as ws:
                ws.send_json({"type": "hello", "version": -1})
                receive_until(ws.receive_text, 'id="live"')  # a working room socket
        except WebSocketDisconnect as closed:
            assert closed.code == 1008
            return False
        return True


def _handshakes(settings: Settings, allowed: str) -> Iterator[Handshakes]:
    app = create_app(settings.model_copy(update={"allowed_origins": allowed}))
    with TestClient(app, base_url=SITE) as client:
        yield Handshakes(client)


@pytest.fixture
def same_host(settings: Settings) -> Iterator[Handshakes]:
    """``ALLOWED_ORIGINS`` empty: only the page's own host."""
    yield from _handshakes(settings, "")


@pytest.fixture
def listed(settings: Settings) -> Iterator[Handshakes]:
    """``ALLOWED_ORIGINS`` names two sites (spaces and a trailing slash as people type them)."""
    yield from _handshakes(settings, " https://knobel.example/ , https://play.example:8443")


@SQLITE
def test_a_handshake_without_an_origin_is_refused(same_host, listed) -> None:
    assert same_host.accepted(SITE)
    assert not same_host.accepted(None)
    assert not same_host.accepted("")
    assert not listed.accepted(None)


@SQLITE
def test_only_the_pages_own_host_and_port_are_accepted(same_host) -> None:
    assert same_host.accepted(SITE)
    assert same_host.accepted(SITE + "/")
    assert same_host.accepted("https://knobel.test:8000")  # TLS ended in front of the app
    refused = [
        "http://knobel.test:8001",  # the same host on another port
        "http://knobel.test",  # ... on the default port
        "ftp://knobel.test:8000",  # not a web page
        "http://evil.test:8000",
        "http://knobel.test:8000.evil.test",
        "http://knobel.test:8000X",
        "http://user@knobel.test:8000",
        "null",  # a sandboxed frame or a file
    ]
    assert [o for o in refused if same_host.accepted(o)] == []


@SQLITE
def test_allowed_origins_are_matched_exactly(listed) -> None:
    assert listed.accepted("https://knobel.example")
    assert listed.accepted("https://knobel.example/")
    assert listed.accepted("https://play.example:8443")
    refused = [
        "https://knobel.exampl",  # a part of a listed origin
        "https://knobel.example.evil.test",  # a listed origin extended at the end
        "https://knobel.exampleX",
        "https://evil.knobel.example",  # ... at the front
        "xhttps://knobel.example",
        "http://knobel.example",  # another scheme
        "https://knobel.example:8443",  # another port
        "https://play.example",  # a listed host without its port
        "https://play.example:8444",
        "https://knobel.example,https://play.example:8443",  # the setting itself
        SITE,  # with a list set, the app's own host is not implied
    ]
    assert [o for o in refused if listed.accepted(o)] == []


@pytest.mark.parametrize(("origin", "host", "allowed", "expected"), [
    ("http://a.test:81", "a.test:81", frozenset(), True),
    ("http://a.test:81", "a.test:80", frozenset(), False),
    ("http://a.test", None, frozenset(), False),  # no Host header: nothing to compare
    ("http://a.test", "", frozenset(), False),
    ("https://b.test", "b.test", frozenset({"https://c.test"}), False),
    ("https://c.test", "b.test", frozenset({"https://c.test"}), True),
])
def test_origin_allowed_compares_with_the_host_header_or_the_list(
        origin: str, host: str | None, allowed: frozenset[str], expected: bool) -> None:
    assert origin_allowed(origin, host, allowed) is expected
