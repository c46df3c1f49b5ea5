"""A player's games across rooms ("Your games", ``GET /games``; the header's count): the
unfinished rooms they have an active seat in, those where it is their turn first, and the
rooms finished lately.

Two indexed queries however many rooms a player has (``ix_seats_player`` for their seats,
then ``uq_seats_room_position`` for the names at those tables); who the table waits for
(``rooms.turns``, JSON) is decided here in Python, never in SQL, so it reads the same on
SQLite and Postgres. The header's count is one query (``your_turn_count``).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.store.models import Game, Room, Seat

FINISHED_DAYS = 14
"""Finished rooms are listed for this many days after their last game ended."""
FINISHED_LIMIT = 20
"""At most this many finished rooms, the most recently finished first."""
AWAY_AFTER = 3
"""A seat that missed this many turns in a row is away: a bot plays for it."""


@dataclass(frozen=True)
class YourGame:
    """One room on "Your games": its ``code``, game ``kind`` and ``status`` (``lobby``,
    ``playing``, ``finished``); ``your_turn`` when the table waits for the player's seat, then
    ``deadline`` (aware UTC; None when the room's turns name none); ``away`` when the
    player's seat missed ``AWAY_AFTER`` turns in a row; ``others``: the other active seats'
    names in seat order; ``active``: when the room was last active (a finished room: its
    game's end; a turn-based room: its latest wait's start; else its creation);
    ``turn_based``: the room keeps turns (``rooms.turns`` set); ``to_play``: the names of
    the other seats the table waits for (a turn-based room's waits)."""

    code: str
    kind: str
    status: str
    your_turn: bool = False
    deadline: datetime | None = None
    away: bool = False
    turn_based: bool = False
    active: datetime | None = None
    others: tuple[str, ...] = field(default=())
    to_play: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class YourGames:
    """The lists of the page, each in its order: ``your_turn`` (soonest deadline first),
    ``waiting`` (games being played, most recently active first), ``finished`` (most
    recently finished first) and ``lobby`` (waiting rooms not started yet, newest first)."""

    your_turn: list[YourGame]
    waiting: list[YourGame]
    finished: list[YourGame]
    lobby: list[YourGame] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when the player has no room to list."""
        return not (self.your_turn or self.waiting or self.finished or self.lobby)


def _moment(value: Any) -> datetime | None:
    """An ISO 8601 time from ``rooms.turns`` as aware UTC; None for anything else."""
    if not isinstance(value, str):
        return None
    try:
        return as_utc(datetime.fromisoformat(value))
    except ValueError:
        return None


def latest_since(turns: Any) -> datetime | None:
    """The latest start of a wait in ``rooms.turns`` (its last move), None without one."""
    waits = turns.get("waits") if isinstance(turns, dict) else None
    if not isinstance(waits, dict):
        return None
    moments = [_moment(w.get("since")) for w in waits.values() if isinstance(w, dict)]
    return max((m for m in moments if m is not None), default=None)


def turn_of(turns: Any, seat_id: int) -> tuple[bool, datetime | None, bool]:
    """What ``rooms.turns`` says about seat ``seat_id``: ``(waits for it, its deadline,
    away)``. Tolerates any shape (a live room's NULL or JSON null, a missing key): a table
    that names no wait waits for nobody."""
    if not isinstance(turns, dict):
        return False, None, False
    key = str(seat_id)
    waits = turns.get("waits")
    wait = waits.get(key) if isinstance(waits, dict) else None
    missed = turns.get("missed")
    count = missed.get(key) if isinstance(missed, dict) else None
    away = isinstance(count, int) and count >= AWAY_AFTER
    if wait is None:
        return False, None, away
    return True, _moment(wait.get("due")) if isinstance(wait, dict) else None, away


def order(games: list[YourGame], limit_finished: int = FINISHED_LIMIT) -> YourGames:
    """Sort the rooms into the page's three lists (see ``YourGames``)."""
    far, old = datetime.max.replace(tzinfo=UTC), datetime.min.replace(tzinfo=UTC)
    yours = sorted((g for g in games if g.your_turn and g.status != "finished"),
                   key=lambda g: (g.deadline or far, g.code))
    def latest(status: str) -> list[YourGame]:
        return sorted((g for g in games if not g.your_turn and g.status == status),
                      key=lambda g: (g.active or old, g.code), reverse=True)

    finished = latest("finished")
    return YourGames(yours, latest("playing"), finished[:limit_finished], latest("lobby"))


async def your_games(session: AsyncSession, player_id: str, now: datetime) -> YourGames:
    """The rooms of "Your games" for ``player_id`` at ``now`` (aware UTC): every room where
    the player has an active seat that is in its waiting room or playing, and those finished
    within ``FINISHED_DAYS`` (at most ``FINISHED_LIMIT``). Two queries; the games table is
    read only for finished rooms (the list's cost is the pages it reads: a player's 50 rooms
    are 50 places on disk)."""
    ended = (select(func.max(Game.finished_at)).where(Game.room_id == Room.id)
             .correlate(Room).scalar_subquery())
    rows: Sequence[Any] = (await session.execute(
        select(Room.id, Room.code, Room.game, Room.status, Room.turns, Room.created_at,
               Seat.id, case((Room.status == "finished", ended)))
        .join(Seat, Seat.room_id == Room.id)
        .where(Seat.player_id == player_id, Seat.status == "active",
               or_(Room.status.in_(("lobby", "playing")),
                   (Room.status == "finished")
                   & (ended >= now - timedelta(days=FINISHED_DAYS)))))).all()
    if not rows:
        return YourGames([], [], [])
    names: dict[int, dict[int, str]] = {}  # room -> seat -> name, in seat order
    for room_id, seat, name in await session.execute(
            select(Seat.room_id, Seat.id, Seat.name)
            .where(Seat.room_id.in_([row[0] for row in rows]), Seat.status == "active",
                   Seat.player_id != player_id)
            .order_by(Seat.room_id, Seat.position)):
        names.setdefault(room_id, {})[seat] = name
    games = []
    for room_id, code, kind, status, turns, created, seat_id, end in rows:
        waits, due, away = turn_of(turns, seat_id)
        moments = [m for m in (as_utc(created), latest_since(turns)) if m is not None]
        games.append(YourGame(
            code=code, kind=kind, status=status, your_turn=waits and status == "playing",
            deadline=due, away=away, turn_based=isinstance(turns, dict),
            active=as_utc(end) if status == "finished" and end else max(moments, default=None),
            others=tuple(names.get(room_id, {}).values()),
            to_play=_waited_names(turns, names.get(room_id, {})) if status == "playing"
            else ()))
    return order(games)


def _waited_names(turns: Any, names: dict[int, str]) -> tuple[str, ...]:
    """The names, in seat order, of the seats in ``names`` (seat id -> name) that
    ``rooms.turns`` waits for (any shape tolerated, as ``turn_of``)."""
    waits = turns.get("waits") if isinstance(turns, dict) else None
    if not isinstance(waits, dict):
        return ()
    return tuple(name for seat, name in names.items() if str(seat) in waits)


async def your_turn_count(session: AsyncSession, player_id: str) -> int:
    """How many of ``player_id``'s running rooms wait for their seat now (the header's
    badge): one query over their active seats in rooms being played."""
    rows: Sequence[Any] = (await session.execute(
        select(Seat.id, Room.turns)
        .join(Room, Room.id == Seat.room_id)
        .where(Seat.player_id == player_id, Seat.status == "active",
               Room.status == "playing"))).all()
    return len([seat_id for seat_id, turns in rows if turn_of(turns, seat_id)[0]])


class TurnCounts:
    """Each player's ``your_turn_count``, kept ``ttl`` seconds per player in this process
    (the header shows it on every page: at most one query per player per ``ttl``); at most
    ``size`` players, the oldest entries dropped first. ``put`` stores a count just read
    (``GET /games`` counts its own list)."""

    def __init__(self, ttl: float = 5.0, size: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.size = size
        self.clock = clock
        self._counts: OrderedDict[str, tuple[float, int]] = OrderedDict()

    def put(self, player_id: str, count: int) -> None:
        """Keep ``count`` for ``player_id`` from now."""
        self._counts.pop(player_id, None)
        self._counts[player_id] = (self.clock() + self.ttl, count)
        while len(self._counts) > self.size:
            self._counts.popitem(last=False)

    async def get(self, session: AsyncSession, player_id: str) -> int:
        """The player's count: kept, or read now through ``session`` (and kept)."""
        kept = self._counts.get(player_id)
        if kept is not None and kept[0] > self.clock():
            return kept[1]
        count = await your_turn_count(session, player_id)
        self.put(player_id, count)
        return count
