"""Translated names shown by the race templates (docs/rules.md, "Knikkers race"), and the board's
names that single-player Knikkers shows too (docs/rules.md, Knikkers, "Colours and symbols")."""

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


def colour_name(colour: int) -> str:
    """The colour's name with its symbol ("red circle"), in the current language."""
    return (
        _("red circle"),
        _("light blue triangle"),
        _("green square"),
        _("yellow diamond"),
        _("dark blue star"),
        _("orange cross"),
        _("pink heart"),
    )[colour]


def cell_label(row: int, col: int, colour: int | None) -> str:
    """The accessible name of a board cell: "Row 1, column 2: red circle" (1-based)."""
    what = _("empty") if colour is None else colour_name(colour)
    return _("Row %(row)d, column %(col)d: %(what)s") % {"row": row + 1, "col": col + 1,
                                                         "what": what}
