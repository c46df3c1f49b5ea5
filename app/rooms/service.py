"""The room service: every change to a room goes through here, one at a time per room.

Path of one action: socket handler -> ``RoomService.act`` (per-room lock) -> plug-in
``decide`` (pure rules) -> append events + bump the room version in one transaction (the
``(game, seq)`` unique constraint and the version check serialise writers across processes)
-> commit -> ``publish(code, version)`` -> the hub renders fragments per recipient.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import structlog
from sqlalchemy import (
    JSON,
    DateTime,
    Integer,
    String,
    bindparam,
    cast,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc, utcnow
from app.players.service import upsert_player
from app.rooms.codes import new_code
from app.rooms.dice import DiceSource
from app.rooms.errors import Conflict, RoomError
from app.rooms.games import GAMES, get_game
from app.rooms.games.base import ActionError, Event, OptionError, Table
from app.rooms.rules import HOST_GRACE, check_basis, heir, host_handoff, required_basis
from app.rooms.state import RoomState, load_room
from app.store.db import Database
from app.store.models import Game, GameEvent, Room, RoomAction, Seat
from app.store.retry import on_fresh_connection

log = structlog.get_logger("knobel.rooms")

Publish = Callable[[str, int], Awaitable[None]]
# The hot path's statements, built once (parameters bound per call).
_BUMP = (update(Room).where(Room.id == bindparam("room"), Room.version == bindparam("expected"))
         .values(version=Room.version + 1))
_BUMP_STATUS = _BUMP.values(status=bindparam("new_status"))
_INSERT_EVENTS = insert(GameEvent)
_EVENT_COLUMNS = ("game_id", "seq", "type", "payload", "seat_id", "action_id", "created_at")
_EVENT_TYPES: tuple[Any, ...] = (Integer, Integer, String(16), JSON, Integer, String(64),
                                 DateTime(timezone=True))
# Postgres: one event and the version bump as ONE statement (atomic on its own), sent in
# autocommit mode: one round trip per action instead of BEGIN, UPDATE, INSERT, COMMIT.
_APPEND_ONE = insert(GameEvent).from_select(
    list(_EVENT_COLUMNS),
    select(*(cast(bindparam(f"ev_{name}", type_=type_), type_)
             for name, type_ in zip(_EVENT_COLUMNS, _EVENT_TYPES, strict=True)))
    .select_from(_BUMP.returning(Room.id).cte("bump")),
)
ROOM_ACTIONS = {"options", "start", "remove", "leave", "next_game", "rematch", "ready"}
MAX_ACTION_ID = 64


@dataclass
class Outcome:
    """What an accepted action did: the room ``version`` after it, and whether it was a
    repeat of an action already applied (``duplicate``)."""

    version: int
    duplicate: bool = False


class RoomService:
    """Creates rooms, seats players, and applies actions and timers to rooms.

    ``db``: the database; ``publish(code, version)``: announces a committed version;
    ``dice``: the server's dice; ``online(code)``: player ids with an open socket there;
    ``away_since(code)``: when each away player went; ``clock``: now (UTC);
    ``host_grace``: how long a host may be away outside a game before the role passes on.
    """

    def __init__(
        self,
        db: Database,
        publish: Publish,
        dice: DiceSource,
        online: Callable[[str], frozenset[str]] = lambda code: frozenset(),
        away_since: Callable[[str], dict[str, datetime]] = lambda code: {},
        clock: Callable[[], datetime] = utcnow,
        host_grace: timedelta = HOST_GRACE,
    ) -> None:
        self.db = db
        self.publish = publish
        self.dice = dice
        self.online = online
        self.away_since = away_since
        self.clock = clock
        self.host_grace = host_grace
        self._rooms: dict[str, RoomState] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._watching: dict[str, datetime] = {}
        self._autocommit = (db.engine.execution_options(isolation_level="AUTOCOMMIT")
                            if db.engine.dialect.name == "postgresql" else None)

    # ----- reading -------------------------------------------------------------------------

    def lock(self, code: str) -> asyncio.Lock:
        """The in-process lock serialising actions of room ``code``."""
        return self._locks.setdefault(code, asyncio.Lock())

    async def snapshot(self, code: str, at_least: int = 0) -> RoomState | None:
        """The room's state, reloaded from the database when ours is older than ``at_least``
        (an event committed by another process), not cached yet, or ``at_least`` is -1."""
        state = self._rooms.get(code)
        if state is not None and state.version >= at_least >= 0:
            return state
        async with self.lock(code):
            state = self._rooms.get(code)
            if state is None or state.version < at_least or at_least < 0:
                state = await self._reload(code)
        return state

    async def current(self, code: str) -> RoomState | None:
        """The room as the database has it now (one version check; reload when behind).

        For HTTP reads, which may reach a process that has not yet heard of another
        process's latest event. None for an unknown room.
        """
        async with self.lock(code):
            try:
                return await self._fresh(code)
            except RoomError:
                return None

    async def versions(self, codes: list[str]) -> dict[str, int]:
        """The committed version of each room in ``codes`` (room code -> version), read from the
        database in one query per 1,000 codes; unknown codes are left out."""
        async def read(chunk: list[str]) -> dict[str, int]:
            async with (self._autocommit or self.db.engine).connect() as conn:
                rows = await conn.execute(
                    select(Room.code, Room.version).where(Room.code.in_(chunk)))
                return {code: version for code, version in rows}

        found: dict[str, int] = {}
        for i in range(0, len(codes), 1000):
            chunk = codes[i:i + 1000]
            found.update(await on_fresh_connection(partial(read, chunk), "room_versions"))
        return found

    async def _reload(self, code: str) -> RoomState | None:
        async def load() -> RoomState | None:
            async with self.db.sessionmaker() as session:
                return await load_room(session, code)

        state = await on_fresh_connection(load, "load_room")
        if state is None:
            self._rooms.pop(code, None)
            return None
        self._rooms[code] = state
        self._schedule(state)
        return state

    async def _fresh(self, code: str) -> RoomState:
        """The cached state if it matches the database's version, else a reload. Call locked."""
        state = self._rooms.get(code)

        async def read() -> int | None:
            async with self.db.sessionmaker() as session:
                return (
                    await session.execute(select(Room.version).where(Room.code == code))
                ).scalar_one_or_none()

        version = await on_fresh_connection(read, "room_version")
        if version is None:
            raise RoomError("unknown_room", "This room does not exist.", 404)
        if state is None or state.version != version:
            state = await self._reload(code)
            assert state is not None
        return state

    def table(self, state: RoomState) -> Table:
        """The plug-in's view of the table: seat order and which seats are online."""
        online = self.online(state.code)
        away = self.away_since(state.code)
        return Table(
            seat_ids=state.game.seat_ids if state.game else [],
            online=frozenset(s.id for s in state.seats if s.player_id in online),
            away_since={s.id: away[s.player_id] for s in state.seats if s.player_id in away},
            started_at=state.game.started_at if state.game else None,
            watching_since=self._watching.setdefault(state.code, self.clock()),
        )

    # ----- creating and joining ------------------------------------------------------------

    async def create_room(self, player_id: str, name: str, kind: str) -> str:
        """Create a room of game ``kind`` hosted by ``player_id`` (seated as ``name``).

        Returns the new room code. Raises ``RoomError`` (400) for an unknown game.
        """
        if kind not in GAMES:
            raise RoomError("unknown_game", "Unknown game.", 400)
        code = new_code()

        async def create() -> None:
            async with self.db.sessionmaker() as session, session.begin():
                await upsert_player(session, player_id, name)
                room = Room(code=code, game=kind, options=get_game(kind).default_options(),
                            host_player_id=player_id, status="lobby", version=1)
                session.add(room)
                await session.flush()
                session.add(Seat(room_id=room.id, player_id=player_id, position=0, name=name))

        await on_fresh_connection(create, "create_room")
        log.info("room_created", room=code, player=player_id, game=kind)
        return code

    async def join(self, code: str, player_id: str, name: str) -> int:
        """Seat ``player_id`` as ``name`` in room ``code``; returns the new room version.

        Already seated: updates nothing and returns the current version (one seat per player,
        however many tabs). Raises ``RoomError``: unknown room (404), game running or room
        full (409).
        """
        async with self.lock(code):
            for _ in range(3):
                state = await self._fresh(code)
                if state.seat_of(player_id):
                    return state.version
                if state.status == "playing":
                    raise RoomError("game_running", "The game has already started.")
                if state.is_full:
                    raise RoomError("room_full", "This room is full.")
                try:
                    version = await self._write(
                        state, partial(_seat, state=state, player_id=player_id, name=name))
                except Conflict:
                    continue
                await self._reload(code)
                break
            else:
                raise RoomError("busy", "The room is busy, please try again.", 503)
        log.info("seat_taken", room=code, player=player_id)
        await self.publish(code, version)
        return version

    # ----- actions ---------------------------------------------------------------------------

    async def act(self, code: str, player_id: str, message: dict[str, Any]) -> Outcome:
        """Apply one client ``message`` (``{"type": ..., "action_id": ..., ...}``) for
        ``player_id`` in room ``code``; the seat comes from the player, never the message.

        Returns the ``Outcome``; raises ``ActionError``/``RoomError`` when refused (nothing
        changed). A message whose ``action_id`` was applied before is not applied again.
        """
        started = time.perf_counter()
        action_id = message.get("action_id")
        if action_id is not None and (not isinstance(action_id, str) or
                                      not 0 < len(action_id) <= MAX_ACTION_ID):
            raise RoomError("bad_message", "The message is malformed.", 400)
        kind = message.get("type")
        if not isinstance(kind, str):
            raise RoomError("bad_message", "The message is malformed.", 400)
        async with self.lock(code):
            # The cached state is used without asking the database for its version first:
            # a write from a stale cache fails the version check (Conflict: reload, retry),
            # and a refusal is only final once the database version confirms the cache.
            cached = self._rooms.get(code)
            duplicate = None
            for _ in range(3):
                state = cached or await self._fresh(code)
                if action_id and action_id in state.recent_actions:
                    duplicate = Outcome(state.recent_actions[action_id], duplicate=True)
                    version = state.version
                    break
                try:
                    version = await self._apply(state, player_id, kind, message, action_id)
                except Conflict:
                    self._rooms.pop(code, None)
                    cached = None
                    continue
                except (ActionError, RoomError):
                    if cached is None or await self._fresh(code) is cached:
                        raise
                    cached = None  # the cache was behind another process: decide again
                    continue
                break
            else:
                raise RoomError("busy", "The room is busy, please try again.", 503)
        if duplicate is not None:
            # announced again: the first try may have committed without being announced
            await self.publish(code, version)
            return duplicate
        log.info("action", room=code, player=player_id, type=kind, version=version,
                 ms=round((time.perf_counter() - started) * 1000, 1))
        await self.publish(code, version)
        return Outcome(version)

    async def _apply(
        self, state: RoomState, player_id: str, kind: str, message: dict[str, Any],
        action_id: str | None,
    ) -> int:
        seat = state.seat_of(player_id)
        claimed = message.get("seat")
        if kind not in ("remove",) and claimed is not None and (
            seat is None or str(claimed) != str(seat.id)
        ):
            raise RoomError("not_your_seat", "You can only act for your own seat.", 403)
        if kind not in ROOM_ACTIONS and kind not in state.plugin.actions:
            raise RoomError("unknown_action", "Unknown action.", 400)
        # Every action names the state it was decided on (its page's basis): a page that was
        # offline or behind is refused, and shown the table as it is now.
        check_basis(required_basis(state, kind), message)
        if kind in ROOM_ACTIONS:
            return await self._room_action(state, player_id, kind, message, action_id)
        if seat is None:
            raise RoomError("not_seated", "Only seated players can do that.", 403)
        if state.status != "playing" or state.game_state is None:
            raise RoomError("not_playing", "No game is running.")
        dice = self.dice.for_room(state.code)
        events = state.plugin.decide(state.game_state, seat.id, message, dice)
        return await self._append(state, events, action_id)

    async def _append(self, state: RoomState, events: list[Event], action_id: str | None) -> int:
        """Store ``events`` of the current game (finishing it when they end it); commit."""
        now = self.clock()
        events = [Event(e.type, e.payload, e.seat_id, now) for e in events]
        plugin, game = state.plugin, state.game
        assert game is not None
        first_seq = state.last_seq + 1
        try:
            for event in events:  # optimistic: a failed commit drops the cached state
                plugin.apply(state.game_state, event)
        except Exception:
            self._rooms.pop(state.code, None)
            raise
        over = plugin.is_over(state.game_state)
        totals = plugin.totals(state.game_state) if over else {}

        rows = _event_rows(game.id, first_seq, events, action_id)
        status = "finished" if over else None

        async def store() -> None:
            if self._autocommit is not None and len(rows) == 1 and not over:
                async with self._autocommit.connect() as conn:
                    params = {f"ev_{k}": v for k, v in rows[0].items()}
                    result = await conn.execute(
                        _APPEND_ONE, {**params, "room": state.id, "expected": state.version})
                    if result.rowcount != 1:
                        raise Conflict()
            else:
                async with self.db.engine.begin() as conn:
                    await _bump(conn, state, status)
                    await conn.execute(_INSERT_EVENTS, rows)
                    if over:
                        await conn.execute(
                            update(Game).where(Game.id == game.id).values(
                                status="finished", finished_at=now,
                                result={"totals": {str(k): v for k, v in totals.items()}},
                            )
                        )

        try:
            # A retry after a lost reply finds the version moved: Conflict, then a duplicate.
            await on_fresh_connection(store, "append")
        except IntegrityError as exc:
            self._rooms.pop(state.code, None)
            raise Conflict() from exc
        except BaseException:
            self._rooms.pop(state.code, None)
            raise
        version = state.version + 1
        state.version = version
        state.last_seq = first_seq + len(events) - 1
        state.remember_action(action_id, version)
        if over:
            game.status, game.totals, state.status = "finished", totals, "finished"
            log.info("game_finished", room=state.code, game=game.id, totals=totals)
        self._schedule(state)
        return version

    async def _room_action(
        self, state: RoomState, player_id: str, kind: str, message: dict[str, Any],
        action_id: str | None,
    ) -> int:
        seat = state.seat_of(player_id)
        is_host = player_id == state.host_player_id and seat is not None
        if kind == "leave":
            if seat is None:
                raise RoomError("not_seated", "Only seated players can do that.", 403)
            return await self._remove(state, seat.id, "left", action_id)
        if kind == "ready":
            if seat is None:
                raise RoomError("not_seated", "Only seated players can do that.", 403)
            ready = message.get("ready")
            if not isinstance(ready, bool):
                raise RoomError("bad_message", "The message is malformed.", 400)
            if state.status == "playing":
                raise RoomError("game_running", "The game has already started.")
            if seat.ready == ready:
                return state.version  # pressed twice: nothing changes
            return await self._write_seat(state, seat.id, action_id, ready=ready)
        if not is_host:
            raise RoomError("not_host", "Only the host can do that.", 403)
        if kind == "options":
            if state.status == "playing":
                raise RoomError("game_running", "The game has already started.")
            try:
                options = state.plugin.parse_options(message)
            except OptionError as exc:
                raise RoomError("bad_option", "That option is not available.", 400) from exc
            return await self._write_room(state, action_id, options=options)
        if kind == "start":
            if state.status != "lobby":
                raise RoomError("game_running", "The game has already started.")
            return await self._start(state, action_id, continue_match=False)
        if kind in ("next_game", "rematch"):
            if state.status != "finished":
                raise RoomError("not_finished", "The game is not over yet.")
            game = state.game
            assert game is not None
            match_done = game.options.get("match_game", 1) >= game.options.get("match", 1)
            if kind == "next_game":
                if match_done:
                    raise RoomError("match_over", "The match is over: start a rematch.")
                return await self._start(state, action_id, continue_match=True)
            if not match_done:
                raise RoomError("match_running", "The match goes on: start its next game.")
            # Rematch: back to the lobby, the result still shown, the options editable.
            return await self._write(state, _nothing, status="lobby", action_id=action_id,
                                     reload=True)
        if kind == "remove":
            try:
                target = int(str(message.get("target", message.get("seat"))))
            except (TypeError, ValueError):
                raise RoomError("bad_message", "The message is malformed.", 400) from None
            victim = state.seat(target)
            if victim is None or victim.status != "active":
                raise RoomError("no_such_seat", "There is no such seat.", 404)
            if victim.player_id == player_id:
                raise RoomError("remove_self", "Use Leave to leave the room.")
            return await self._remove(state, victim.id, "removed", action_id)
        raise RoomError("unknown_action", "Unknown action.", 400)

    async def _start(self, state: RoomState, action_id: str | None,
                     continue_match: bool) -> int:
        """Create the next game with the active seats: the match's next game
        (``continue_match``, same options) or the first game of a new match; every seat's
        "ready" mark is cleared."""
        seats = [s.id for s in state.active_seats]
        if not seats:
            raise RoomError("no_players", "Nobody is seated.")
        previous = state.game
        number = previous.number + 1 if previous else 1
        match_size = int(state.options.get("match", 1))
        if previous and continue_match:
            match_no = previous.options.get("match_no", 1)
            match_game = previous.options.get("match_game", 1) + 1
            match_size = previous.options.get("match", 1)
        else:
            match_no = (previous.options.get("match_no", 0) + 1) if previous else 1
            match_game = 1
        start = (number - 1) % len(seats)
        order = seats[start:] + seats[:start]
        options = {**state.options, "match": match_size, "match_no": match_no,
                   "match_game": match_game}

        async def work(session: AsyncSession) -> None:
            session.add(Game(room_id=state.id, number=number, kind=state.kind, options=options,
                             seat_ids=order, status="playing"))
            await session.execute(update(Seat).where(Seat.room_id == state.id)
                                  .values(ready=False))

        return await self._write(state, work, status="playing", action_id=action_id,
                                 reload=True)

    async def _remove(self, state: RoomState, seat_id: int, status: str,
                      action_id: str | None) -> int:
        """Take a seat away (``left`` or ``removed``); the host role passes on with it."""
        victim = state.seat(seat_id)
        assert victim is not None
        events = []
        if state.status == "playing" and state.game_state is not None:
            events = state.plugin.remove_seat(state.game_state, seat_id)
        if events:
            now = self.clock()
            events = [Event(e.type, e.payload, e.seat_id, now) for e in events]
        host = state.host_player_id
        if victim.player_id == host:
            successor = heir(state, self.online(state.code), leaving=seat_id)
            host = successor.player_id if successor else None
        game = state.game
        first_seq = state.last_seq + 1

        async def work(session: AsyncSession) -> None:
            await session.execute(update(Seat).where(Seat.id == seat_id).values(status=status))
            await session.execute(update(Room).where(Room.id == state.id)
                                  .values(host_player_id=host))
            if events:
                assert game is not None  # events only come from a running game
                await session.execute(_INSERT_EVENTS,
                                      _event_rows(game.id, first_seq, events, None))

        version = await self._write(state, work, action_id=action_id)
        after = await self._reload(state.code)
        if after and after.status == "playing" and after.plugin.is_over(after.game_state):
            await self._finish_if_over(after)
            version = after.version
        return version

    async def _finish_if_over(self, state: RoomState) -> None:
        """Mark the game finished when removals left it over (no placements pending)."""
        assert state.game is not None
        totals = state.plugin.totals(state.game_state)
        game_id = state.game.id

        async def work(session: AsyncSession) -> None:
            await session.execute(update(Game).where(Game.id == game_id).values(
                status="finished", finished_at=self.clock(),
                result={"totals": {str(k): v for k, v in totals.items()}}))

        await self._write(state, work, status="finished")
        await self._reload(state.code)

    async def _write_room(self, state: RoomState, action_id: str | None, **values: Any) -> int:
        """Set the room row's columns ``values``; returns the new version."""
        async def work(session: AsyncSession) -> None:
            await session.execute(update(Room).where(Room.id == state.id).values(**values))

        return await self._write(state, work, action_id=action_id, reload=True)

    async def _write_seat(self, state: RoomState, seat_id: int, action_id: str | None,
                          **values: Any) -> int:
        """Set seat ``seat_id``'s columns ``values``; returns the new version."""
        async def work(session: AsyncSession) -> None:
            await session.execute(update(Seat).where(Seat.id == seat_id).values(**values))

        return await self._write(state, work, action_id=action_id, reload=True)

    async def _write(
        self, state: RoomState, work: Callable[[AsyncSession], Awaitable[Any]],
        status: str | None = None, action_id: str | None = None, reload: bool = False,
    ) -> int:
        """Run ``work``, bump the room version and store the client's ``action_id`` (so a
        repeat is a duplicate, also after a restart) in one transaction; returns the new
        version, after reloading the room's state when ``reload``.

        Raises ``Conflict`` when another writer got there first (version moved, or the
        ``(game, seq)`` / ``(room, number)`` / ``(room, action_id)`` unique constraints fired).
        """
        version = state.version + 1

        async def transaction() -> None:
            async with self.db.sessionmaker() as session, session.begin():
                await _bump(session, state, status)
                await work(session)
                if action_id:
                    session.add(RoomAction(room_id=state.id, action_id=action_id,
                                           version=version, created_at=self.clock()))

        try:
            await on_fresh_connection(transaction, "write")
        except IntegrityError as exc:
            raise Conflict() from exc
        if action_id:
            state.remember_action(action_id, version)
        if reload:
            await self._reload(state.code)
        return version

    # ----- timers ----------------------------------------------------------------------------

    def _schedule(self, state: RoomState) -> None:
        """(Re)arm the room's timer for its next deadline: the plug-in's (timers, away
        players) during a game, the host hand-over outside one. Notes the countdowns the
        pages show in ``state.away_due`` and ``state.host_handoff``."""
        handle = self._timers.pop(state.code, None)
        if handle:
            handle.cancel()
        now = self.clock()
        table = self.table(state)
        dues = []
        state.away_due = {}
        if state.status == "playing" and state.game_state is not None:
            state.away_due = state.plugin.away_deadlines(state.game_state, table, now)
            dues.append(state.plugin.deadline(state.game_state, table, now))
        state.host_handoff = self._handoff(state, now)
        if state.host_handoff:
            dues.append(state.host_handoff[0])
        due = min((d for d in dues if d is not None), default=None)
        if due is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        delay = max(0.0, (as_utc(due) - now).total_seconds())
        self._timers[state.code] = loop.call_later(
            delay, lambda: asyncio.ensure_future(self.fire_timer(state.code))
        )

    def presence_changed(self, code: str) -> None:
        """Re-arm the timer of ``code`` (an away roller may now be rolled for)."""
        state = self._rooms.get(code)
        if state is not None:
            self._schedule(state)

    async def fire_timer(self, code: str) -> None:
        """Apply what is due in room ``code`` (if still due): the plug-in's automatic events
        during a game, the host hand-over outside one."""
        version = None
        async with self.lock(code):
            try:
                state = await self._fresh(code)
            except RoomError:
                return
            try:
                version = await self._due(state)
            except Conflict:
                self._rooms.pop(code, None)
            if version is None and code in self._rooms:
                self._schedule(self._rooms[code])
        if version is not None:
            log.info("timer_events", room=code, version=version)
            await self.publish(code, version)

    def _handoff(self, state: RoomState, now: datetime) -> tuple[datetime, Any] | None:
        """When and to whom the host role passes (``rules.host_handoff``), or None."""
        watching = self._watching.setdefault(state.code, now)
        return host_handoff(state, self.online(state.code), self.away_since(state.code),
                            watching, self.host_grace)

    async def _due(self, state: RoomState) -> int | None:
        """Write what is due now in ``state``'s room; the new version, or None. Call locked."""
        now = self.clock()
        if state.status == "playing" and state.game_state is not None:
            events = state.plugin.on_timer(state.game_state, self.table(state), now,
                                           self.dice.for_room(state.code))
            return await self._append(state, events, None) if events else None
        handoff = self._handoff(state, now)
        if handoff is None or handoff[0] > now:
            return None
        log.info("host_handed_over", room=state.code, host=handoff[1].player_id)
        return await self._write_room(state, None, host_player_id=handoff[1].player_id)

    def close(self) -> None:
        """Cancel every timer (shutdown)."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()


async def _nothing(session: AsyncSession) -> None:
    """No change besides the version bump (and the status passed with it)."""


async def _bump(conn: Any, state: RoomState, status: str | None) -> None:
    """Raise the room's version by one (and set its ``status``) if it is still
    ``state.version``; ``Conflict`` when another writer moved it. ``conn``: an async
    connection or session inside a transaction."""
    params: dict[str, Any] = {"room": state.id, "expected": state.version}
    if status:
        params["new_status"] = status
    result = await conn.execute(_BUMP_STATUS if status else _BUMP, params)
    if result.rowcount != 1:
        raise Conflict()


def _event_rows(game_id: int, first_seq: int, events: list[Event],
                action_id: str | None) -> list[dict[str, Any]]:
    """``game_events`` rows for ``events`` numbered from ``first_seq``; the first carries the
    client's ``action_id``."""
    return [{"game_id": game_id, "seq": first_seq + i, "type": e.type, "payload": e.payload,
             "seat_id": e.seat_id, "action_id": action_id if i == 0 else None,
             "created_at": e.at} for i, e in enumerate(events)]


async def _seat(session: AsyncSession, state: RoomState, player_id: str, name: str) -> None:
    await upsert_player(session, player_id, name)
    existing = (
        await session.execute(
            select(Seat).where(Seat.room_id == state.id, Seat.player_id == player_id)
        )
    ).scalar_one_or_none()
    if existing is not None:
        existing.status, existing.name = "active", name
    else:
        position = (
            await session.execute(
                select(func.coalesce(func.max(Seat.position), -1)).where(Seat.room_id == state.id)
            )
        ).scalar_one() + 1
        session.add(Seat(room_id=state.id, player_id=player_id, position=position, name=name))
    if state.host_player_id is None:
        await session.execute(
            update(Room).where(Room.id == state.id).values(host_player_id=player_id)
        )


__all__ = ["ActionError", "Outcome", "RoomError", "RoomService"]
