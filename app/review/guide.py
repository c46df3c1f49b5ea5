"""A first game that teaches (docs/rules.md, "Guided first round"): a solo room with the
``guide`` option shows, at each step of its first rolls or turns, what the strong bot would do
and why. The bot's choice is the bots' own (``app.rooms.bots.moves.next_move`` for Knister,
the optimal strategy's hint, ``app.review.service.Reviews.hint``, for the Kniffel family);
this module only names the step and gathers what its explanation shows.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

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
    feedback: Feedback | CellFeedback | None = None


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


@dataclass(frozen=True)
class CellAdvice:
    """What the guide advised for one Knister roll: where to write the ``sum`` (``cell``,
    row and column 0-based) while the cells ``empty`` were free."""

    sum: int
    cell: tuple[int, int]
    empty: frozenset[tuple[int, int]]


@dataclass(frozen=True)
class CellFeedback:
    """Where the player wrote the last Knister ``sum`` (``chosen``) and where the strong bot
    would have (``best``), both (row, column) 1-based."""

    sum: int
    chosen: tuple[int, int]
    best: tuple[int, int]

    @property
    def same(self) -> bool:
        """True when the player wrote the sum where the bot would have."""
        return self.chosen == self.best


def cell_feedback(state: KnisterState, seat: int,
                  advice: CellAdvice | None) -> CellFeedback | None:
    """The ``CellFeedback`` on ``seat``'s placement of the roll the guide gave ``advice``
    for; None without advice, or when the sheet does not hold exactly that one sum more
    than the guide saw (another page placed, or the advice was not for this roll)."""
    if advice is None or seat not in state.sheets:
        return None
    grid = state.sheets[seat].grid
    filled = [(r, c) for r, c in advice.empty if grid[r][c] is not None]
    if len(filled) != 1 or grid[filled[0][0]][filled[0][1]] != advice.sum:
        return None
    (r, c), (br, bc) = filled[0], advice.cell
    return CellFeedback(advice.sum, (r + 1, c + 1), (br + 1, bc + 1))


Shown = TypeVar("Shown")


class ShownAdvice(Generic[Shown]):
    """The last advice the guide showed each seat at each step, per room (``(code, seat,
    step)`` -> advice: a Kniffel ``Hint`` per turn, a Knister ``CellAdvice`` per roll; the
    newest ``size`` kept, in this process): what the next step's feedback compares the
    player's move with."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._shown: OrderedDict[tuple[str, int, int], Shown] = OrderedDict()

    def remember(self, code: str, seat: int, step: int, advice: Shown) -> None:
        """Keep ``advice`` as the one shown to ``seat`` at ``step`` of room ``code``."""
        key = (code, seat, step)
        self._shown[key] = advice
        self._shown.move_to_end(key)
        while len(self._shown) > self.size:
            self._shown.popitem(last=False)

    def recall(self, code: str, seat: int, step: int) -> Shown | None:
        """The advice last shown to ``seat`` at ``step`` of room ``code``, if kept."""
        return self._shown.get((code, seat, step))


def knister_step(state: RoomState, seat: int, strategies: Strategies) -> GuideStep:
    """The guided Knister step of ``seat`` in ``state`` (docs/rules.md, "Guided first
    round"): roll, then write the sum where the strong bot would, five times."""
    game: KnisterState = state.game_state
    rolled = len(game.rolls)
    if (rolled > KNISTER_ROLLS or rolled == KNISTER_ROLLS and not game.roll_pending
            or state.status != "playing"):  # after the round, the game goes on unguided
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
