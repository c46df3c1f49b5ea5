"""Which seats a bot plays, and the "bot takes over" room option (docs/rules.md, "Bots").

A seat is played by a bot when its player is a bot (``identity``), or, with the room option
``bot_takeover`` on (the default), when its person has been away (no open socket) for the
takeover grace during a game: a strong bot then plays for them until they come back. Their
moves made by the bot are marked ``auto`` and ``bot`` in the event log. While the option is on,
the plug-in's own automatic moves for away players never happen (the table it is shown counts
every seat as present); the turn timer still runs. With the option off, today's automatic
moves stay (``on_timer``). Bot seats always count as present.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from app.rooms.bots.identity import bot_level
from app.rooms.games.base import Event, Presence, parse_switch
from app.rooms.state import RoomState

OPTION = "bot_takeover"
TAKEOVER_GRACE = timedelta(seconds=30)


class Controller(NamedTuple):
    """Who moves a seat: the seat's ``player_id`` (the bot's or the away person's), the
    bot's ``level``, and ``takeover`` (True: a bot plays for an away person)."""

    player_id: str
    level: str
    takeover: bool


def takeover_on(options: dict[str, Any]) -> bool:
    """Whether the room's option "bot takes over" is on (absent: on, the default)."""
    return bool(options.get(OPTION, True))


def parse_bot_options(form: dict[str, Any]) -> dict[str, bool]:
    """``{"bot_takeover": bool}`` from the lobby form (``parse_switch``: absent is on).
    Raises ``OptionError`` for another value."""
    return {OPTION: parse_switch(form, OPTION)}


def bot_seats(state: RoomState) -> set[int]:
    """Active seats whose player is a bot."""
    return {s.id for s in state.active_seats if bot_level(s.player_id)}


class BotControl:
    """Marks the seats bots play in a room's state, and adjusts what its plug-in sees.

    ``grace``: how long a person may be away during a game before a bot plays for them.
    """

    def __init__(self, grace: timedelta = TAKEOVER_GRACE) -> None:
        self.grace = grace

    def _takeover(self, state: RoomState) -> bool:
        return state.status == "playing" and state.game is not None and \
            takeover_on(state.options)

    def adjust(self, state: RoomState, table: Presence) -> Presence:
        """The table the plug-in decides its automatic moves on: bot seats are present, and
        with takeover on every seat is (bots play for the away ones instead)."""
        if self._takeover(state):
            return replace(table, online=frozenset(table.seat_ids))
        return replace(table, online=table.online | bot_seats(state))

    def mark(self, state: RoomState, table: Presence, now: datetime) -> datetime | None:
        """Note in ``state`` the seats taken over now (``taken_over``) and, as countdowns in
        ``away_due``, when the others away will be; returns the next such moment or None.
        ``table``: as ``RoomTimers`` builds it (real presence)."""
        state.taken_over = set()
        if not self._takeover(state) or state.game is None:
            return None
        bots = bot_seats(state)
        started = state.game.started_at
        pending: dict[int, datetime] = {}
        for seat in state.active_seats:
            if seat.id in bots or seat.id in table.online or seat.id not in table.seat_ids:
                continue
            since = [t for t in (table.away_since.get(seat.id) or table.watching_since, started)
                     if t is not None]
            due = (max(since) if since else now) + self.grace
            if due <= now:
                state.taken_over.add(seat.id)
            else:
                pending[seat.id] = due
        state.away_due.update(pending)
        return min(pending.values(), default=None)


def controllers(state: RoomState) -> dict[int, Controller]:
    """Seat id -> who moves it, for every seat of the running game a bot plays now."""
    if state.game is None or state.status != "playing":
        return {}
    found = {}
    for seat in state.active_seats:
        if seat.id not in state.game.seat_ids:
            continue
        level = bot_level(seat.player_id)
        if level is not None:
            found[seat.id] = Controller(seat.player_id, level, False)
        elif seat.id in state.taken_over:
            found[seat.id] = Controller(seat.player_id, "strong", True)
    return found


def as_takeover(events: list[Event]) -> list[Event]:
    """``events`` a bot made for an away person, marked ``auto`` and ``bot`` (roll, place and
    score events carry ``auto``; holds carry no mark)."""
    return [Event(e.type, {**e.payload, "auto": True, "bot": True}, e.seat_id, e.at)
            if "auto" in e.payload else e for e in events]
