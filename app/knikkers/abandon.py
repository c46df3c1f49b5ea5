"""Knikkers games left unfinished: "New game" during a game with moves asks first, then marks
that game abandoned (docs/rules.md, "End of game and ranking"). An abandoned game is never
ranked (only finished games reach ``knikkers_scores``); the player's statistics count it.
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import utcnow
from app.knikkers import log
from app.knikkers.variants import KIND
from app.store.models import Game

ABANDONED = "abandoned"


async def abandon(session: AsyncSession, game_id: int, player_id: str) -> bool:
    """Mark ``player_id``'s game ``game_id`` abandoned if it is still being played, and commit.

    Returns True when it was (False: not theirs, not Knikkers, or not playing any more).
    """
    result = await session.execute(
        update(Game)
        .where(Game.id == game_id, Game.player_id == player_id, Game.kind == KIND,
               Game.status == "playing")
        .values(status=ABANDONED, finished_at=utcnow())
        .execution_options(synchronize_session=False))
    await session.commit()
    return bool(getattr(result, "rowcount", 0))


async def abandoned_count(session: AsyncSession, player_id: str, variant: int) -> int:
    """How many Knikkers games of ``variant`` (5 or 4) ``player_id`` abandoned."""
    rows = (await session.execute(
        select(Game)
        .where(Game.player_id == player_id, Game.kind == KIND, Game.status == ABANDONED)
    )).scalars()
    return sum(1 for row in rows if log.variant_of(row) == variant)
