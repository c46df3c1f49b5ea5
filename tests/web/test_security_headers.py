"""The security headers (``app.web.security_headers``) are on every kind of HTTP response."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.web.security_headers import (
    CONTENT_SECURITY_POLICY,
    SECURITY_HEADERS,
    SecurityHeadersMiddleware,
)

HTML = {"accept": "text/html"}


def assert_secured(response) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get_list(name) == [value], (name, response.status_code)


def test_the_policy_allows_nothing_inline_nor_eval() -> None:
    assert "unsafe" not in CONTENT_SECURITY_POLICY
    assert "script-src 'self';" in CONTENT_SECURITY_POLICY
    assert "style-src 'self';" in CONTENT_SECURITY_POLICY
    assert CONTENT_SECURITY_POLICY.endswith("frame-ancestors 'none'")
    assert SECURITY_HEADERS["Referrer-Policy"] == "same-origin"
    assert SECURITY_HEADERS["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("method, path, kwargs, status", [
    ("GET", "/", {"headers": HTML}, 200),  # a page
    ("GET", "/healthz", {}, 200),  # JSON
    ("GET", "/static/css/app.css", {}, 200),  # a static file
    ("GET", "/static/nothing.css", {}, 404),  # a missing static file
    ("GET", "/no/such/page", {"headers": HTML}, 404),  # the error page
    ("GET", "/no/such/page", {}, 404),  # the JSON 404
    ("GET", "/knikkers/games/abc", {}, 422),  # an unparsable path, JSON
    ("POST", "/lang", {"data": {"lang": "nl", "next": "/"}}, 303),  # a redirect
    ("POST", "/lang", {"data": {"lang": "xx"}}, 400),  # a refused form
    ("POST", "/name", {"data": {"name": "   "}, "headers": HTML}, 422),  # a form error page
])
def test_every_kind_of_response_has_the_headers(client, method, path, kwargs, status) -> None:
    response = client.request(method, path, follow_redirects=False, **kwargs)
    assert response.status_code == status
    assert_secured(response)


def test_an_unhandled_error_500_has_the_headers(settings) -> None:
    app = create_app(settings)

    @app.get("/test-boom")
    async def boom() -> None:
        raise RuntimeError("boom")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/test-boom", headers=HTML)
    assert response.status_code == 500
    assert_secured(response)


async def test_a_header_the_response_set_itself_is_kept_and_sockets_pass_through() -> None:
    sent: list[dict] = []
    seen: list[str] = []

    async def app(scope, receive, send) -> None:
        seen.append(scope["type"])
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"referrer-policy", b"no-referrer")]})
            await send({"type": "http.response.body", "body": b""})
        else:
            await send({"type": "websocket.accept"})

    async def send(message) -> None:
        sent.append(message)

    async def receive() -> dict:
        return {}

    secured = SecurityHeadersMiddleware(app)
    await secured({"type": "http"}, receive, send)
    headers = dict(sent[0]["headers"])
    assert headers[b"referrer-policy"] == b"no-referrer"
    assert headers[b"content-security-policy"] == CONTENT_SECURITY_POLICY.encode()
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert len(sent[0]["headers"]) == 3

    await secured({"type": "websocket"}, receive, send)
    assert sent[-1] == {"type": "websocket.accept"}
    assert seen == ["http", "websocket"]
