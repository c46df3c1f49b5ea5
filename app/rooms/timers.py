"""Room timers: when the server must act in a room next, and one armed timer per room.

During a game the plug-in names its deadlines (turn timers, away players); outside one the
host hand-over does (docs/rules.md, "Away players and timers" and "Host hand-over"). Arming a
room also notes the countdowns its pages show (``RoomState.away_due``, ``host_handoff``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Protocol

from app.clock import as_utc
from app.rooms.games.base import Presence, is_turn_based
from app.rooms.pass_and_play import present_seats
from app.rooms.rules import host_handoff
from app.rooms.state import RoomState, SeatInfo

OnlineOf = Callable[[str], frozenset[str]]
AwaySince = Callable[[str], dict[str, datetime]]


class Bots(Protocol):
    """What bots add to the rooms' timers (docs/architecture.md, "Bots"; built by
    ``app.rooms.bots.install`` and given to the room service at its construction)."""

    def adjust(self, state: RoomState, table: Presence) -> Presence:
        """The table the plug-in decides its automatic moves on, from ``table`` (who is
        really present): bot seats count as present, and all seats while bots take over."""
        ...

    def mark(self, state: RoomState, table: Presence, now: datetime) -> datetime | None:
        """Note in ``state`` the seats bots take over now (``taken_over``) and when the
        others away will be (``away_due``); the next such moment, or None."""
        ...

    def watch(self, state: RoomState) -> None:
        """The room ``state`` was (re)armed: its bots may have a move to make."""
        ...


class RoomTimers:
    """One timer per room. ``clock()``: now (UTC); ``host_grace``: how long a host may be
    away outside a game; ``presence()`` returns the current ``(online, away_since)`` lookups
    (player ids with an open socket in a room; when each away player went); ``fire(code)``
    is called when a room's deadline has come; ``bots``: when bots play in rooms, what they
    add (``Bots``: told after every arm)."""

    def __init__(self, clock: Callable[[], datetime], host_grace: timedelta,
                 presence: Callable[[], tuple[OnlineOf, AwaySince]],
                 fire: Callable[[str], Awaitable[None]], bots: Bots | None = None) -> None:
        self.clock = clock
        self.host_grace = host_grace
        self.presence = presence
        self.fire = fire
        self.bots = bots
        self._handles: dict[str, asyncio.TimerHandle] = {}
        self._watching: dict[str, datetime] = {}

    def table(self, state: RoomState) -> Presence:
        """The plug-in's view of the table: seat order, who is online, since when each away
        seat has been away, and since when this process watches the room (with bots, bot
        seats count as online, and all seats do while bots take over: ``Bots.adjust``)."""
        table = self._presence_table(state)
        if is_turn_based(state.options):  # nobody is "away" in a game played over days
            return replace(table, online=frozenset(table.seat_ids))
        return self.bots.adjust(state, table) if self.bots is not None else table

    def _presence_table(self, state: RoomState) -> Presence:
        online, away_since = self.presence()
        here, away = online(state.code), away_since(state.code)
        return Presence(
            seat_ids=state.game.seat_ids if state.game else [],
            online=frozenset(present_seats(state, here)),
            away_since={s.id: away[s.player_id] for s in state.seats if s.player_id in away},
            started_at=state.game.started_at if state.game else None,
            watching_since=self._watching.setdefault(state.code, self.clock()),
        )

    def handoff(self, state: RoomState, now: datetime) -> tuple[datetime, SeatInfo] | None:
        """When and to whom the host role passes (``rules.host_handoff``), or None."""
        online, away_since = self.presence()
        watching = self._watching.setdefault(state.code, now)
        return host_handoff(state, online(state.code), away_since(state.code), watching,
                            self.host_grace)

    def arm(self, state: RoomState) -> None:
        """(Re)arm the room's timer for its next deadline, noting the pages' countdowns."""
        self.cancel(state.code)
        now = self.clock()
        table = self.table(state)
        dues = []
        state.away_due = {}
        # While nobody has the room open (no player, no watcher), a game waits: no turn or
        # away timer runs and no bot plays for an away player (docs/rules.md, "Away players
        # and timers"); bots in their own seats still make their own moves.
        # A turn-based room has no away countdowns, take-overs or host hand-over: its
        # deadlines are days long and kept in the database (``app.rooms.deadlines``); only
        # the plug-in's own automatic events (Knister's next roll) are timed here.
        turn_based = is_turn_based(state.options)
        waiting = state.status == "playing" and not turn_based and \
            not self.presence()[0](state.code)
        if state.status == "playing" and state.game_state is not None and not waiting:
            if not turn_based:
                state.away_due = state.plugin.away_deadlines(state.game_state, table, now)
            dues.append(state.plugin.deadline(state.game_state, table, now))
        if turn_based:  # a seat away for missed turns: the bot plays its turns at once
            state.taken_over = {s.id for s in state.active_seats
                                if state.turns is not None and state.turns.away(s.id)}
        if self.bots is not None:
            if waiting:
                state.taken_over = set()
            elif not turn_based:
                dues.append(self.bots.mark(state, self._presence_table(state), now))
            self.bots.watch(state)
        state.host_handoff = None if turn_based else self.handoff(state, now)
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
        code = state.code
        self._handles[code] = loop.call_later(
            delay, lambda: asyncio.ensure_future(self.fire(code)))

    def cancel(self, code: str) -> None:
        """Disarm room ``code``'s timer, if any."""
        handle = self._handles.pop(code, None)
        if handle:
            handle.cancel()

    def forget(self, code: str) -> None:
        """Disarm and forget room ``code`` (it left memory)."""
        self.cancel(code)
        self._watching.pop(code, None)

    def close(self) -> None:
        """Cancel every timer (shutdown)."""
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
