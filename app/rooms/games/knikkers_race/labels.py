"""Translated names shown by the race templates (docs/rules.md, "Knikkers race")."""

from __future__ import annotations

from app.i18n import gettext as _


def variant_label(variant: int) -> str:
    """The variant's visible name ("5 op een rij" in Dutch)."""
    return _("5 in a row") if variant == 5 else _("4 in a row")


def end_reason(stopped: str | None, full: bool) -> str:
    """Why a board takes no more moves: full, finished by its player, finished by the
    server for an away player, or its player left; "" while it runs."""
    if full:
        return _("board full")
    return {
        "stop": _("finished"),
        "auto": _("finished (away)"),
        "left": _("left the race"),
    }.get(stopped or "", "")
