"""Knikkers variants ("5 op een rij", "4 op een rij"): their numbers and names.

Rule source: docs/rules.md, Knikkers ("Variants: "5 op een rij" (a line needs >=5) and "4 op een
rij" (>=4) ... Each variant has its own record and ranking").
"""

from __future__ import annotations

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
