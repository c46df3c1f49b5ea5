"""Recording a finished Knikkers game: verify it by replaying its log, then rank it.

Called inside the transaction of the action that ended the game (``service``); there is no
other way to write ``knikkers_scores`` or ``knikkers_bests``. Rule source: RULES.md, Knikkers
("Every finished game is recorded and ranked; a replayed game counts as a game of its own");
issue 6 ("A finished game is verified by replaying its log from its seed before it is ranked").
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.knikkers import log
from app.knikkers.dbsql import insert_for
from app.knikkers.periods import as_utc, board_keys
from app.store.models import Game, KnikkersBest, KnikkersScore


class UnverifiedGame(RuntimeError):
    """The log does not replay to a finished game: it is not ranked."""


async def finish(
    session: AsyncSession, row: Game, actions: Sequence[Any], now: datetime
) -> dict[str, Any]:
    """Verify and rank ``row`` whose full log is ``actions`` (engine action forms).

    Replays the log from the seed (and stored start position); the replayed game must be over.
    Sets the row's status, ``finished_at`` and ``result`` (score, moves, lines, duration_s,
    previous_best, new_record), adds its ``knikkers_scores`` row and raises its bests. No commit.
    Raises UnverifiedGame, or ``IllegalMove`` for a corrupt log.
    """
    verified = log.rebuild(row, actions)
    if not verified.over:
        raise UnverifiedGame(f"game {row.id} does not replay to a finished game")
    variant, daily = log.variant_of(row), log.daily_of(row)
    duration = max(0, int((as_utc(now) - as_utc(row.started_at)).total_seconds()))
    previous = await session.scalar(
        select(KnikkersBest.score).where(
            KnikkersBest.variant == variant,
            KnikkersBest.board == "all",
            KnikkersBest.player_id == row.player_id,
        )
    )
    result = {
        "score": verified.score,
        "moves": verified.moves,
        "lines": verified.lines_cleared,
        "duration_s": duration,
        "previous_best": previous,
        "new_record": verified.score > (previous if previous is not None else 0),
    }
    row.status = "finished"
    row.finished_at = now
    row.result = result
    session.add(
        KnikkersScore(
            game_id=row.id,
            player_id=row.player_id,
            variant=variant,
            daily=daily,
            score=verified.score,
            moves=verified.moves,
            lines=verified.lines_cleared,
            finished_at=now,
            duration_s=duration,
        )
    )
    await raise_bests(session, row.player_id or "", variant, daily, row.id, result, now)
    await session.flush()
    return result


async def raise_bests(
    session: AsyncSession,
    player_id: str,
    variant: int,
    daily: date | None,
    game_id: int,
    result: dict[str, Any],
    finished_at: datetime,
) -> None:
    """Upsert the player's best on every board of the game; a score only replaces a lower one.

    One ``INSERT ... ON CONFLICT (variant, board, player_id) DO UPDATE ... WHERE excluded.score
    > knikkers_bests.score`` (equal scores keep the earlier game). No commit.
    """
    rows = [
        {
            "variant": variant,
            "board": board,
            "player_id": player_id,
            "score": result["score"],
            "finished_at": finished_at,
            "game_id": game_id,
            "moves": result["moves"],
            "lines": result["lines"],
        }
        for board in board_keys(finished_at, daily)
    ]
    stmt = insert_for(session, KnikkersBest).values(rows)
    excluded = stmt.excluded
    stmt = stmt.on_conflict_do_update(
        index_elements=["variant", "board", "player_id"],
        set_={
            "score": excluded.score,
            "finished_at": excluded.finished_at,
            "game_id": excluded.game_id,
            "moves": excluded.moves,
            "lines": excluded.lines,
        },
        where=excluded.score > KnikkersBest.score,
    )
    await session.execute(stmt)
