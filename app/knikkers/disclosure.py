"""What of a Knikkers game the browser may see.

The seed fixes every spawn of a game (``app.engines.knikkers_seed``), and the engine is public,
so the seed is the game's whole future. Rule (docs/rules.md, Knikkers,
"Secrecy"): nothing sent to a browser reveals a seed, or any spawn of a game still being played
beyond the three upcoming colours it shows.

- The seed (and the engine's draw counter, ``spawn_index``) never leave the server, not even for
  a finished game: "Herspelen" starts a ranked game on a finished game's seed (docs/rules.md,
  Knikkers: "a replayed game counts as a game of its own").
- A finished game is watched move by move (replay viewer, its JSON state) by its player at any
  time; by anybody else once nobody can still be playing the seed with that knowledge: a daily
  game only after its day is over (everyone plays the same seed that day), and never while the
  viewer has a game of their own on the same seed still running (a daily game begun before
  midnight and finished after it).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.engines import knikkers as engine
from app.knikkers import log
from app.knikkers.variants import KIND
from app.store.models import Game

# Everything of the engine state a browser may see (a whitelist: a new engine field stays
# private until it is added here).
PUBLIC_KEYS = ("min_line", "board", "upcoming", "score", "moves", "lines_cleared", "over",
               "can_undo")


def public_state(game: engine.Game) -> dict[str, Any]:
    """The engine state a browser may see: ``state_dict`` without the seed and the draw counter.

    Returns ``{min_line, board (9x9), upcoming (3 colours), score, moves, lines_cleared, over,
    can_undo}``.
    """
    state = game.state_dict()
    return {key: state[key] for key in PUBLIC_KEYS}


async def why_hidden(session: AsyncSession, row: Game, viewer: str, today: date) -> str | None:
    """Why ``viewer`` (a player id) may not see game ``row`` move by move yet, or None if they may.

    Returns ``"playing"`` while the game is being played (for its player too: they see it on its
    game page); None for its player once it is finished; for anybody else ``"daily"`` while it is
    a daily game whose day (a UTC date) is not over by ``today``, ``"same_seed"`` while the viewer
    has a game of their own on the same seed being played, else None.
    """
    if row.status != "finished":
        return "playing"
    if row.player_id == viewer:
        return None
    daily = log.daily_of(row)
    if daily is not None and daily >= today:
        return "daily"
    playing = select(
        exists().where(Game.player_id == viewer, Game.kind == KIND,
                       Game.status == "playing", Game.seed == row.seed)
    )
    return "same_seed" if await session.scalar(playing) else None


async def may_watch(session: AsyncSession, row: Game, viewer: str, today: date) -> bool:
    """True when ``why_hidden`` has no reason: ``viewer`` may see the finished game ``row``."""
    return await why_hidden(session, row, viewer, today) is None
