"""A game of high throw folded from its events (rules: the package docstring).

Events stored per game:

- ``roll``  payload ``{"dice": [faces], "auto": bool}`` (seat = thrower; auto when the server
  threw for an away thrower)
- ``leave`` payload ``{}`` (seat taken out of the game by the host or by leaving)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from app.rooms.games.base import Event


@dataclass
class ThrowState:
    """A game of high throw.

    ``dice``: dice per throw (1 or 2); ``order``: seat ids in throwing order (the start
    player first); ``throws``: each seat's faces once it threw; ``auto``: seats the server
    threw for; ``left``: seats taken out of the game; ``ready_at``: when the current thrower's
    turn began (the latest event; None before the first); ``events``: events folded so far.
    """

    dice: int
    order: list[int]
    throws: dict[int, tuple[int, ...]] = field(default_factory=dict)
    auto: set[int] = field(default_factory=set)
    left: set[int] = field(default_factory=set)
    ready_at: datetime | None = None
    events: int = 0

    @property
    def active(self) -> list[int]:
        """Seats still in the game, in throwing order."""
        return [s for s in self.order if s not in self.left]

    @property
    def roller(self) -> int | None:
        """The seat that throws next: the first seat still in the game that has not thrown;
        None when the game is over."""
        return next((s for s in self.active if s not in self.throws), None)

    @property
    def over(self) -> bool:
        """True when every seat still in the game has thrown (or nobody is left)."""
        return self.roller is None

    def total(self, seat: int) -> int:
        """``seat``'s throw: the sum of its faces (0 before it threw)."""
        return sum(self.throws.get(seat, ()))


def fold(state: ThrowState, event: Event) -> None:
    """Fold one stored ``roll`` or ``leave`` event into ``state`` (checked before storing)."""
    state.events += 1
    if event.type == "roll":
        state.throws[event.seat] = tuple(int(face) for face in event.payload["dice"])
        if event.payload.get("auto"):
            state.auto.add(event.seat)
    elif event.type == "leave":
        state.left.add(event.seat)
    state.ready_at = event.at
