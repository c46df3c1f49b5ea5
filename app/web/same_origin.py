"""Forms and requests that change something are refused when another site sent them.

The session cookie is ``SameSite=Lax``, so another *site* cannot send a form with it; but a
page on another *origin* of the same site (another port, another subdomain) can. A browser
names the page that sent a request in its ``Origin`` header (on every POST), so a request
whose method changes something (POST, PUT, PATCH, DELETE) and whose ``Origin`` is not this
site's is refused before its route runs, with the same rule as the room WebSocket
(``app.live.origin.origin_allowed``: ``ALLOWED_ORIGINS``, or else the request's own host).
A request without ``Origin`` was not sent by a browser page (a script, a test, curl): it
carries no visitor's cookie that it did not own, and passes. ``Origin: null`` (a sandboxed or
privacy-stripped page) is refused.
"""

from __future__ import annotations

import structlog
from starlette.requests import HTTPConnection

from app.errors import N_, KnobelError
from app.live.origin import origin_allowed

log = structlog.get_logger("knobel.web")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CROSS_SITE = KnobelError(
    "cross_site", N_("This form was sent from another site, so nothing was done."), 403)


async def refuse_cross_site(conn: HTTPConnection) -> None:
    """An app-wide dependency: raise ``CROSS_SITE`` (403, nothing done) for an HTTP request
    that changes something and names a foreign ``Origin``; every other request (a page, a
    WebSocket, which checks its own Origin) passes."""
    scope = conn.scope
    if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
        return
    origin = conn.headers.get("origin")
    if origin is None:
        return
    if not origin_allowed(origin, conn.headers.get("host"), conn.app.state.settings.origins):
        log.info("cross_site_refused", path=scope["path"], origin=origin[:100])
        raise CROSS_SITE
