"""Knister timers: when the server acts in a running game, and what it does then.

Rules: docs/rules.md, "Knister" and "Away players and timers": with the placement timer on,
the server places for every seat that has not placed when it runs out; an away roller is
rolled for after ``AWAY_ROLLER_GRACE``, an away placer placed for after ``AWAY_PLACER_GRACE``
(``auto_cell``); every automatic event is marked ``auto``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from app.engines.knister import auto_cell
from app.rooms.games.base import Dice, Event, Presence, next_in_order
from app.rooms.games.knister.state import ROLLS_PER_GAME, KnisterState
from app.rooms.games.knister.view import is_over

AWAY_ROLLER_GRACE = timedelta(seconds=15)
AWAY_PLACER_GRACE = timedelta(seconds=30)


def deadline(state: KnisterState, table: Presence, now: datetime) -> datetime | None:
    """Placement deadline (timer on) or the away roller's grace end, else None; in a
    turn-based room (``auto_roll``) a roll not yet made is due at once."""
    if is_over(state):
        return None
    if state.auto_roll and not state.roll_pending and not state.real_dice:
        return now
    dues = list(away_deadlines(state, table, now).values())
    if state.roll_pending and state.timer and state.rolled_at:
        dues.append(state.rolled_at + timedelta(seconds=state.timer))
    return min(dues) if dues else None


def away_deadlines(state: KnisterState, table: Presence, now: datetime) -> dict[int, datetime]:
    """``{seat: when the server acts for it}`` for every away seat (no open socket) the
    table waits for: each away placer of the current roll (``AWAY_PLACER_GRACE``), or
    the away roller (``AWAY_ROLLER_GRACE``); none with real dice (docs/rules.md, "Table
    mode"). Shown as a countdown on every screen."""
    if is_over(state) or state.real_dice:
        return {}
    if state.roll_pending:
        return {seat: _away_due(state, table, seat, now, AWAY_PLACER_GRACE)
                for seat in state.active
                if seat not in state.placed and seat not in table.online}
    roller = state.roller
    if roller is not None and roller not in table.online:
        return {roller: _away_due(state, table, roller, now, AWAY_ROLLER_GRACE)}
    return {}


def on_timer(state: KnisterState, table: Presence, now: datetime, dice: Dice) -> list[Event]:
    """Automatic placements after the timer, or a roll for an away roller."""
    due = deadline(state, table, now)
    if due is None or due > now:
        return []
    if state.roll_pending:
        value = state.current_sum
        assert value is not None
        timer_due = (state.timer and state.rolled_at and
                     state.rolled_at + timedelta(seconds=state.timer) <= now)
        return [
            Event("place", {"cell": list(auto_cell(state.sheets[s], value)),
                            "value": value, "auto": True}, s)
            for s in state.active
            if s not in state.placed and (
                timer_due or (s not in table.online and
                              _away_due(state, table, s, now, AWAY_PLACER_GRACE) <= now))
        ]
    return [Event("roll", {"dice": dice(2), "auto": True}, state.roller)]


def next_roll_after(state: KnisterState, seat: int, dice: Dice) -> list[Event]:
    """In a turn-based room (``auto_roll``): the next roll, made by the server for the next
    roller, when ``seat``'s placement (not yet folded) is the last one the current roll
    waits for and the game goes on; else nothing (docs/rules.md, "Turn-based rooms")."""
    if not state.auto_roll or state.real_dice or not state.roll_pending:
        return []
    if {*state.placed, seat} != set(state.active):
        return []
    if len(state.rolls) >= ROLLS_PER_GAME:
        return []
    roller = next_in_order(state.order, state.roll_rollers[-1], state.left)
    return [Event("roll", {"dice": dice(2), "auto": True}, roller)]


def _away_due(state: KnisterState, table: Presence, seat: int, now: datetime,
              grace: timedelta) -> datetime:
    """When the server acts for away ``seat``: ``grace`` after the latest of: it went away,
    the table became ready for it (the roll, the last placement, or the game's start), and
    this process began watching the room (so players get time to reconnect after a
    restart)."""
    ready = state.rolled_at if state.roll_pending else (state.ready_at or table.started_at)
    moments = [m for m in (ready, table.away_since.get(seat), table.watching_since) if m]
    return (max(moments) if moments else now) + grace
