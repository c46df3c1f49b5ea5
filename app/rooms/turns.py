"""Who a turn-based room waits for, since when, and until when (docs/rules.md, "Turn-based
rooms"). Pure: no database, no clock of its own.

A seat the game waits for (its plug-in's ``awaiting``) has a ``Wait``: ``since`` it began
(the commit that made the seat awaited in this turn: the plug-in's ``turn_key`` names the
turn) and its deadline ``due`` (``since`` + the room's turn deadline; at once for a seat
marked away). A commit that changes nothing of it (a roll within a turn) stores nothing. When the
deadline passes a bot plays that turn, which counts as missed; three missed in a row mark
the seat away (``AWAY_AFTER``) until its player is back (their own action, or opening the
room). Stored as ``rooms.turns`` (JSON) with the earliest deadline in ``rooms.turn_due_at``
and the next push to consider in ``rooms.remind_at`` (``notice_at``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from app.clock import as_utc

AWAY_AFTER = 3
"""Turns missed in a row after which a seat is away: the bot plays its turns at once."""

REMIND_LEAD = timedelta(hours=3)
"""How long before a deadline its reminder goes (a quarter of a shorter deadline)."""

TELL_WINDOW = timedelta(minutes=10)
"""A wait this recent may still need its "your turn" push: the scheduler looks again."""


@dataclass(frozen=True)
class Wait:
    """One seat's turn: ``since`` it began and its deadline ``due`` (aware UTC)."""

    since: datetime
    due: datetime


@dataclass
class Turns:
    """A turn-based room's waits (seat id -> ``Wait``), each seat's turns missed in a row
    (seat id -> count; absent: 0) and the ``turn`` they belong to (the plug-in's
    ``turn_key``)."""

    waits: dict[int, Wait] = field(default_factory=dict)
    missed: dict[int, int] = field(default_factory=dict)
    turn: int = 0

    def away(self, seat: int) -> bool:
        """Whether ``seat`` missed ``AWAY_AFTER`` turns in a row (the bot plays for it)."""
        return self.missed.get(seat, 0) >= AWAY_AFTER

    def due_at(self) -> datetime | None:
        """The earliest deadline, or None when nobody is waited for."""
        return min((w.due for w in self.waits.values()), default=None)

    def notice_at(self, hours: int, now: datetime) -> datetime | None:
        """When the scheduler should next consider a push: a wait that began within
        ``TELL_WINDOW`` of ``now`` (its "your turn" push), else the earliest reminder
        (``reminder_at``) of a seat not away; None when there is none."""
        moments = []
        for seat, wait in self.waits.items():
            if wait.since > now - TELL_WINDOW:
                moments.append(wait.since)
            elif not self.away(seat):
                moments.append(reminder_at(wait, hours))
        return min(moments, default=None)

    def to_json(self) -> dict[str, Any]:
        """The stored form: ``{"waits": {"<seat>": {"since": iso, "due": iso}}, "missed":
        {"<seat>": n}}`` (ISO 8601 UTC)."""
        return {"waits": {str(s): {"since": w.since.isoformat(), "due": w.due.isoformat()}
                          for s, w in sorted(self.waits.items())},
                "missed": {str(s): n for s, n in sorted(self.missed.items()) if n},
                "turn": self.turn}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Turns:
        """The value ``to_json`` stored (None or {}: nobody waited for)."""
        data = data or {}
        waits = {int(s): Wait(as_utc(datetime.fromisoformat(w["since"])),
                              as_utc(datetime.fromisoformat(w["due"])))
                 for s, w in (data.get("waits") or {}).items()}
        return cls(waits, {int(s): int(n) for s, n in (data.get("missed") or {}).items()},
                   int(data.get("turn") or 0))


def reminder_at(wait: Wait, hours: int) -> datetime:
    """When the reminder for ``wait`` goes: ``REMIND_LEAD`` before its deadline, or a
    quarter of the deadline before it when ``hours`` is shorter than 4 times the lead."""
    lead = min(REMIND_LEAD, timedelta(hours=hours) / 4)
    return wait.due - lead


def advance(before: Turns, awaited: Collection[int], turn: int, now: datetime, hours: int,
            acted: int | None = None, missed: int | None = None) -> Turns:
    """The room's turns after a commit at ``now``: ``awaited`` are the seats the game waits
    for after it (the plug-in's ``awaiting``) in turn ``turn`` (its ``turn_key``); ``acted``:
    the seat whose own player acted in it (its missed count starts again); ``missed``: the
    seat a bot played for because its deadline had passed (its count goes up once, when the
    commit ends its wait). ``hours``: the room's turn deadline.

    Within the same turn a seat still awaited keeps its wait; in a new turn, or when newly
    awaited, a seat waits from ``now``, until ``now`` + ``hours`` (or ``now`` when it is
    away)."""
    counts = {seat: n for seat, n in before.missed.items() if n}  # as stored: no zeros
    if acted is not None:
        counts.pop(acted, None)
    same_turn = turn == before.turn
    ended = missed is not None and missed in before.waits and (
        missed not in awaited or not same_turn)
    if ended and missed is not None:
        counts[missed] = counts.get(missed, 0) + 1
    turns = Turns({}, counts, turn)
    for seat in awaited:
        kept = before.waits.get(seat) if same_turn else None
        if kept is not None:
            turns.waits[seat] = kept
        else:
            due = now if turns.away(seat) else now + timedelta(hours=hours)
            turns.waits[seat] = Wait(now, due)
    return turns


def back(before: Turns, seat: int, now: datetime, hours: int) -> Turns:
    """``before`` once ``seat``'s player is back (opened the room): not away any more, and a
    wait it has runs a full deadline from ``now``."""
    counts = {s: n for s, n in before.missed.items() if s != seat}
    waits = dict(before.waits)
    if seat in waits:
        waits[seat] = Wait(now, now + timedelta(hours=hours))
    return Turns(waits, counts, before.turn)
