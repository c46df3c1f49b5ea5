"""Rooms in the database: loading (``load_room``: a room's state rebuilt from its rows, its
events folded by ``RoomState.fold``), the version check, and every write's transaction (the
changes room actions make inside it are built in ``app.rooms.writes``).

A write bumps the room's version from the one its state was decided on, in the same
transaction as the change; when another writer moved it first the write raises ``Conflict``
(the caller reloads and decides again). A statement whose pooled connection died is run again
on a fresh one (``on_fresh_connection``); the stored action id makes that safe.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Collection
from datetime import datetime
from functools import partial
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Integer,
    String,
    bindparam,
    cast,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.players.service import upsert_player
from app.rooms.errors import Conflict
from app.rooms.games.base import Event
from app.rooms.records import new_records
from app.rooms.state import RECENT_ACTIONS, GameInfo, RoomState, SeatInfo
from app.rooms.turns import Turns
from app.store.db import Database
from app.store.driver import driver_execute
from app.store.models import Game, GameEvent, Room, RoomAction, Seat
from app.store.retry import on_fresh_connection

Work = Callable[[AsyncSession], Awaitable[Any]]
"""A change made inside a write's transaction."""

# The hot path's statements, built once (parameters bound per call).
_BUMP = (update(Room).where(Room.id == bindparam("room"), Room.version == bindparam("expected"))
         .values(version=Room.version + 1))
_BUMP_STATUS = _BUMP.values(status=bindparam("new_status"))
# A turn-based room's commit also sets who the table waits for (``app.rooms.turns``), in the
# same statement: its moves cost no more round trips than a live room's.
_TURN_COLUMNS = ("turns", "turn_due_at", "remind_at")
_TURN_VALUES: dict[str, Any] = {name: bindparam(f"t_{name}") for name in _TURN_COLUMNS}
_BUMP_TURNS = _BUMP.values(**_TURN_VALUES)
_BUMP_STATUS_TURNS = _BUMP_STATUS.values(**_TURN_VALUES)
INSERT_EVENTS = insert(GameEvent)
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
_APPEND_ONE_TURNS = insert(GameEvent).from_select(
    list(_EVENT_COLUMNS),
    select(*(cast(bindparam(f"ev_{name}", type_=type_), type_)
             for name, type_ in zip(_EVENT_COLUMNS, _EVENT_TYPES, strict=True)))
    .select_from(_BUMP_TURNS.returning(Room.id).cte("bump")),
)

# The same statement as ``_APPEND_ONE``, for the driver itself (``app.store.driver``): $1 room
# id, $2 the version it was decided on, $3.. the event's columns (payload as JSON text).
APPEND_ONE_SQL = (
    "WITH bump AS (UPDATE rooms SET version = rooms.version + 1 "
    "WHERE rooms.id = $1 AND rooms.version = $2 RETURNING rooms.id) "
    "INSERT INTO game_events (game_id, seq, type, payload, seat_id, action_id, created_at) "
    "SELECT $3::integer, $4::integer, $5::varchar(16), $6::json, $7::integer, "
    "$8::varchar(64), $9::timestamptz FROM bump")

TurnValues = dict[str, Any]
"""The turn columns a write sets (``turn_values``); None: it leaves them as they are."""


def turn_values(turns: Turns | None, hours: int, now: datetime) -> TurnValues:
    """The ``rooms`` turn columns for ``turns`` (None: not waiting, e.g. the game ended):
    the JSON, the earliest deadline and the next moment a push is to be considered
    (``Turns.notice_at``), for a room whose turn deadline is ``hours``."""
    if turns is None:
        return dict.fromkeys(_TURN_COLUMNS)
    return {"turns": turns.to_json(), "turn_due_at": turns.due_at(),
            "remind_at": turns.notice_at(hours, now)}


