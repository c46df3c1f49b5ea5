"""A Kniffel-family seat's score sheet outside the room (``capabilities.GameSheet``): each
box's translated name and the points written in it, read from the stored ``score`` events
(``state.py``); the daily challenge's preview image shows it once the day is over."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engines.kniffel import RULESETS, UPPER_BOXES
from app.rooms.games.capabilities import SheetLine
from app.rooms.games.kniffel.labels import box_label


class KniffelSheet:
    """The sheet of one rule set (``kniffel``, ``kitkniff``, ``yatzy``): two sections, the
    upper boxes (ones to sixes) and the lower ones, in the card's order."""

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.boxes = RULESETS[ruleset].boxes

    def lines(self, events: Sequence[Any], seat_id: int) -> tuple[tuple[SheetLine, ...], ...]:
        """``seat_id``'s boxes as ``(name, points)``, points None for a box never filled and
        summed over the seat's columns when it played several (``GameSheet.lines``)."""
        points: dict[str, int] = {}
        for event in events:
            if event.type == "score" and event.seat_id == seat_id:
                box = str(event.payload["box"])
                points[box] = points.get(box, 0) + int(event.payload["points"])
        upper = tuple(box for box in self.boxes if box in UPPER_BOXES)
        lower = tuple(box for box in self.boxes if box not in UPPER_BOXES)
        return tuple(tuple((box_label(box, self.ruleset), points.get(box)) for box in section)
                     for section in (upper, lower))
