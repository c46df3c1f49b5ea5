"""A first game that teaches (docs/rules.md, "Guided first round"): a solo room with the
``guide`` option shows, at each step of its first rolls or turns, what the strong bot would do
and why. The bot's choice is the bots' own (``app.rooms.bots.moves.next_move`` for Knister,
the optimal strategy's hint, ``app.review.service.Reviews.hint``, for the Kniffel family);
this module only names the step and gathers what its explanation shows.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from app.rooms.bots.moves import Strategies, next_move
from app.rooms.games.kniffel.hints import Hint
from app.rooms.games.kniffel.state import KniffelState
from app.rooms.games.knister.state import KnisterState
from app.rooms.state import RoomState

KNISTER_ROLLS = 5  # rolls of a guided Knister round
KNIFFEL_TURNS = 2  # turns of a guided Kniffel-family round
DIAGONALS = ({(i, i) for i in range(5)}, {(i, 4 - i) for i in range(5)})


@dataclass(frozen=True)
class GuideStep:
    """One step of a guided round: ``game`` (``knister`` or ``kniffel``), ``phase``
    (``roll``, ``place``, ``keep``, ``box``, ``wait`` while the bot's table is being built,
    ``done`` after the round), step ``number`` of ``total``, and what its text shows:
    Knister ``sum``, ``cell`` (row, column, 1-based), ``ways`` (throws of 36 giving the sum),
    ``row``/``column`` (the line's numbers after writing), ``diagonal``; Kniffel ``hint``."""

    game: str
    phase: str
    number: int
    total: int
    sum: int | None = None
    cell: tuple[int, int] | None = None
    ways: int = 0
    row: tuple[int, ...] = ()
    column: tuple[int, ...] = ()
    diagonal: bool = False
    hint: Hint | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    feedback: Feedback | None = None


@dataclass(frozen=True)
class Feedback:
    """How the player's box of the turn before compares with the strong bot's: ``chosen`` box
    (``points`` written), the bot's ``best`` box, and ``cost``: the expected final total the
    player's choice gives away against the bot's (0 when the same, points >= 0); the game's
    ``ruleset`` (for the boxes' names)."""

    chosen: str
    points: int
    best: str
    cost: float
    ruleset: str

    @property
    def same(self) -> bool:
        """True when the player wrote the box the bot would have."""
        return self.chosen == self.best


def box_feedback(state: KniffelState, seat: int, hint: Hint | None) -> Feedback | None:
    """The ``Feedback`` on ``seat``'s last written box, given the ``hint`` shown for the
    dice of its turn (the last one the guide showed); None without a hint, without a box
    written, or when the box's points are not those the hint was for (the player wrote after
    a roll whose hint the page had not fetched)."""
    if hint is None or seat not in state.last:
        return None
    column, box = state.last[seat]
    points = state.cards[seat][column].boxes.get(box)
    offered = {name: (now, cost) for name, now, _total, cost in hint.boxes}
    if points is None or box not in offered or offered[box][0] != points:
        return None
    return Feedback(box, points, hint.box, max(0.0, offered[box][1]), state.ruleset)


class ShownHints:
    """The last hint the guide showed each seat in each turn, per room (``(code, seat,
    turn_no)`` -> ``Hint``; the newest ``size`` kept, in this process): what the next turn's
    feedback compares the written box with."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._hints: OrderedDict[tuple[str, int, int], Hint] = OrderedDict()

    def remember(self, code: str, seat: int, turn_no: int, hint: Hint) -> None:
        """Keep ``hint`` as the one shown to ``seat`` in turn ``turn_no`` of room ``code``."""
        key = (code, seat, turn_no)
        self._hints[key] = hint
        self._hints.move_to_end(key)
        while len(self._hints) > self.size:
            self._hints.popitem(last=False)

    def recall(self, code: str, seat: int, turn_no: int) -> Hint | None:
        """The hint last shown to ``seat`` in turn ``turn_no`` of room ``code``, if kept."""
        return self._hints.get((code, seat, turn_no))


def knister_step(state: RoomState, seat: int, strategies: Strategies) -> GuideStep:
    """The guided Knister step of ``seat`` in ``state`` (docs/rules.md, "Guided first
    round"): roll, then write the sum where the strong bot would, five times."""
    game: KnisterState = state.game_state
    rolled = len(game.rolls)
    if rolled >= KNISTER_ROLLS and not game.roll_pending or state.status != "playing":
        return GuideStep("knister", "done", KNISTER_ROLLS, KNISTER_ROLLS)
    if not game.roll_pending:
        return GuideStep("knister", "roll", rolled + 1, KNISTER_ROLLS)
    move = next_move(state, seat, "strong", strategies)
    if move is None or move[1]["type"] != "place":  # placed already (another page)
        return GuideStep("knister", "roll", rolled + 1, KNISTER_ROLLS)
    r, c = move[1]["cell"]
    value = game.current_sum
    assert value is not None
    grid = [list(row) for row in game.sheets[seat].grid]
    grid[r][c] = value
    return GuideStep(
        "knister", "place", rolled, KNISTER_ROLLS, sum=value, cell=(r + 1, c + 1),
        ways=6 - abs(7 - value),
        row=tuple(v for v in grid[r] if v is not None),
        column=tuple(grid[i][c] for i in range(5) if grid[i][c] is not None),
        diagonal=any((r, c) in d for d in DIAGONALS))


def kniffel_step(state: RoomState, seat: int, hint: Hint | None) -> GuideStep:
    """The guided Kniffel-family step of ``seat`` in ``state``: roll, then keep and write as
    the optimal strategy would (``hint``: its advice for the dice on the table, None while
    its table is being built), for two turns."""
    game: KniffelState = state.game_state
    turns = game.turn_no - 1
    if turns >= KNIFFEL_TURNS or game.over or state.status != "playing":
        return GuideStep("kniffel", "done", KNIFFEL_TURNS, KNIFFEL_TURNS)
    number = game.turn_no
    if game.current != seat or not game.turn.rolls:
        return GuideStep("kniffel", "roll", number, KNIFFEL_TURNS)
    if hint is None:
        return GuideStep("kniffel", "wait", number, KNIFFEL_TURNS)
    phase = "keep" if hint.keep is not None and len(hint.keep) < 5 else "box"
    return GuideStep("kniffel", phase, number, KNIFFEL_TURNS, hint=hint,
                     extra={"rolls": game.turn.rolls, "ruleset": game.ruleset})