class RoomRepository:
    """Reads and writes rooms in ``db``; ``clock()`` stamps stored room actions (UTC);
    ``finished(game_id)`` is told of each game whose finish was committed (the groups'
    recorder, docs/architecture.md "Groups")."""

    def __init__(self, db: Database, clock: Callable[[], datetime],
                 finished: Callable[[int], None] = lambda game_id: None) -> None:
        self.db = db
        self.clock = clock
        self.finished = finished
        self._autocommit = (db.engine.execution_options(isolation_level="AUTOCOMMIT")
                            if db.engine.dialect.name == "postgresql" else None)

    async def load(self, code: str) -> RoomState | None:
        """Room ``code`` rebuilt from the database (``load_room``); None when unknown."""
        async def load() -> RoomState | None:
            async with self.db.sessionmaker() as session:
                return await load_room(session, code)

        return await on_fresh_connection(load, "load_room")

    async def version(self, code: str) -> int | None:
        """The committed version of room ``code``; None when unknown."""
        async def read() -> int | None:
            async with self.db.sessionmaker() as session:
                return (
                    await session.execute(select(Room.version).where(Room.code == code))
                ).scalar_one_or_none()

        return await on_fresh_connection(read, "room_version")

    async def versions(self, codes: list[str]) -> dict[str, int]:
        """The committed version of each room in ``codes`` (room code -> version), read in one
        query per 1,000 codes; unknown codes are left out."""
        async def read(chunk: list[str]) -> dict[str, int]:
            async with (self._autocommit or self.db.engine).connect() as conn:
                rows = await conn.execute(
                    select(Room.code, Room.version).where(Room.code.in_(chunk)))
                return {code: version for code, version in rows}

        found: dict[str, int] = {}
        for i in range(0, len(codes), 1000):
            found.update(await on_fresh_connection(partial(read, codes[i:i + 1000]),
                                                   "room_versions"))
        return found

    async def create(self, code: str, kind: str, options: dict[str, Any], player_id: str,
                     name: str) -> None:
        """A new room ``code`` of game ``kind`` in the lobby at version 1, hosted by
        ``player_id`` in its first seat as ``name``."""
        async def create() -> None:
            async with self.db.sessionmaker() as session, session.begin():
                await upsert_player(session, player_id, name)
                room = Room(code=code, game=kind, options=options, host_player_id=player_id,
                            status="lobby", version=1)
                session.add(room)
                await session.flush()
                session.add(Seat(room_id=room.id, player_id=player_id, position=0, name=name))

        await on_fresh_connection(create, "create_room")

    async def write(self, state: RoomState, work: Work, status: str | None = None,
                    action_id: str | None = None, turns: TurnValues | None = None) -> int:
        """Run ``work``, bump the room version (setting ``status`` and the ``turns`` columns
        when given) and store the client's ``action_id`` (so a repeat is a duplicate, also
        after a restart) in one transaction; returns the new version.

        Raises ``Conflict`` when another writer got there first (version moved, or the
        ``(game, seq)`` / ``(room, number)`` / ``(room, action_id)`` unique constraints fired).
        """
        version = state.version + 1

        async def transaction() -> None:
            async with self.db.sessionmaker() as session, session.begin():
                await _bump(session, state, status, turns)
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
        if status == "finished" and state.game is not None:
            self.finished(state.game.id)
        return version

    async def set_turn_due(self, state: RoomState, not_before: datetime | None = None) -> None:
        """Store the earliest turn deadline of ``state.turns`` (NULL without), but not before
        ``not_before`` (aware UTC, or None), as the room's ``turn_due_at`` if the room is
        still at ``state.version`` (else its newer write set it)."""
        due = state.turns.due_at() if state.turns is not None and \
            state.status == "playing" else None
        if due is not None and not_before is not None:
            due = max(due, not_before)

        async def store() -> None:
            async with self.db.engine.begin() as conn:
                await conn.execute(update(Room).where(
                    Room.id == state.id, Room.version == state.version).values(turn_due_at=due))

        await on_fresh_connection(store, "set_turn_due")

    async def records(self, state: RoomState, totals: dict[int, int]) -> list[int]:
        """The seats of the current game whose ``totals`` are new personal bests
        (``app.rooms.records.new_records``)."""
        game = state.game
        assert game is not None
        players = {s.id: s.player_id for s in state.seats}

        async def read() -> list[int]:
            async with self.db.sessionmaker() as session:
                return await new_records(session, game.kind, game.id, players, totals)

        return await on_fresh_connection(read, "records")

    async def append(self, state: RoomState, rows: list[dict[str, Any]],
                     totals: dict[int, int] | None, now: datetime,
                     records: list[int] | None = None, left: Collection[int] = (),
                     turns: TurnValues | None = None) -> None:
        """Store the current game's event ``rows`` and bump the version (setting the
        ``turns`` columns when given); with ``totals`` the game is finished with that result
        (and its ``records`` and the seats that ``left`` it, seat ids) at ``now``. One
        statement in autocommit for a single event on Postgres (a live room's sent on the
        driver itself: ``app.store.driver``). Raises ``Conflict`` as ``write`` does."""
        game = state.game
        assert game is not None

        async def store() -> None:
            if self._autocommit is not None and len(rows) == 1 and totals is None:
                async with self._autocommit.connect() as conn:
                    if turns is None:  # a live room's action: past SQLAlchemy's execution
                        row = rows[0]
                        status = await driver_execute(
                            conn, APPEND_ONE_SQL, state.id, state.version, row["game_id"],
                            row["seq"], row["type"], json.dumps(row["payload"]),
                            row["seat_id"], row["action_id"], row["created_at"])
                        if status is not None:
                            if status != "INSERT 0 1":
                                raise Conflict()
                            return
                    params = {f"ev_{k}": v for k, v in rows[0].items()}
                    params.update({"room": state.id, "expected": state.version})
                    if turns is not None:
                        params.update({f"t_{k}": v for k, v in turns.items()})
                    result = await conn.execute(
                        _APPEND_ONE if turns is None else _APPEND_ONE_TURNS, params)
                    if result.rowcount != 1:
                        raise Conflict()
                return
            async with self.db.engine.begin() as conn:
                await _bump(conn, state, "finished" if totals is not None else None, turns)
                await conn.execute(INSERT_EVENTS, rows)
                if totals is not None:
                    await conn.execute(update(Game).where(Game.id == game.id).values(
                        status="finished", finished_at=now,
                        result=result_of(totals, records, left)))

        try:
            # A retry after a lost reply finds the version moved: Conflict, then a duplicate.
            await on_fresh_connection(store, "append")
        except IntegrityError as exc:
            raise Conflict() from exc
        if totals is not None:
            self.finished(game.id)


