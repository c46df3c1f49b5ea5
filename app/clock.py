"""Time in one convention: timezone-aware UTC datetimes everywhere (the database, the rooms'
timers, the leaderboards' periods)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
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


class ServerClock:
    """The app's clock: ``utcnow()`` moved on by ``offset`` (zero in production; the test
    routes' ``POST /_test/clock`` advances it, so tests can let deadlines and codes expire
    without waiting). Calling it gives the time, aware UTC."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def __call__(self) -> datetime:
        return utcnow() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds`` (>= 0; raises ValueError for less)."""
        if seconds < 0:
            raise ValueError("the clock only moves on")
        self.offset += timedelta(seconds=seconds)
