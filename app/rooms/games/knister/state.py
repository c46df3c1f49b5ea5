"""A Knister game folded from its events: the state the plug-in decides on and views show.

Rules: docs/rules.md, "Knister".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.engines.knister import KnisterRules, KnisterSheet
from app.rooms.games.base import Event, next_in_order
from app.rooms.games.real_dice import split_sum

ROLLS_PER_GAME = 25  # docs/rules.md, Knister: 25 rolls fill every grid


@dataclass
class KnisterState:
    """A Knister game folded from its events.

    ``order``: seat ids in table order starting with the start player; ``rolls``: sums so far;
    ``placed``: seats that placed the current roll; ``auto_cells``: (seat, cell) placed by the
    server; ``rolled_at``: time of the latest roll (for the placement timer); ``folds``: events
    folded so far (what a view built for this state depends on); ``view_cache``: the sheets
    as every viewer sees them, for the latest state (see ``knister.view.view``).
    """

    rules: KnisterRules
    timer: int
    order: list[int]
    sheets: dict[int, KnisterSheet]
    rolls: list[tuple[int, int]] = field(default_factory=list)
    roll_rollers: list[int] = field(default_factory=list)
    placed: set[int] = field(default_factory=set)
    auto_cells: set[tuple[int, tuple[int, int]]] = field(default_factory=set)
    auto_rolls: set[int] = field(default_factory=set)
    left: set[int] = field(default_factory=set)
    rolled_at: datetime | None = None
    ready_at: datetime | None = None
    real_dice: bool = False
    auto_roll: bool = False  # a turn-based room: the next roll comes by itself
    entries: int = 0
    last_entered: bool = False
    sum_only: set[int] = field(default_factory=set)
    folds: int = 0
    view_cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def active(self) -> list[int]:
        """Seats still in the game, in table order."""
        return [s for s in self.order if s not in self.left]

    @property
    def roll_pending(self) -> bool:
        """True while some active seat has not placed the latest roll."""
        return bool(self.rolls) and any(s not in self.placed for s in self.active)

    @property
    def roller(self) -> int | None:
        """The seat whose turn it is to roll next: the next seat still in the game after the
        last roller, in table order (the start player for the first roll), whoever left
        since (docs/rules.md, Knister: "the roll passes round the table"). None when the
        game is over or nobody is left."""
        if not self.order or len(self.rolls) >= ROLLS_PER_GAME:
            return None
        if not self.roll_rollers:
            return next_in_order(self.order, self.order[-1], self.left)
        return next_in_order(self.order, self.roll_rollers[-1], self.left)

    @property
    def current_sum(self) -> int | None:
        """The sum every seat must place now, or None."""
        return sum(self.rolls[-1]) if self.roll_pending else None


def fold(state: KnisterState, event: Event) -> None:
    """Fold one stored ``roll``, ``place`` or ``leave`` event into ``state`` (events were
    checked before they were stored; docs/rules.md, "Knister")."""
    state.folds += 1
    if event.type == "roll":
        fold_roll(state, event)
    elif event.type == "place":
        r, c = event.payload["cell"]
        state.sheets[event.seat].place((r, c), event.payload["value"])
        state.placed.add(event.seat)
        if event.payload.get("auto"):
            state.auto_cells.add((event.seat, (r, c)))
        if not state.roll_pending:
            state.ready_at = event.at
    elif event.type == "leave":
        state.left.add(event.seat)
        if state.rolls and not state.roll_pending:
            state.ready_at = event.at


def fold_roll(state: KnisterState, event: Event) -> None:
    """Fold a stored ``roll`` event (rolled by the server, or entered) into ``state``."""
    payload = event.payload
    if "dice" in payload:
        pair = (int(payload["dice"][0]), int(payload["dice"][1]))
    else:
        pair = split_sum(int(payload["sum"]))
    if payload.get("corrects") and state.rolls:
        state.rolls[-1] = pair
    else:
        state.rolls.append(pair)
        state.roll_rollers.append(event.seat)
    index = len(state.rolls) - 1
    if payload.get("auto"):
        state.auto_rolls.add(index)
    if "dice" in payload:
        state.sum_only.discard(index)
    else:
        state.sum_only.add(index)
    state.last_entered = bool(payload.get("entered"))
    state.entries += bool(payload.get("entered"))
    state.placed = set()
    state.rolled_at = event.at
