"""A room's state in memory, rebuilt from the database: room row, seats, games, event log.

The latest game's state is its plug-in folded over the stored events, so a restarted server
continues exactly where the log ends.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import literal, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.players.names import name_key
from app.rooms.bots.identity import PREFIX as BOT_PREFIX
from app.rooms.games import get_game
from app.rooms.games.base import Event, GamePlugin
from app.store.models import Game, GameEvent, Room, RoomAction, Seat

MAX_SEATS = 12  # issue: a room holds at most 12 seats
TABLE_PLAYER_PREFIX = "table-"
"""Player ids of seats without a device (docs/rules.md, "Table mode";
``app.rooms.pass_and_play``)."""
RECENT_ACTIONS = 2048


@dataclass
class SeatInfo:
    """A seat: its id, owner, display name, place at the table, ``active``/``left``/``removed``,
    ``label`` (the name, with ``(2)``, ``(3)``... when several active seats share it) and
    ``ready`` (pressed "Ready" for the next game)."""

    id: int
    player_id: str
    name: str
    position: int
    status: str
    label: str = ""
    ready: bool = False

    @property
    def bot(self) -> bool:
        """True when a bot sits here (docs/rules.md, "Bots")."""
        return self.player_id.startswith(BOT_PREFIX)

    @property
    def table_seat(self) -> bool:
        """True for a seat without a device of its own, played from the host's (pass and
        play; docs/rules.md, "Table mode")."""
        return self.player_id.startswith(TABLE_PLAYER_PREFIX)


@dataclass
class GameInfo:
    """One game of the room: number, options, table order, status, final totals, when it
    started (UTC), the seats that set a personal best with it (``records``) and those taken
    out of it before it ended (``left``)."""

    id: int
    number: int
    kind: str
    options: dict[str, Any]
    seat_ids: list[int]
    status: str
    totals: dict[int, int]
    started_at: datetime | None = None
    records: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, game: Game) -> GameInfo:
        """The ``GameInfo`` of a stored ``games`` row: its result's totals, records and the
        seats that left read from ``game.result`` (JSON keys are strings)."""
        result = game.result or {}
        return cls(game.id, game.number, game.kind, dict(game.options), list(game.seat_ids),
                   game.status, {int(k): int(v) for k, v in (result.get("totals") or {}).items()},
                   as_utc(game.started_at), list(result.get("records") or []),
                   list(result.get("left") or []))


@dataclass
class RoomState:
    """Everything needed to validate an action and render the room at ``version``.

    ``recent_actions``: client action ids applied lately -> the version they made;
    ``away_due`` and ``host_handoff``: see ``RoomService._schedule`` (shown as countdowns).
    """

    id: int
    code: str
    kind: str
    options: dict[str, Any]
    host_player_id: str | None
    status: str
    version: int
    seats: list[SeatInfo]
    games: list[GameInfo]
    game_state: Any = None
    last_seq: int = 0
    recent_actions: OrderedDict[str, int] = field(default_factory=OrderedDict)
    # Deadlines this process computed when it last (re)armed the room's timer (not stored):
    # per seat when the server acts for it while away, and the host hand-over.
    away_due: dict[int, datetime] = field(default_factory=dict)
    host_handoff: tuple[datetime, SeatInfo] | None = None
    taken_over: set[int] = field(default_factory=set)  # seats a bot plays for (rooms/bots)
    # What every viewer of this version is shown alike (app.web.room_view), built once.
    view_cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def plugin(self) -> GamePlugin:
        """The room's game plug-in."""
        return get_game(self.kind)

    @property
    def kind_folder(self) -> str:
        """The template folder of the room's game (``rooms/<folder>/``)."""
        return self.plugin.folder

    @property
    def game(self) -> GameInfo | None:
        """The latest game, if any."""
        return self.games[-1] if self.games else None

    @property
    def active_seats(self) -> list[SeatInfo]:
        """Seats still at the table, in seat order."""
        return [s for s in self.seats if s.status == "active"]

    def seat_of(self, player_id: str | None) -> SeatInfo | None:
        """The active seat of ``player_id``, or None (spectator)."""
        return next(
            (s for s in self.seats if s.player_id == player_id and s.status == "active"), None
        )

    def seat(self, seat_id: int | None) -> SeatInfo | None:
        """The seat with id ``seat_id`` (any status), or None."""
        return next((s for s in self.seats if s.id == seat_id), None)

    @property
    def host_seat(self) -> SeatInfo | None:
        """The host's seat, if the host is seated."""
        return self.seat_of(self.host_player_id)

    @property
    def is_full(self) -> bool:
        """True when all 12 seats are taken."""
        return len(self.active_seats) >= MAX_SEATS

    def remember_action(self, action_id: str | None, version: int) -> None:
        """Keep ``action_id`` so a repeated send is recognised (bounded memory)."""
        if action_id:
            self.recent_actions[action_id] = version
            while len(self.recent_actions) > RECENT_ACTIONS:
                self.recent_actions.popitem(last=False)

    def relabel(self) -> None:
        """Tell apart seats with the same name, in seat order: ``Anna``, ``Anna (2)``...

        Every seat counts, also those that left, so a label never changes and never
        repeats while their sheets are on screen (names compared by ``name_key``).
        """
        counts: dict[str, int] = {}
        for seat in self.seats:
            key = name_key(seat.name)
            counts[key] = counts.get(key, 0) + 1
            seat.label = seat.name if counts[key] == 1 else f"{seat.name} ({counts[key]})"

    def match_games(self) -> list[GameInfo]:
        """The games of the latest game's match (its ``match_no``), in order."""
        if not self.game:
            return []
        match_no = self.game.options.get("match_no", 1)
        return [g for g in self.games if g.options.get("match_no", 1) == match_no]


def to_event(row: GameEvent) -> Event:
    """A stored row as a plug-in ``Event``."""
    return Event(row.type, row.payload, row.seat_id, as_utc(row.created_at))


async def load_room(session: AsyncSession, code: str) -> RoomState | None:
    """Rebuild the room ``code`` from the database; None when there is no such room."""
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
    state.relabel()
    if state.game is not None:
        plugin = state.plugin
        game = state.game
        state.game_state = plugin.new_state(game.options, game.seat_ids, 0)
        rows = (
            await session.execute(
                select(GameEvent).where(GameEvent.game_id == game.id).order_by(GameEvent.seq)
            )
        ).scalars()
        for row in rows:
            plugin.apply(state.game_state, to_event(row))
            state.last_seq = row.seq
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
