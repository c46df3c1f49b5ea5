"""Translated names of the Kniffel-family boxes shown in its templates (docs/rules.md,
"Kniffel family", box table)."""

from __future__ import annotations

from app.errors import N_
from app.i18n import gettext as _

GAME_NAMES = {"kniffel": "Kniffel", "kitkniff": "KitKniff", "yatzy": "Yatzy"}
TAGLINES = {
    "kniffel": N_("Like Yahtzee: five dice, three throws a turn, 13 boxes to fill."),
    "kitkniff": N_("Like Yahtzee, with the house rules of the KitKniff sheet: 100 points "
                   "for each further five alike."),
    "yatzy": N_("Like Yahtzee, the Scandinavian way: 15 boxes, pairs included."),
}
"""Each rule set in one line for a newcomer (gettext msgids; docs/rules.md, "Kniffel family")."""


def box_label(box: str, ruleset: str) -> str:
    """A Kniffel-family box id (docs/rules.md, "Kniffel family") in the current language.

    ``ruleset`` is ``kniffel``, ``kitkniff`` or ``yatzy``: the five-alike box is named after
    the game ("Kniffel" / "KitKniff" / "Yatzy"), and KitKniff's chance is "Krempel" (rule text 002).
    """
    if box == "yahtzee":
        return GAME_NAMES[ruleset]
    if box == "chance" and ruleset == "kitkniff":
        return "Krempel"
    return {
        "ones": _("Ones"),
        "twos": _("Twos"),
        "threes": _("Threes"),
        "fours": _("Fours"),
        "fives": _("Fives"),
        "sixes": _("Sixes"),
        "one_pair": _("One pair"),
        "two_pairs": _("Two pairs"),
        "three_of_a_kind": _("Three of a kind"),
        "four_of_a_kind": _("Four of a kind"),
        "full_house": _("Full house"),
        "small_straight": _("Small straight"),
        "large_straight": _("Large straight"),
        "chance": _("Chance"),
    }.get(box, box)
