"""What a group's table counts beyond points, read from a game's stored events
(docs/rules.md, "Groups"): Kniffels (Yatzys) thrown in the Kniffel family.

A Kniffel thrown is a turn whose dice showed five of a kind when the player filled a box
(whatever box they chose). The events are the Kniffel family's (``roll`` with the five
``dice`` after it, ``score`` by the seat on turn; app/rooms/games/kniffel/state.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from app.rooms.games.base import Event

FIVE_ALIKE_KINDS = ("kniffel", "kitkniff", "yatzy")


def kniffels(kind: str, events: Iterable[Event]) -> dict[int, int]:
    """Seat id -> Kniffels thrown in one game of ``kind`` (empty for other kinds)."""
    if kind not in FIVE_ALIKE_KINDS:
        return {}
    counts: dict[int, int] = {}
    dice: list[int] = []
    for event in events:
        if event.type == "roll":
            dice = list(event.payload.get("dice") or [])
        elif event.type == "score" and event.seat_id is not None:
            if len(dice) == 5 and len(set(dice)) == 1:
                counts[event.seat_id] = counts.get(event.seat_id, 0) + 1
            dice = []
    return counts
