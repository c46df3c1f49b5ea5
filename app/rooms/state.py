"""A room's state in memory: room row, seats, games, the latest game's folded state.

The latest game's state is its plug-in folded over the committed events (``RoomState.fold``:
the one place that applies them, whether they were just committed here, announced by another
process or read back from the database), so a restarted server continues exactly where the
log ends. Pure data and pure helpers: the database reading is ``app.rooms.repository``'s,
what pages are shown ``app.web.room_view``'s.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from app.clock import as_utc
from app.players.names import name_key
from app.rooms.bots.identity import PREFIX as BOT_PREFIX
from app.rooms.games import get_game
from app.rooms.games.base import Event, GamePlugin
from app.rooms.turns import Turns

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


class StoredGame(Protocol):
    """What ``GameInfo.of`` reads of a stored game (a ``games`` row,
    ``app.store.models.Game``)."""

    @property
    def id(self) -> int: ...
    @property
    def number(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def seat_ids(self) -> list[Any]: ...
    @property
    def status(self) -> str: ...
    @property
    def result(self) -> dict[str, Any] | None: ...
    @property
    def started_at(self) -> datetime | None: ...
    @property
    def dice_seed(self) -> str | None: ...


@dataclass
class GameInfo:
    """One game of the room: number, options, table order, status, final totals, when it
    started (UTC), the seats that set a personal best with it (``records``) and those taken
    out of it before it ended (``left``). ``dice_seed``: the secret seed its server dice come
    from (64 hex digits, docs/dice.md; None with real dice or for a game without a
    ``DiceLog``): never shown before the game is over (``app.rooms.dice_check``)."""

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
    dice_seed: str | None = field(default=None, repr=False)

    @classmethod
    def of(cls, game: StoredGame) -> GameInfo:
        """The ``GameInfo`` of a stored ``games`` row (``StoredGame``): its result's totals,
        records and the seats that left read from ``game.result`` (JSON keys are strings)."""
        result = game.result or {}
        return cls(game.id, game.number, game.kind, dict(game.options), list(game.seat_ids),
                   game.status, {int(k): int(v) for k, v in (result.get("totals") or {}).items()},
                   as_utc(game.started_at), list(result.get("records") or []),
                   list(result.get("left") or []), game.dice_seed)


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
    # a turn-based room's waits and missed turns (``app.rooms.turns``; None: not waiting)
    turns: Turns | None = None

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

    def fold(self, events: Sequence[Event], first_seq: int, version: int,
             action_id: str | None = None) -> None:
        """Apply committed ``events`` (numbered from ``first_seq``) to the latest game's state
        and move the room to ``version``, remembering ``action_id`` (the client action that
        made it; None for the server's own events) as ``folding`` does, with nothing in
        between. Used for events another process committed (``app.rooms.delta``) and for those
        read back from the database (``app.rooms.repository.load_room``). The plug-in's errors
        propagate (the state is then in doubt: drop it)."""
        with self.folding(events, first_seq, version, action_id):
            pass

    @contextmanager
    def folding(self, events: Sequence[Event], first_seq: int, version: int,
                action_id: str | None = None) -> Iterator[None]:
        """The one place events enter a room's state. On entering, ``events`` are applied to
        the latest game's state (its plug-in's ``apply``, in order); when the block ends
        without an error, ``last_seq`` becomes the last event's number (``first_seq`` + count
        - 1), the room's ``version`` becomes ``version`` and ``action_id`` is remembered with
        it. The block is where a commit happens (``GameActions.append``: the events are
        applied first, optimistically, so the write can store the result they make); an
        error in it (or in the plug-in) propagates and leaves ``version``, ``last_seq`` and the
        action ids as they were, with the game's state in doubt: the caller drops it."""
        plugin = self.plugin
        for event in events:
            plugin.apply(self.game_state, event)
        yield
        self.last_seq = first_seq + len(events) - 1
        self.version = version
        self.remember_action(action_id, version)

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
