"""Where a Knikkers game's seed comes from: a fresh random one, or the daily game's.

The seed fixes every spawn of a game (``app.engines.knikkers_seed``), so it is the game's whole
future: it stays on the server (``app.knikkers.disclosure``). Rule source: docs/rules.md, Knikkers
("Determinism"; ""Nieuw spel" starts a new seed"; "Daily game": one seed per day per variant,
the same for everyone, derived with the server's secret).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import date

from app.engines.knikkers import MAX_SEED
from app.knikkers.variants import VARIANTS

DAILY_VERSION = "v2"


def new_seed() -> int:
    """A fresh random seed for "Nieuw spel" (0..2**63-1, from the OS's secure source)."""
    return secrets.randbelow(MAX_SEED + 1)


def daily_seed(secret: str, variant: int, day: date) -> int:
    """The daily game's seed for ``variant`` on the UTC date ``day``: the same for everyone who
    plays it on this server, and unknown to anyone without the server's secret.

    Args: ``secret``, the server's ``SECRET_KEY`` (non-empty; every replica must share it);
    ``variant`` 5 or 4; ``day`` a date.
    Returns: the first 8 bytes of HMAC-SHA256 under ``secret`` of
    ``"knikkers-daily/v2/<variant>/<YYYY-MM-DD>"``, big-endian, shifted right by one bit so it
    fits the engine's seed range 0..2**63-1. (``v1`` was a public hash of the date alone: anyone
    could compute the day's spawns. Stored games keep the seed they were started with.)
    Raises: ValueError for an unknown variant or an empty secret.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    if not secret:
        raise ValueError("the daily seed needs the server's secret key")
    text = f"knikkers-daily/{DAILY_VERSION}/{variant}/{day.isoformat()}".encode("ascii")
    digest = hmac.new(secret.encode("utf-8"), text, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1
