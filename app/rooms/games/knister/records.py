"""What a group counts of a Knister game beyond points (``capabilities.GameRecords``;
docs/rules.md, "Groups"): its highest score is a record; it has no feat to count."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.errors import N_


class KnisterRecords:
    """Knister's ``GameRecords``: the highest score, no feat."""

    high_score: str | None = N_("Highest Knister score")
    feat: str | None = None
    feat_record: str | None = None

    def feats(self, events: Sequence[Any]) -> dict[int, int]:
        """Nothing: Knister counts no feat (``GameRecords.feats``)."""
        return {}
