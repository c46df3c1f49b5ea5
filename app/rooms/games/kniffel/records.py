"""What a group counts of a Kniffel-family game beyond points (``capabilities.GameRecords``;
docs/rules.md, "Groups"): five of a kind thrown, a Kniffel (a Yatzy in Yatzy).

A Kniffel thrown is a turn whose dice showed five of a kind when the player filled a box
(whatever box they chose), read from the stored events (``roll`` with the five ``dice``
after it, ``score`` by the seat on turn; ``state.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.errors import N_

LABELS = {
    "kniffel": (N_("Kniffels thrown"), N_("Most Kniffels in a game")),
    "kitkniff": (N_("Kniffels thrown"), N_("Most Kniffels in a game")),
    "yatzy": (N_("Yatzys thrown"), N_("Most Yatzys in a game")),
}
"""Per rule set: the table column's and the record's msgids."""


class KniffelRecords:
    """The Kniffel family's ``GameRecords`` for one rule set (``kniffel``, ``kitkniff``,
    ``yatzy``): no highest-score record, five of a kind thrown as its feat."""

    high_score: str | None = None
    feat: str | None
    feat_record: str | None

    def __init__(self, ruleset: str) -> None:
        self.feat, self.feat_record = LABELS[ruleset]

    def feats(self, events: Sequence[Any]) -> dict[int, int]:
        """Seat id -> turns scored with five of a kind on the dice (``GameRecords.feats``)."""
        counts: dict[int, int] = {}
        dice: list[int] = []
        for event in events:
            if event.type == "roll":
                dice = list(event.payload.get("dice") or [])
            elif event.type == "score" and event.seat_id is not None:
                if len(dice) == 5 and len(set(dice)) == 1:
                    counts[event.seat_id] = counts.get(event.seat_id, 0) + 1
                dice = []
        return counts
