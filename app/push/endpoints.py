"""Which push endpoints the server may post to (docs/architecture.md, "Push notifications"):
only ``https`` on the push services' hosts (``PUSH_HOSTS``: the major browsers' services by
default), never loopback or private addresses (server-side request forgery). With test routes
on (``TEST_HOOKS``) a loopback ``http`` endpoint is allowed, for the tests' own push service.
"""

from __future__ import annotations

import base64
import binascii
from urllib.parse import urlsplit

DEFAULT_PUSH_HOSTS = ("fcm.googleapis.com", "updates.push.services.mozilla.com",
                      "*.notify.windows.com", "web.push.apple.com", "*.push.apple.com")
"""Chrome and Edge on Android (FCM), Firefox (autopush), Edge on Windows (WNS), Safari."""
LOOPBACK = ("127.0.0.1", "localhost", "::1")
MAX_ENDPOINT = 1000  # characters


class BadSubscription(ValueError):
    """A subscription the server does not store: ``field`` names what is wrong
    (``endpoint``, ``p256dh``, ``auth``)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def host_allowed(host: str, allowed: tuple[str, ...]) -> bool:
    """True when ``host`` is one of ``allowed`` (``*.example.com``: any subdomain)."""
    host = host.lower().rstrip(".")
    for pattern in allowed:
        pattern = pattern.lower()
        if pattern.startswith("*.") and host.endswith(pattern[1:]) and host != pattern[2:]:
            return True
        if host == pattern:
            return True
    return False


def check_endpoint(endpoint: str, allowed: tuple[str, ...], loopback_ok: bool) -> str:
    """``endpoint`` when the server may post to it, else ``BadSubscription("endpoint")``:
    ``https`` on an ``allowed`` host (no user info, default port), or with ``loopback_ok``
    ``http``/``https`` on 127.0.0.1, localhost or ::1."""
    if not endpoint or len(endpoint) > MAX_ENDPOINT:
        raise BadSubscription("endpoint", "missing or too long")
    try:
        url = urlsplit(endpoint)
        port = url.port
    except ValueError:
        raise BadSubscription("endpoint", "not a URL") from None
    host = (url.hostname or "").lower()
    if url.username or url.password or not host:
        raise BadSubscription("endpoint", "not a push service URL")
    if loopback_ok and host in LOOPBACK and url.scheme in ("http", "https"):
        return endpoint
    if url.scheme != "https" or port not in (None, 443) or not host_allowed(host, allowed):
        raise BadSubscription("endpoint", "not https on a known push service")
    return endpoint


def _b64url(value: str, field: str, length: int) -> bytes:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription(field, "not base64url") from None
    if len(raw) != length:
        raise BadSubscription(field, f"must be {length} bytes")
    return raw


def check_keys(p256dh: str, auth: str) -> None:
    """Raise ``BadSubscription`` unless ``p256dh`` is an uncompressed P-256 point (65 bytes,
    first 0x04) and ``auth`` a 16-byte secret, both base64url (RFC 8291)."""
    if not isinstance(p256dh, str) or not isinstance(auth, str):
        raise BadSubscription("keys", "missing")
    if _b64url(p256dh, "p256dh", 65)[0] != 4:
        raise BadSubscription("p256dh", "not an uncompressed point")
    _b64url(auth, "auth", 16)
