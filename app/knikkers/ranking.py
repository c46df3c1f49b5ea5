"""Recording a finished Knikkers game: verify it by replaying its log, then rank it.

Called inside the transaction of the action that ended the game (``service``); there is no
other way to write ``knikkers_scores`` or ``knikkers_bests``. Rule source: docs/rules.md, Knikkers
("Every finished game is recorded and ranked; a replayed game counts as a game of its own");
and "End of game and ranking" (a finished game is verified by replaying its log from its seed
before it is ranked).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.knikkers import log
from app.knikkers.periods import board_keys
from app.store.models import Game, KnikkersBest, KnikkersScore, KnikkersScoreCount, Player
from app.store.upsert import insert_for


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
    """Raise the player's best on every board of the game, and the score counts with it.

    A score only replaces a strictly lower best (an equal score keeps the earlier game). The
    player's row is locked first (Postgres ``FOR UPDATE``; SQLite has one writer anyway), so two
    games of one player finishing at once cannot both count as a new best. The count changes
    (+1 at the new score, -1 at the replaced one) are applied in (board, score) order, so
    concurrent finishes take the count rows' locks in the same order. No commit.
    """
    keys = board_keys(finished_at, daily)
    await session.execute(select(Player.id).where(Player.id == player_id).with_for_update())
    old = dict(
        (
            await session.execute(
                select(KnikkersBest.board, KnikkersBest.score).where(
                    KnikkersBest.variant == variant,
                    KnikkersBest.player_id == player_id,
                    KnikkersBest.board.in_(keys),
                )
            )
        ).all()
    )
    score = result["score"]
    rows: list[dict[str, Any]] = []
    deltas: Counter[tuple[Any, ...]] = Counter()
    for board in keys:
        before = old.get(board)
        if before is not None and score <= before:
            continue
        rows.append(
            {
                "variant": variant,
                "board": board,
                "player_id": player_id,
                "score": score,
                "finished_at": finished_at,
                "game_id": game_id,
                "moves": result["moves"],
                "lines": result["lines"],
            }
        )
        deltas[(board, score)] += 1
        if before is not None:
            deltas[(board, before)] -= 1
    if not rows:
        return
    stmt = insert_for(session, KnikkersBest).values(rows)
    excluded = stmt.excluded
    await session.execute(
        stmt.on_conflict_do_update(
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
    )
    counts = insert_for(session, KnikkersScoreCount).values(
        [
            {"variant": variant, "board": board, "score": value, "players": delta}
            for (board, value), delta in sorted(deltas.items())
        ]
    )
    await session.execute(
        counts.on_conflict_do_update(
            index_elements=["variant", "board", "score"],
            set_={"players": KnikkersScoreCount.players + counts.excluded.players},
        )
    )
