"""Time in one convention: timezone-aware UTC datetimes everywhere (the database, the rooms'
timers, the leaderboards' periods)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import overload


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


@overload
def as_utc(moment: datetime) -> datetime: ...
@overload
def as_utc(moment: None) -> None: ...
def as_utc(moment: datetime | None) -> datetime | None:
    """``moment`` as an aware UTC datetime: a naive one (SQLite hands those back) is taken to
    be UTC, an aware one is converted; None stays None."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
