"""Analyses of finished games and hints for the player on turn, for games that declare a review
(``GamePlugin.review``: the Kniffel family), computed off the event loop (docs/rules.md, "Hints
and game analysis").

``Reviews`` (one per app, ``app.state.reviews``) looks strategies up in the app's
``StrategyTables`` and runs the solver's rankings in worker threads (Starlette's
``run_in_threadpool``), so a request never blocks other rooms. A finished game is analysed
once: the analysis is kept in memory (an LRU of ``size`` games) and its per-player summary is
stored with the game
(``games.result["analysis"]``) for the history pages. While the needed table is still being
built (about 20-60 s on a fresh machine) both return None: "being prepared".
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import structlog
from sqlalchemy import select, update
from starlette.concurrency import run_in_threadpool

from app.rooms.games import get_game
from app.rooms.games.base import Event
from app.rooms.state import GameInfo, to_event
from app.store.db import Database
from app.store.models import Game, GameEvent
from app.strategy.tables import StrategyTables

log = structlog.get_logger("knobel.review")
ANALYSIS_VERSION = 1  # stored summaries of another version are computed again


class Reviews:
    """Game analyses and hints for the app.

    Args: ``db``, the database (events are read from it); ``strategy``, the app's strategy
    tables; ``size``, analyses kept in memory. Owns its cache; ``close()`` drops it.
    """

    def __init__(self, db: Database, strategy: StrategyTables, size: int = 128) -> None:
        self.db = db
        self.strategy = strategy
        self.size = size
        self._done: OrderedDict[int, Any] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    async def ready(self, kind: str, options: dict) -> bool:
        """Whether the strategy for a game of ``kind`` with room ``options`` is loaded (also
        starts its build in the background when there is none)."""
        return await run_in_threadpool(self.strategy.for_options, kind, options) is not None

    async def hint(self, kind: str, options: dict, position: Any) -> Any | None:
        """The hint of game ``kind`` (its ``GamePlugin.review``) for ``position`` (what the
        review's ``position`` gave: a copy, the room may move on meanwhile), or None while the
        table is being built. Raises ValueError for a game without a review, else as the
        review's ``hint``."""
        review = get_game(kind).review
        if review is None:
            raise ValueError(f"{kind} has no hints")
        strategy = await run_in_threadpool(self.strategy.for_options, kind, options)
        if strategy is None:
            return None
        return await run_in_threadpool(review.hint, strategy, position)

    async def analysis(self, game: GameInfo) -> Any | None:
        """The analysis of a finished ``game`` of a kind with a review (its ``analyse``),
        computed once; None while the strategy table is being built. Raises ValueError for a
        game that is not finished or of a kind without a review."""
        review = get_game(game.kind).review
        if game.status != "finished" or review is None:
            raise ValueError("only a finished game of a reviewed kind is analysed")
        cached = self._cached(game.id)
        if cached is not None:
            return cached
        lock = self._locks.setdefault(game.id, asyncio.Lock())
        try:
            async with lock:
                cached = self._cached(game.id)
                if cached is not None:
                    return cached
                strategy = await run_in_threadpool(self.strategy.for_options, game.kind,
                                                          game.options)
                if strategy is None:
                    return None
                events = await self._events(game.id)
                done = await run_in_threadpool(
                    review.analyse, strategy, game.kind, game.options, game.seat_ids, events)
                self._done[game.id] = done
                while len(self._done) > self.size:
                    self._done.popitem(last=False)
                await self._store_summary(game.id, done)
                return done
        finally:
            if not lock.locked():
                self._locks.pop(game.id, None)

    def close(self) -> None:
        """Drop every cached analysis."""
        self._done.clear()

    def _cached(self, game_id: int) -> Any | None:
        done = self._done.get(game_id)
        if done is not None:
            self._done.move_to_end(game_id)
        return done

    async def _events(self, game_id: int) -> list[Event]:
        """The game's stored events, in order."""
        async with self.db.sessionmaker() as session:
            rows = (await session.execute(
                select(GameEvent).where(GameEvent.game_id == game_id)
                .order_by(GameEvent.seq))).scalars()
            return [to_event(row) for row in rows]

    async def _store_summary(self, game_id: int, done: Any) -> None:
        """Keep the per-seat summary with the game (for history pages); best effort."""
        summary = {"v": ANALYSIS_VERSION,
                   "seats": {str(seat): s.to_json() for seat, s in done.summary.items()}}
        try:
            async with self.db.sessionmaker() as session, session.begin():
                result = (await session.execute(
                    select(Game.result).where(Game.id == game_id))).scalar_one_or_none()
                stored: dict[str, Any] = dict(result or {})
                if stored.get("analysis") == summary:
                    return
                await session.execute(update(Game).where(Game.id == game_id).values(
                    result={**stored, "analysis": summary}))
        except Exception:  # the analysis is still shown; the history shows it later
            log.exception("analysis summary not stored", game=game_id)


def stored_accuracy(result: dict | None, seat_id: int) -> int | None:
    """The accuracy stored with a finished game for ``seat_id`` (None when not analysed yet)."""
    analysis = (result or {}).get("analysis") or {}
    if analysis.get("v") != ANALYSIS_VERSION:
        return None
    seat = analysis.get("seats", {}).get(str(seat_id)) or {}
    value = seat.get("accuracy")
    return value if isinstance(value, int) else None
