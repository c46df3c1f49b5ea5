"""A player's Knikkers statistics per variant: games, best, average, lines, score history.

Read from ``knikkers_scores`` (only finished, verified games count). docs/rules.md, Knikkers,
"Leaderboards and statistics": games played, best, average, lines cleared, a chart of the
points over time and a histogram.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import KnikkersScore

HISTORY = 200


@dataclass
class PlayerStats:
    """Totals for one player and variant; ``history`` is (finished_at, score, game_id) oldest
    first (the last ``HISTORY`` games), ``recent`` the last 10 games newest first."""

    games: int = 0
    best: int | None = None
    average: float | None = None
    lines: int = 0
    history: list[tuple[datetime, int, int]] = field(default_factory=list)

    @property
    def recent(self) -> list[tuple[datetime, int, int]]:
        """The last 10 games, newest first."""
        return list(reversed(self.history[-10:]))


async def player_stats(session: AsyncSession, player_id: str, variant: int) -> PlayerStats:
    """The statistics of ``player_id`` in ``variant`` (5 or 4); zeros when they have no game."""
    s = KnikkersScore
    where = (s.player_id == player_id, s.variant == variant)
    games, best, average, lines = cast(tuple[int, int | None, Any, int | None], (
        await session.execute(
            select(func.count(), func.max(s.score), func.avg(s.score), func.sum(s.lines)).where(
                *where
            )
        )
    ).one())
    if not games:
        return PlayerStats()
    rows = (
        await session.execute(
            select(s.finished_at, s.score, s.game_id)
            .where(*where)
            .order_by(s.finished_at.desc(), s.game_id.desc())
            .limit(HISTORY)
        )
    ).all()
    history = [(r.finished_at, r.score, r.game_id) for r in reversed(rows)]
    return PlayerStats(int(games), best, float(average), int(lines or 0), history)
