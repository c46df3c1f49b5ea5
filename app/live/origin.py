"""The WebSocket Origin check (against cross-site WebSocket hijacking)."""

from __future__ import annotations

from urllib.parse import urlsplit


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """True when a handshake's ``Origin`` may open a room socket.

    ``allowed`` (``ALLOWED_ORIGINS``) lists exact origins like ``https://knobel.example``;
    when it is empty, only the page's own host is accepted (``Origin`` host == ``Host``).
    A missing Origin (not a browser) is refused too.
    """
    if not origin:
        return False
    origin = origin.rstrip("/")
    if allowed:
        return origin in allowed
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host
