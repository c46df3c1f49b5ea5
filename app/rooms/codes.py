"""Room codes: 96 random bits, URL-safe (16 characters), so links cannot be guessed."""

from __future__ import annotations

import re
import secrets

CODE_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16}$")


def new_code() -> str:
    """A fresh room code: ``secrets.token_urlsafe(12)`` (96 bits of entropy)."""
    return secrets.token_urlsafe(12)


def is_code(text: str) -> bool:
    """True when ``text`` has the shape of a room code (checked before any database lookup)."""
    return bool(CODE_PATTERN.match(text))
