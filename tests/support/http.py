"""HTTP requests from tests: httpx with one TLS context for the whole run.

httpx builds a new ``ssl.SSLContext`` (reading the system's CA file: about 20 ms of CPU) for
every ``httpx.get`` and every client, even for plain ``http://`` URLs; the servers the tests
poll while they start, and the players they make by the hundred, made that a seventh of the
suite's CPU time. These helpers take the same arguments as httpx's and pass one shared context.
"""

from __future__ import annotations

import ssl
from typing import Any

import httpx

TLS = ssl.create_default_context()


def get(url: str, **kwargs: Any) -> httpx.Response:
    """``httpx.get`` with the shared TLS context."""
    kwargs.setdefault("verify", TLS)
    return httpx.get(url, **kwargs)


def post(url: str, **kwargs: Any) -> httpx.Response:
    """``httpx.post`` with the shared TLS context."""
    kwargs.setdefault("verify", TLS)
    return httpx.post(url, **kwargs)


def client(**kwargs: Any) -> httpx.Client:
    """``httpx.Client`` with the shared TLS context."""
    kwargs.setdefault("verify", TLS)
    return httpx.Client(**kwargs)


def async_client(**kwargs: Any) -> httpx.AsyncClient:
    """``httpx.AsyncClient`` with the shared TLS context."""
    kwargs.setdefault("verify", TLS)
    return httpx.AsyncClient(**kwargs)


def session_cookie(secret_key: str, player_id: str, device: str | None = None) -> str:
    """The signed session cookie (``app.main.SESSION_COOKIE``'s value) of guest ``player_id``
    (32 hex characters) on a server with ``secret_key``, as Starlette's ``SessionMiddleware``
    makes it (base64 JSON signed by itsdangerous' ``TimestampSigner``); ``device``: the
    session's device id (``app.players.devices``), else the server adds one."""
    import base64
    import json

    from itsdangerous import TimestampSigner

    session = {"pid": player_id, **({"dev": device} if device else {})}
    data = base64.b64encode(json.dumps(session).encode("utf-8"))
    return TimestampSigner(secret_key).sign(data).decode("utf-8")
