"""Knister's guided first round (``capabilities.GameGuide``; docs/rules.md, "Guided first
round"): for five rolls, roll, then write the sum where the strong bot (``bot.KnisterBot``)
would, with why, and feedback on where the player wrote the sum before."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rooms.games.capabilities import GuideInput, GuideStep
from app.rooms.games.knister.bot import KnisterBot
from app.rooms.games.knister.state import KnisterState

ROLLS = 5  # rolls of a guided round
DIAGONALS = ({(i, i) for i in range(5)}, {(i, 4 - i) for i in range(5)})


@dataclass(frozen=True)
class CellAdvice:
    """What the guide advised for one Knister roll: where to write the ``sum`` (``cell``,
    row and column 0-based) while the cells ``empty`` were free."""

    sum: int
    cell: tuple[int, int]
    empty: frozenset[tuple[int, int]]


@dataclass(frozen=True)
class Placement:
    """The advice a ``place`` step shows: write ``sum`` into ``cell`` (row, column 1-based);
    ``ways`` (throws of 36 giving the sum); ``row``/``column``: the line's numbers after
    writing; ``diagonal``: the cell lies on a diagonal."""

    sum: int
    cell: tuple[int, int]
    ways: int
    row: tuple[int, ...]
    column: tuple[int, ...]
    diagonal: bool


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


class KnisterGuide:
    """Knister's guided round (``capabilities.GameGuide``)."""

    room_options: dict[str, Any] = {}
    template = "rooms/knister/_guide.html"

    def __init__(self, bot: KnisterBot) -> None:
        self.bot = bot

    def wants_hint(self, state: KnisterState, seat_id: int) -> bool:
        """Never: the guide's advice is the strong bot's."""
        return False

    def step(self, given: GuideInput) -> tuple[GuideStep, tuple[int, Any] | None]:
        """The step of ``given.seat``: ``roll`` while the table waits for a roll, ``place``
        with the strong bot's cell once rolled, ``done`` after five rolls placed (the game
        goes on unguided). Remembers the ``CellAdvice`` of a ``place`` step under its roll;
        the feedback of a ``roll`` or ``done`` step compares the last placement with it."""
        game: KnisterState = given.state
        rolled = len(game.rolls)
        if (rolled > ROLLS or rolled == ROLLS and not game.roll_pending
                or not given.playing):  # after the round, the game goes on unguided
            return GuideStep("done", ROLLS, ROLLS, feedback=self._feedback(given)), None
        if game.roll_pending:
            move = self.bot.move(game, given.seat, "strong", given.bot_key, given.last_seq,
                                 given.options, given.strategies)
            if move is not None and move["type"] == "place":
                return self._place(game, given.seat, tuple(move["cell"]))
        # not rolled yet, or placed already (another page): roll next
        return GuideStep("roll", rolled + 1, ROLLS, feedback=self._feedback(given)), None

    def _place(self, game: KnisterState, seat: int,
               cell: tuple[int, ...]) -> tuple[GuideStep, tuple[int, Any]]:
        r, c = cell
        value = game.current_sum
        assert value is not None
        grid: list[list[int | None]] = [list(row) for row in game.sheets[seat].grid]
        empty = frozenset((i, j) for i in range(5) for j in range(5) if grid[i][j] is None)
        grid[r][c] = value
        column = [grid[i][c] for i in range(5)]
        advice = Placement(
            value, (r + 1, c + 1), 6 - abs(7 - value),
            tuple(v for v in grid[r] if v is not None),
            tuple(v for v in column if v is not None),
            any((r, c) in d for d in DIAGONALS))
        rolled = len(game.rolls)
        return (GuideStep("place", rolled, ROLLS, advice=advice),
                (rolled, CellAdvice(value, (r, c), empty)))

    def _feedback(self, given: GuideInput) -> CellFeedback | None:
        """Feedback on the last roll's placement (rolls 1..5)."""
        rolled = len(given.state.rolls)
        if not 1 <= rolled <= ROLLS:
            return None
        return cell_feedback(given.state, given.seat, given.recall(rolled))
