"""A group's seasons: a calendar month (UTC) or all time (docs/rules.md, "Groups")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

ALL = "all"
_MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")


@dataclass(frozen=True)
class Season:
    """``key`` (``all`` or ``YYYY-MM``) and its [``start``, ``end``) in UTC (None: open)."""

    key: str
    start: datetime | None
    end: datetime | None


def season(key: str | None, now: datetime) -> Season:
    """The season named ``key`` (``all``, ``YYYY-MM``; None or anything else: the month of
    ``now``)."""
    if key == ALL:
        return Season(ALL, None, None)
    match = _MONTH.match(key or "")
    year, month = (int(match[1]), int(match[2])) if match else (now.year, now.month)
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return Season(f"{year:04d}-{month:02d}", start, end)
