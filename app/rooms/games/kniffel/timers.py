"""Kniffel-family timers: when the server finishes a turn, and how.

Rules: docs/rules.md, "Kniffel family" and "Away players and timers": with the turn timer on
(60 or 120 s) the server finishes a turn that ran out; a player on turn who is away (no open
socket) for ``AWAY_GRACE`` has their turn finished too, so the table never hangs. "Finished"
means: roll once if the player never rolled, then fill ``auto_box`` with the dice on the
table; both events are marked ``auto``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from app.engines.kniffel import DICE, auto_box
from app.rooms.games.base import Dice, Event, Presence
from app.rooms.games.kniffel.state import KniffelState

AWAY_GRACE = timedelta(seconds=30)


def deadline(state: KniffelState, table: Presence, now: datetime) -> datetime | None:
    """When the current turn must be finished for its player: the turn timer's end, or
    ``AWAY_GRACE`` after the player on turn went away (whichever is first); else None."""
    if state.over or state.current is None:
        return None
    started = state.turn_started_at or table.started_at
    due = list(away_deadlines(state, table, now).values())
    if state.timer and started is not None:
        due.append(started + timedelta(seconds=state.timer))
    return min(due) if due else None


def away_deadlines(state: KniffelState, table: Presence, now: datetime) -> dict[int, datetime]:
    """``{seat: when the server finishes its turn}`` for the player on turn while away
    (no open socket): ``AWAY_GRACE`` after the later of the turn's start and their going
    away; empty otherwise (always with real dice: docs/rules.md, "Table mode"). Shown as a
    countdown on every screen."""
    seat = state.current
    if state.over or seat is None or seat in table.online or state.real_dice:
        return {}
    started = state.turn_started_at or table.started_at
    away = table.away_since.get(seat) or table.watching_since
    since = [t for t in (started, away) if t is not None]
    return {seat: (max(since) if since else now) + AWAY_GRACE}


def on_timer(state: KniffelState, table: Presence, now: datetime, dice: Dice) -> list[Event]:
    """The automatic end of the current turn when it is due: a ``roll`` if the player never
    rolled, then a ``score`` in ``auto_box`` (both ``auto``); empty when nothing is due."""
    due = deadline(state, table, now)
    if due is None or due > now:
        return []
    seat = state.current
    assert seat is not None
    events = []
    faces = list(state.turn.dice)
    if not state.turn.rolls:
        faces = list(dice(DICE))
        events.append(Event("roll", {"dice": faces, "held": [False] * DICE, "auto": True},
                            seat))
    column = state.column_of(seat)
    assert column is not None  # the player on turn has an open column
    card = state.cards[seat][column]
    box = auto_box(card, faces)
    events.append(Event("score", {"box": box, "column": column,
                                  "points": card.options(faces)[box], "auto": True}, seat))
    return events
