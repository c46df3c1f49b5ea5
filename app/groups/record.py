"""Recording finished room games: each group's results and every player's ratings, once per
game, off the request's path (docs/rules.md, "Groups" and "Ratings").

The room service calls ``Recorder.notify(game_id)`` after a game's finish is committed; the
game is put in a queue that one task of this process works through in order. A game is
recorded in one transaction that also inserts its ``rated_games`` row, so a game notified
twice, by two processes, or again after a restart is recorded once (the second insert fails
and rolls everything back). At start-up ``scan`` queues every finished room game not
recorded yet (a game that finished while no process was running its recorder).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime

import structlog
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc, utcnow
from app.groups.bests import add_records
from app.groups.models import (
    Group,
    GroupGame,
    GroupMember,
    GroupNight,
    GroupResult,
    GroupRoom,
    RatedGame,
)
from app.groups.rating_store import rate_game
from app.groups.ratings import ranks_of
from app.groups.standings import add_accuracies, add_results
from app.rooms.bots.identity import is_bot
from app.rooms.games import GAMES
from app.rooms.games.base import Event
from app.rooms.repository import to_event
from app.store.db import Database
from app.store.models import Game, GameEvent, Room, Seat
from app.store.retry import on_fresh_connection

log = structlog.get_logger("knobel.groups")

Accuracy = Callable[[Game], Awaitable[dict[int, int]]]
"""``accuracy(game)``: seat id -> accuracy 0..100 of a finished game that has an analysis
ready (empty when it has none, or none yet)."""


class Recorder:
    """Records finished room games in ``db``; ``accuracy`` (optional) adds each seat's
    accuracy to a group's results after the game is recorded. Owns its queue and worker task:
    ``start()`` begins (and scans), ``close()`` stops them."""

    def __init__(self, db: Database, accuracy: Accuracy | None = None) -> None:
        self.db = db
        self.accuracy = accuracy
        self._queue: asyncio.Queue[int] | None = None  # made by start(), in its event loop
        self._worker: asyncio.Task[None] | None = None

    def notify(self, game_id: int) -> None:
        """Queue finished game ``game_id`` to be recorded (returns at once; before ``start``
        or after ``close`` the next start's scan finds it)."""
        if self._queue is not None:
            self._queue.put_nowait(game_id)

    def start(self) -> None:
        """Start the worker, which first queues the games not recorded yet (``scan``)."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._queue = queue
        self._worker = asyncio.create_task(self._work(queue))

    async def close(self) -> None:
        """Stop the worker (a game it was recording is recorded again at the next start)."""
        worker, self._worker, self._queue = self._worker, None, None
        if worker is not None:
            worker.cancel()
            try:
                await worker
            except asyncio.CancelledError:
                pass

    async def idle(self) -> None:
        """Wait until every queued game is recorded (tests, benchmarks)."""
        if self._queue is not None:
            await self._queue.join()

    async def _work(self, queue: asyncio.Queue[int]) -> None:
        try:
            for game_id in await self.scan():
                queue.put_nowait(game_id)
        except Exception:
            log.exception("group_scan_failed")
        while True:
            game_id = await queue.get()
            try:
                await self.record(game_id)
            except Exception:  # the next start's scan tries it again
                log.exception("game_not_recorded", game=game_id)
            finally:
                queue.task_done()

    async def scan(self) -> list[int]:
        """Finished room games without a ``rated_games`` row, oldest first."""
        async with self.db.sessionmaker() as session:
            rows = await session.execute(
                select(Game.id).outerjoin(RatedGame, RatedGame.game_id == Game.id)
                .where(Game.status == "finished", Game.room_id.is_not(None),
                       RatedGame.game_id.is_(None))
                .order_by(Game.finished_at, Game.id))
            return [int(g) for g in rows.scalars()]

    async def record(self, game_id: int) -> bool:
        """Record finished game ``game_id``: its group's results (when its room plays for a
        group) and the ratings. False when it was recorded before or is not a finished room
        game."""
        async def attempt() -> Game | None:
            for _ in range(3):
                async with self.db.sessionmaker() as session:
                    try:
                        async with session.begin():
                            return await record_game(session, game_id)
                    except IntegrityError:  # another process recorded it first, or made
                        pass  # one of its rating or standing rows meanwhile: look again
            raise RuntimeError(f"game {game_id} could not be recorded")

        game = await on_fresh_connection(attempt, "record_game")
        if game is None:
            return False
        if self.accuracy is not None:
            await self._add_accuracy(game)
        return True

    async def _add_accuracy(self, game: Game) -> None:
        """Store each seat's accuracy with the game's group results (best effort)."""
        assert self.accuracy is not None
        try:
            found = await self.accuracy(game)
            if not found:
                return
            async with self.db.sessionmaker() as session, session.begin():
                rows = await session.execute(
                    select(GroupResult).where(GroupResult.game_id == game.id))
                results = list(rows.scalars())
                for row in results:
                    row.accuracy = found.get(row.seat_id)
                measured = [r for r in results if r.member and r.accuracy is not None]
                await add_accuracies(session, measured)
                await add_records(session, measured, ("accuracy",))
                if results:
                    await changed(session, results[0].group_id)
        except Exception:
            log.exception("accuracy_not_stored", game=game.id)


async def record_game(session: AsyncSession, game_id: int) -> Game | None:
    """Inside a transaction: mark ``game_id`` recorded, write its group results and rate it.
    Returns the game, or None when it is recorded already or not a finished room game.
    Raises IntegrityError when another transaction recorded it meanwhile."""
    if await session.get(RatedGame, game_id) is not None:
        return None
    game = await session.get(Game, game_id)
    if game is None or game.status != "finished" or game.room_id is None:
        return None
    session.add(RatedGame(game_id=game_id, rated_at=utcnow()))
    await session.flush()  # a concurrent recorder fails here or at commit
    seats = {s.id: s for s in (await session.execute(
        select(Seat).where(Seat.room_id == game.room_id))).scalars()}
    totals = {int(k): int(v) for k, v in ((game.result or {}).get("totals") or {}).items()
              if int(k) in seats}
    by_player = {seats[s].player_id: points for s, points in totals.items()}
    link = await session.get(GroupRoom, game.room_id)
    if link is not None and totals:
        await _group_results(session, game, link.group_id, seats, totals)
    await rate_game(session, game.kind,
                    ["all"] + ([f"g{link.group_id}"] if link is not None else []), by_player)
    return game


async def _group_results(session: AsyncSession, game: Game, group_id: int,
                         seats: dict[int, Seat], totals: dict[int, int]) -> None:
    """One ``GroupResult`` per seat of the finished ``game`` played for group ``group_id``."""
    code = (await session.execute(
        select(Room.code).where(Room.id == game.room_id))).scalar_one()
    active = set((await session.execute(
        select(GroupMember.player_id).where(GroupMember.group_id == group_id,
                                            GroupMember.status == "active"))).scalars())
    finished = as_utc(game.finished_at or game.started_at)
    night = await _night_at(session, group_id, finished)
    thrown = await _feats(session, game)
    ranks = ranks_of({str(s): points for s, points in totals.items()})
    counted: list[GroupResult] = []
    places: list[list] = []
    for seat_id, points in totals.items():
        seat = seats[seat_id]
        rank = ranks[str(seat_id)]
        result = GroupResult(
            game_id=game.id, player_id=seat.player_id, group_id=group_id, night_id=night,
            kind=game.kind, finished_at=finished, code=code, number=game.number,
            seat_id=seat_id, name=seat.name,
            member=seat.player_id in active and not is_bot(seat.player_id),
            score=points, rank=rank, players=len(totals), won=rank == 1,
            feats=thrown.get(seat_id, 0), accuracy=None)
        session.add(result)
        places.append([rank, seat.name, points])
        if result.member:
            counted.append(result)
    session.add(GroupGame(game_id=game.id, group_id=group_id, kind=game.kind,
                          finished_at=finished, code=code, number=game.number,
                          places=sorted(places)))
    await add_results(session, counted)
    await add_records(session, counted, ("score", "feats"))
    await changed(session, group_id)


async def _feats(session: AsyncSession, game: Game) -> dict[int, int]:
    """Seat id -> feats of ``game`` as its plug-in counts them (``GameRecords.feats``);
    empty, without reading its events, for a game that counts none."""
    plugin = GAMES.get(game.kind)
    records = plugin.records if plugin is not None else None
    if records is None or records.feat is None:
        return {}
    return records.feats(await _events(session, game.id))


async def changed(session: AsyncSession, group_id: int) -> None:
    """Count up group ``group_id``'s ``results_version`` (in the caller's transaction)."""
    await session.execute(update(Group).where(Group.id == group_id)
                          .values(results_version=Group.results_version + 1))


async def _night_at(session: AsyncSession, group_id: int, at: datetime) -> int | None:
    """The group's night running at ``at`` (started before, not ended before), or None."""
    rows = await session.execute(
        select(GroupNight).where(GroupNight.group_id == group_id,
                                 GroupNight.started_at <= at)
        .order_by(GroupNight.started_at.desc()).limit(1))
    night = rows.scalar_one_or_none()
    if night is None or (night.ended_at is not None and as_utc(night.ended_at) < at):
        return None
    return night.id


async def _events(session: AsyncSession, game_id: int) -> list[Event]:
    rows = await session.execute(
        select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.seq))
    return [to_event(row) for row in rows.scalars()]
