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