def result_of(totals: dict[int, int], records: list[int] | None = None,
              left: Collection[int] = ()) -> dict[str, Any]:
    """A finished game's stored ``result`` (JSON keys are strings); ``records``: the seat ids
    with a new personal best (``app.rooms.records``); ``left``: the seats taken out of the
    game before it ended (stored only when there are some)."""
    result: dict[str, Any] = {"totals": {str(k): v for k, v in totals.items()},
                              "records": list(records or [])}
    if left:
        result["left"] = sorted(left)
    return result


async def _bump(conn: Any, state: RoomState, status: str | None,
                turns: TurnValues | None = None) -> None:
    """Raise the room's version by one (and set its ``status`` and ``turns`` columns) if it
    is still ``state.version``; ``Conflict`` when another writer moved it. ``conn``: an
    async connection or session inside a transaction."""
    params: dict[str, Any] = {"room": state.id, "expected": state.version}
    if status:
        params["new_status"] = status
    if turns is not None:
        params.update({f"t_{k}": v for k, v in turns.items()})
        statement = _BUMP_STATUS_TURNS if status else _BUMP_TURNS
    else:
        statement = _BUMP_STATUS if status else _BUMP
    result = await conn.execute(statement, params)
    if result.rowcount != 1:
        raise Conflict()


def event_rows(game_id: int, first_seq: int, events: list[Event],
               action_id: str | None) -> list[dict[str, Any]]:
    """``game_events`` rows for ``events`` numbered from ``first_seq``; the first carries the
    client's ``action_id``."""
    return [{"game_id": game_id, "seq": first_seq + i, "type": e.type, "payload": e.payload,
             "seat_id": e.seat_id, "action_id": action_id if i == 0 else None,
             "created_at": e.at} for i, e in enumerate(events)]


def to_event(row: GameEvent) -> Event:
    """A stored ``game_events`` row as a plug-in ``Event``."""
    return Event(row.type, row.payload, row.seat_id, as_utc(row.created_at))


async def load_room(session: AsyncSession, code: str) -> RoomState | None:
    """Rebuild the room ``code`` from the database (its row, seats and games; the latest
    game's events folded in order by ``RoomState.fold``, the room at its stored version; the
    latest client action ids remembered); None when there is no such room."""
    room = (await session.execute(select(Room).where(Room.code == code))).scalar_one_or_none()
    if room is None:
        return None
    seats = (
        await session.execute(select(Seat).where(Seat.room_id == room.id).order_by(Seat.position))
    ).scalars()
    games = (
        await session.execute(select(Game).where(Game.room_id == room.id).order_by(Game.number))
    ).scalars()
    state = RoomState(
        id=room.id, code=room.code, kind=room.game, options=dict(room.options),
        host_player_id=room.host_player_id, status=room.status, version=room.version,
        seats=[SeatInfo(s.id, s.player_id, s.name, s.position, s.status, ready=s.ready)
               for s in seats],
        games=[GameInfo.of(g) for g in games],
    )
    if room.turns is not None:
        state.turns = Turns.from_json(room.turns)
    state.relabel()
    if state.game is not None:
        game = state.game
        state.game_state = state.plugin.new_state(game.options, game.seat_ids, 0)
        rows = (
            await session.execute(
                select(GameEvent).where(GameEvent.game_id == game.id).order_by(GameEvent.seq)
            )
        ).scalars()
        for row in rows:  # one by one, each at its stored number; the version is the room's
            state.fold([to_event(row)], row.seq, room.version)
    for action_id in await _recent_action_ids(session, room.id):
        state.remember_action(action_id, state.version)
    return state


async def _recent_action_ids(session: AsyncSession, room_id: int) -> list[str]:
    """The room's latest ``RECENT_ACTIONS`` client action ids, oldest first: room-level
    actions (``room_actions``) and game actions of every game of the room (``game_events``),
    so a repeated send is a duplicate after a restart too, whatever its type."""
    room_ids = (select(RoomAction.action_id.label("action_id"), RoomAction.id.label("n"),
                       literal(0).label("source"))
                .where(RoomAction.room_id == room_id)
                .order_by(RoomAction.id.desc()).limit(RECENT_ACTIONS))
    game_ids = (select(GameEvent.action_id.label("action_id"), GameEvent.id.label("n"),
                       literal(1).label("source"))
                .join(Game, Game.id == GameEvent.game_id)
                .where(Game.room_id == room_id, GameEvent.action_id.is_not(None))
                .order_by(GameEvent.id.desc()).limit(RECENT_ACTIONS))
    rows = [*(await session.execute(room_ids)), *(await session.execute(game_ids))]
    return [row.action_id for row in sorted(rows, key=lambda r: (r.n, r.source))]
