"""Personal bests in room games: which players beat their own best with the game just ended.

A record is a final total higher than every total the same player (guest id) had in an earlier
finished game of the same kind, in any room. A player's first game of a kind sets no record:
there is nothing to beat yet. The seats are stored with the game's result (``records``), so
the result screen celebrates them for as long as it is shown (docs/rules.md, "Results and
personal bests").
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import Game, Seat


async def new_records(session: AsyncSession, kind: str, game_id: int,
                      players: dict[int, str], totals: dict[int, int]) -> list[int]:
    """The seat ids (sorted) whose total in game ``game_id`` of ``kind`` is a new personal best.

    ``players``: seat id -> player id of the game's seats; ``totals``: seat id -> final total.
    Only finished games other than ``game_id`` are compared.
    """
    wanted = {players[seat] for seat in totals if seat in players}
    if not wanted:
        return []
    rows = await session.execute(
        select(Game.result, Seat.id, Seat.player_id)
        .join(Seat, Seat.room_id == Game.room_id)
        .where(Game.kind == kind, Game.status == "finished", Game.id != game_id,
               Seat.player_id.in_(wanted)))
    best: dict[str, int] = {}
    for row in rows:
        stored = cast(dict[str, Any] | None, row[0]) or {}
        seat_id, player_id = int(row[1]), str(row[2])
        totals_then: dict[str, int] = stored.get("totals") or {}
        total = totals_then.get(str(seat_id))
        if isinstance(total, int):
            best[player_id] = max(best.get(player_id, total), total)
    return sorted(seat for seat, total in totals.items()
                  if players.get(seat) in best and total > best[players[seat]])
