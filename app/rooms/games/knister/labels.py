"""Translated names of Knister terms shown in its templates: line combinations, lines, the
grid's tooltips (docs/rules.md, "Knister")."""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

from app.i18n import current_language
from app.i18n import gettext as _


def combination_name(combination: str) -> str:
    """A Knister line combination id (docs/rules.md, "Knister" table) in the current language."""
    return {
        "none": _("nothing"),
        "pair": _("pair"),
        "two_pairs": _("two pairs"),
        "three_of_a_kind": _("three of a kind"),
        "full_house": _("full house"),
        "four_of_a_kind": _("four of a kind"),
        "five_of_a_kind": _("five of a kind"),
        "straight": _("straight"),
        "straight_without_7": _("straight without 7"),
    }.get(combination, combination)


def line_name(line) -> str:
    """A Knister ``LineScore``'s place: row/column number or which diagonal."""
    if line.kind == "row":
        return _("Row %(n)s") % {"n": line.index + 1}
    if line.kind == "col":
        return _("Column %(n)s") % {"n": line.index + 1}
    return _("Diagonal ↘ (double)") if line.index == 0 else _("Diagonal ↙ (double)")


def grid_titles() -> SimpleNamespace:
    """Tooltips of a Knister grid in the current language: ``rows`` and ``cols`` (5 each),
    ``diag`` (the two diagonals' names), ``diagonals`` and ``auto``; built once per language
    (every sheet shows them)."""
    return _grid_titles(current_language())


@lru_cache(maxsize=8)
def _grid_titles(lang: str) -> SimpleNamespace:
    return SimpleNamespace(
        rows=[_("Row %(r)s") % {"r": n} for n in range(1, 6)],
        cols=[_("Column %(c)s") % {"c": n} for n in range(1, 6)],
        diagonals=_("Diagonals count double"),
        diag=[_("Diagonal ↘ (double)"), _("Diagonal ↙ (double)")],
        auto=_("placed automatically"),
    )
