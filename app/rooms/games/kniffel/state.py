"""A Kniffel-family game in a room, folded from its events (Kniffel, KitKniff, Yatzy).

Rules: docs/rules.md, "Kniffel family"; rule texts 004 (Kniffel) and 002
(KitKniff). Turns go round the table in seat order; a turn is the
engine's ``Turn`` (up to three rolls, holds) and ends by filling one open box.

Columns (rule text 004, "Häufige Hausregeln: Mehrere Spalten": six columns "für sechs Spiele
hintereinander"): each seat has ``columns`` scorecards filled one after the other; a turn fills
a box of the seat's first incomplete column, and the game ends when every column of every
active seat is full. Totals are summed over the columns.

Events (stored in ``game_events``; see ``fold``):

- ``roll``  ``{"dice": [5 faces], "held": [5 bools], "auto": bool}`` - the five dice after
  the roll and which were held during it (held dice keep their faces); with real dice
  (docs/rules.md, "Table mode") an entry ``"entered": true``: the five dice the player has
  after their last throw, replacing any entered before in the turn
- ``hold``  ``{"die": 0..4, "held": bool}`` - the player on turn kept or released one die
- ``score`` ``{"box": id, "column": 0.., "points": int, "auto": bool}`` - the turn's box
- ``leave`` ``{}`` - the seat was taken out of the game (host removed it, or it left)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.engines.kniffel import DICE, Scorecard, Turn
from app.rooms.games.base import Event, next_in_order


@dataclass
class KniffelState:
    """The game so far.

    ``ruleset``: ``kniffel`` | ``kitkniff`` | ``yatzy``; ``house``: the Scorecard keywords
    (``joker``, ``five_alike_full_house``, ``extra_bonus``); ``timer``: seconds per turn (0 off);
    ``order``: seat ids in play order; ``cards``: per seat one Scorecard per column;
    ``current``: the seat on turn (None when over); ``turn``: its dice, holds and rolls;
    ``turns``: turns finished; ``turn_no``: the number of the current turn (1 at the start;
    each scored box or a leave of the player on turn starts the next; what a page's action
    names as its ``turn``); ``turn_started_at``: when the current turn began (None: at the
    game's start); ``auto``: ``(seat, column, box)`` filled by the server; ``last``: per seat
    the ``(column, box)`` filled last; ``roll_auto``: the current turn's dice were rolled by
    the server; ``hints``: the room lets the player on turn ask for hints; ``real_dice``:
    players throw real dice and enter them; ``entries``: how many dice entries were made in
    the game (corrections included: part of the basis); ``cells_cache``: each seat's cell ids on
    the sheet (``view.cell_ids``); ``summary_cache``: the score sheet's
    sums as of ``turns`` (``kniffel.view.sheets``: the cards only change when a box is filled).
    """

    ruleset: str
    house: dict[str, bool]
    columns: int
    timer: int
    order: list[int]
    cards: dict[int, list[Scorecard]]
    current: int | None = None
    turn: Turn = field(default_factory=Turn)
    turns: int = 0
    turn_no: int = 1
    turn_started_at: datetime | None = None
    left: set[int] = field(default_factory=set)
    auto: set[tuple[int, int, str]] = field(default_factory=set)
    last: dict[int, tuple[int, str]] = field(default_factory=dict)
    roll_auto: bool = False
    hints: bool = False
    real_dice: bool = False
    entries: int = 0
    summary_cache: Any = field(default=None, repr=False, compare=False)
    cells_cache: dict[Any, tuple[str, ...]] = field(default_factory=dict, repr=False,
                                                    compare=False)

    @classmethod
    def new(cls, ruleset: str, options: dict[str, Any], seat_ids: Sequence[int]) -> KniffelState:
        """A fresh game of ``ruleset`` for ``seat_ids`` (play order) with the room ``options``
        (see ``KniffelGame.parse_options``); the first seat is on turn."""
        house = {key: bool(options[key])
                 for key in ("joker", "five_alike_full_house", "extra_bonus")}
        columns = int(options["columns"])
        order = list(seat_ids)
        return cls(
            ruleset=ruleset, house=house, columns=columns, timer=int(options["timer"]),
            order=order,
            cards={s: [Scorecard(ruleset, **house) for _ in range(columns)] for s in order},
            current=order[0] if order else None, hints=bool(options.get("hints", False)),
            real_dice=options.get("dice", "screen") == "real",
        )

    @property
    def active(self) -> list[int]:
        """Seats still in the game, in play order."""
        return [s for s in self.order if s not in self.left]

    def column_of(self, seat: int) -> int | None:
        """The column ``seat`` fills now (its first incomplete one), None when all are full."""
        return next((i for i, card in enumerate(self.cards[seat]) if not card.is_complete), None)

    def card(self, seat: int) -> Scorecard | None:
        """The scorecard ``seat`` fills now, None when all its columns are full."""
        column = self.column_of(seat)
        return None if column is None else self.cards[seat][column]

    @property
    def over(self) -> bool:
        """True when nobody is left or every column of every active seat is full."""
        return all(self.column_of(s) is None for s in self.active)

    def total(self, seat: int) -> int:
        """``seat``'s points: the sum of its columns' ``Scorecard.total``."""
        return sum(card.total for card in self.cards[seat])

    def options(self) -> dict[str, int]:
        """Points per open box of the current column for the dice on the table ({} before the
        first roll); jokers included (``Scorecard.options``)."""
        card = self.card(self.current) if self.current is not None else None
        if card is None or not self.turn.rolls:
            return {}
        return card.options(self.turn.dice)


def fold(state: KniffelState, event: Event) -> None:
    """Apply one stored event to ``state`` (events were validated by ``decide``)."""
    payload = event.payload
    if event.type == "roll":
        if payload.get("entered"):  # the dice after the last throw: the turn starts afresh
            state.turn = Turn()
            state.entries += 1
        held = state.turn.held
        state.turn.roll([d for d, keep in zip(payload["dice"], held, strict=True) if not keep])
        state.roll_auto = bool(payload.get("auto"))
    elif event.type == "hold":
        if payload["held"]:
            state.turn.hold(int(payload["die"]))
        else:
            state.turn.release(int(payload["die"]))
    elif event.type == "score":
        seat, column, box = event.seat, int(payload["column"]), payload["box"]
        state.cards[seat][column].fill(box, state.turn.dice)
        state.last[seat] = (column, box)
        if payload.get("auto"):
            state.auto.add((seat, column, box))
        state.turns += 1
        _next_turn(state, seat, event.at)
    elif event.type == "leave":
        state.left.add(event.seat)
        if event.seat == state.current:
            _next_turn(state, event.seat, event.at)


def _next_turn(state: KniffelState, after: int, at: datetime | None) -> None:
    """Pass the turn to the next active seat after ``after`` (in play order) with an open box."""
    done = state.left | {s for s in state.order if state.column_of(s) is None}
    state.current = next_in_order(state.order, after, done)
    state.turn = Turn()
    state.turn_no += 1
    state.roll_auto = False
    state.turn_started_at = at


def rolled(turn: Turn, faces: Sequence[int]) -> list[int]:
    """The five dice after rolling ``faces`` (one per free die, left to right) on ``turn``."""
    new = iter(faces)
    previous = turn.dice or (0,) * DICE
    return [d if keep else next(new) for d, keep in zip(previous, turn.held, strict=True)]
