"""Knikkers variants ("5 op een rij", "4 op een rij") and the daily seed.

Rule source: RULES.md, Knikkers ("Variants: "5 op een rij" (a line needs >=5) and "4 op een rij"
(>=4) ... Each variant has its own record and ranking"); issue 6 ("Daily game: one seed per day
per variant, the same for everyone").
"""

from __future__ import annotations

import secrets
from datetime import date
from hashlib import blake2b

from app.engines.knikkers import MAX_SEED
from app.i18n import gettext as _

VARIANTS: tuple[int, ...] = (5, 4)
DEFAULT_VARIANT = 5
KIND = "knikkers"


def parse_variant(value: object) -> int | None:
    """Return 5 or 4 for ``value`` ("5", 5, "4", 4), or None for anything else."""
    try:
        variant = int(str(value).strip())
    except ValueError:
        return None
    return variant if variant in VARIANTS else None


def variant_label(variant: int) -> str:
    """The variant's visible name in the current language ("5 op een rij" in Dutch)."""
    return _("5 in a row") if variant == 5 else _("4 in a row")


def new_seed() -> int:
    """A fresh random seed for "Nieuw spel" (0..2**63-1, from the OS's secure source)."""
    return secrets.randbelow(MAX_SEED + 1)


def daily_seed(variant: int, day: date) -> int:
    """The daily game's seed for ``variant`` on the UTC date ``day``, the same for everyone.

    A fixed public derivation: the first 8 bytes of BLAKE2b over
    ``"knikkers-daily/v1/<variant>/<YYYY-MM-DD>"``, big-endian, shifted right by one bit so it
    fits the engine's seed range 0..2**63-1. Raises ValueError for an unknown variant.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    text = f"knikkers-daily/v1/{variant}/{day.isoformat()}".encode("ascii")
    return int.from_bytes(blake2b(text, digest_size=8).digest(), "big") >> 1
