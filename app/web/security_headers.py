"""ASGI middleware: the security headers on every HTTP response (docs/architecture.md,
"Security headers").

- ``Content-Security-Policy``: scripts, styles, fonts, images and connections (the room
  WebSocket included) only from this origin, no inline code and no ``eval``; no plug-ins, no
  ``<base>`` elsewhere, forms post only here, and no other site may frame a page.
- ``X-Content-Type-Options: nosniff``: a file is only ever run or styled as its declared type.
- ``Referrer-Policy: same-origin``: a room link is its key; it must not leak to another site
  in a ``Referer``.

The WebSocket handshake is left alone (the headers are about documents and their sub-resources).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
"""The policy: nothing inline (no ``unsafe-inline``, no ``unsafe-eval``; the templates and
scripts keep to it, tests/web/test_inline_code.py checks them)."""

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
"""Every HTTP response's security headers, by name."""


class SecurityHeadersMiddleware:
    """Adds ``headers`` (default ``SECURITY_HEADERS``) to every HTTP response; a header the
    response already carries (same name, any case) is kept as the response set it.

    The raw header pairs are built once, here; per response only the names already present
    are looked at. Other scope types (``websocket``, ``lifespan``) pass through untouched.
    """

    def __init__(self, app: ASGIApp, headers: dict[str, str] | None = None) -> None:
        self.app = app
        pairs = (headers if headers is not None else SECURITY_HEADERS).items()
        self._raw = [(name.lower().encode("latin-1"), value.encode("latin-1"))
                     for name, value in pairs]
        self._names = frozenset(name for name, _ in self._raw)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Call the app; on an HTTP response's start, append the missing headers."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = self._added(message.get("headers") or [])
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _added(self, headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
        """``headers`` plus each of ours whose name is not among them."""
        out = list(headers)
        present = {name.lower() for name, _ in out} & self._names
        out.extend(pair for pair in self._raw if pair[0] not in present)
        return out
