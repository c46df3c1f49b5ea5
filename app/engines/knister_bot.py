"""Knister bot: where to write the rolled sum (docs/rules.md, "Knister").

The bot judges a sheet by the sum over its 12 lines of a learned line value (knister_values:
expected final points of a line given its numbers and the sheet's empty cells; diagonals count
double, as in the score). Levels:

- "strong": a two-roll look-ahead (expectimax). A one-roll look-ahead (lookahead_values: write
  the sum into a cell, then average over the 11 possible next sums, with their two-dice chances,
  the sheet value after the best next placement) ranks the cells; the STRONG_WIDTH best are
  searched one roll deeper (two_roll_values), and the cell with the highest expected sheet
  value is taken. Deterministic: ties go to the first cell row by row, or to a cell drawn by
  `rng` when one is given.
- "casual": no look-ahead, and a softmax choice over the cells' immediate value changes with
  temperature CASUAL_TEMPERATURE points: clearly better cells are usually taken, close calls
  often go wrong, as with a person playing by feel.

Measured averages and decision times are in bench/README.md ("Bots"); bench/bots.py measures them.
"""

import math
import random
from collections.abc import Sequence

import numpy as np

from app.engines.knister import MAX_SUM, MIN_SUM, SIZE, KnisterRules, KnisterSheet
from app.engines.knister_patterns import CHILD, PATTERN_COUNT, SUM_PROBABILITY, pattern_of
from app.engines.knister_values import (
    CELL_LINES,
    CELLS,
    LINE_CELLS,
    LINE_KIND,
    LINE_WEIGHT,
    LineValues,
    stored_values,
)

LEVELS = ("strong", "casual")
CASUAL_TEMPERATURE = 1.0  # points of sheet value; see the module docstring
STRONG_WIDTH = 6  # cells searched two rolls deep by the strong level
_TIE = 1e-9

# numpy forms of the line data for the look-ahead; pattern PATTERN_COUNT stands for "none".
_CHILD = np.array(
    [[PATTERN_COUNT if c < 0 else c for c in row] for row in CHILD] + [[PATTERN_COUNT] * 11]
)
_PROBABILITY = np.array(SUM_PROBABILITY)
_WEIGHT = np.array(LINE_WEIGHT, dtype=float)
_KIND = np.array(LINE_KIND)
_INCIDENCE = np.array([[cell in cells for cells in LINE_CELLS] for cell in range(CELLS)])
_SAME_CELL_PENALTY = np.where(np.eye(CELLS, dtype=bool), -np.inf, 0.0)


def line_patterns(cells: Sequence[int | None]) -> list[int]:
    """Pattern ids of the 12 lines (knister.LINES order) of 25 cells given row by row."""
    return [pattern_of([v for i in line if (v := cells[i]) is not None]) for line in LINE_CELLS]


def immediate_gains(
    values: LineValues, patterns: Sequence[int], empty: Sequence[int], value: int
) -> list[float]:
    """How much the sheet's value changes when `value` goes into each cell of `empty`.

    Args: values (tables); patterns, the 12 line pattern ids; empty, the empty cells (0..24,
    row * 5 + col), at least one; value, the sum 2..12. The lines are valued with the empties
    left after this placement. Returns one float per cell of `empty` (points, diagonals doubled).
    """
    table = values.by_pattern
    left = len(empty) - 1
    rows, diagonals = table[0][left], table[1][left]
    column = value - MIN_SUM
    gains = []
    for cell in empty:
        gain = 0.0
        for line in CELL_LINES[cell]:
            pattern = patterns[line]
            if line < 2 * SIZE:
                gain += rows[CHILD[pattern][column]] - rows[pattern]
            else:
                gain += 2 * (diagonals[CHILD[pattern][column]] - diagonals[pattern])
        gains.append(gain)
    return gains


def lookahead_batch(
    values: LineValues, patterns: np.ndarray, cells: np.ndarray, value: np.ndarray
) -> np.ndarray:
    """One-roll look-ahead for a batch of B sheets that all have the same number n of empty cells.

    Args: patterns, int array (B, 12) of line pattern ids; cells, int array (B, n), n >= 2, each
    row the empty cells (0..24, row * 5 + col) of its sheet; value, int array (B,) of sums 2..12
    to place. Returns float array (B, n): for each empty cell, the expected sheet value (sum over
    lines of weight * value(line), valued with the empties left after the next placement) after
    writing the sum there and then the next sum (averaged over its two-dice chances) at its best
    cell.
    """
    batch, n = cells.shape
    table = values.array[:, n - 2, :]  # (KINDS, PATTERN_COUNT + 1)
    through = _INCIDENCE[cells]  # (B, n, 12)
    placed = _CHILD[patterns, (value - MIN_SUM)[:, None]]  # (B, 12)
    after = np.where(through, placed[:, None, :], patterns[:, None, :])  # (B, n, 12)
    base = (table[_KIND, after] * _WEIGHT).sum(axis=2)  # (B, n)
    kinds = _KIND[:, None]
    line_gain = (table[kinds, _CHILD[after]] - table[kinds, after[..., None]]) * _WEIGHT[:, None]
    # (B, n, 11, 12) @ (B, 1, 12, n): gain of each next sum in each other empty cell
    cell_gain = line_gain.transpose(0, 1, 3, 2) @ through.transpose(0, 2, 1)[:, None].astype(float)
    cell_gain += _SAME_CELL_PENALTY[:n, None, :n]
    return base + cell_gain.max(axis=3) @ _PROBABILITY


def lookahead_values(
    values: LineValues, patterns: Sequence[int], empty: Sequence[int], value: int
) -> np.ndarray:
    """lookahead_batch for one sheet given as in immediate_gains; one float per cell of empty."""
    return lookahead_batch(values, np.array([patterns]), np.array([empty]), np.array([value]))[0]


def two_roll_values(
    values: LineValues, patterns: Sequence[int], empty: Sequence[int], value: int, width: int
) -> np.ndarray:
    """Two-roll look-ahead for the `width` best cells by lookahead_values; needs 3 empty cells.

    Same arguments as immediate_gains. Returns one float per cell of `empty`: for the chosen
    cells the expected sheet value after this placement, the next one and the one after (each
    next sum averaged over its chances, each placement at its best, the last one judged by the
    line values); for the other cells their lookahead_values minus 1000 (never preferred).
    """
    one = lookahead_values(values, patterns, empty, value)
    chosen = np.argsort(-one, kind="stable")[:width]
    now = np.asarray(patterns)
    cells = np.asarray(empty)[chosen]
    after = np.where(_INCIDENCE[cells], _CHILD[now, value - MIN_SUM][None, :], now[None, :])
    rest = np.array([[e for e in empty if e != cell] for cell in cells])  # (width, n - 1)
    sums = len(SUM_PROBABILITY)
    inner = lookahead_batch(
        values,
        np.repeat(after, sums, axis=0),
        np.repeat(rest, sums, axis=0),
        np.tile(np.arange(MIN_SUM, MAX_SUM + 1), len(cells)),
    )  # (width * 11, n - 1)
    result = one - 1000.0
    result[chosen] = inner.max(axis=1).reshape(len(cells), sums) @ _PROBABILITY
    return result


def _checked(
    grid: Sequence[Sequence[int | None]], value: int, rolls_done: int
) -> tuple[list[int | None], list[int]]:
    cells = [v for row in KnisterSheet.from_grid(grid).grid for v in row]
    empty = [i for i, v in enumerate(cells) if v is None]
    if type(value) is not int or not MIN_SUM <= value <= MAX_SUM:
        raise ValueError(f"value must be a sum 2..12, got {value!r}")
    if not empty:
        raise ValueError("the grid is full")
    if type(rolls_done) is not int or rolls_done != CELLS - len(empty):
        raise ValueError(
            f"rolls_done must be the number of filled cells ({CELLS - len(empty)}), "
            f"got {rolls_done!r}"
        )
    return cells, empty


def _best(scores: Sequence[float], rng: random.Random | None) -> int:
    top = max(scores)
    ties = [i for i, s in enumerate(scores) if s >= top - _TIE]
    return ties[0] if rng is None else rng.choice(ties)


def _softmax_pick(scores: Sequence[float], temperature: float, rng: random.Random) -> int:
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    return rng.choices(range(len(scores)), weights=weights)[0]


def choose_cell(
    grid: Sequence[Sequence[int | None]],
    value: int,
    rolls_done: int,
    straight_without_7: int = 10,
    rng: random.Random | None = None,
    *,
    level: str = "strong",
) -> tuple[int, int]:
    """The empty cell (row, col), 0-based from the top-left, where the bot writes `value`.

    Args: grid, 5 lists of 5 cells, None (empty) or an int 2..12; value, the rolled sum 2..12;
    rolls_done, the rolls before this one (0..24), which equals the filled cells;
    straight_without_7, 10 (seed) or 12 (NSV edition) points (docs/rules.md, "Knister room
    options"); rng, a random.Random for ties ("strong") and for the casual level's draws (a
    fresh unseeded one when None); level, "strong" or "casual" (module docstring).
    Raises ValueError on a bad or full grid, a value outside 2..12, a rolls_done that is not the
    number of filled cells, a straight value other than 10 or 12, or an unknown level.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    values = stored_values(KnisterRules(straight_without_seven=straight_without_7))
    cells, empty = _checked(grid, value, rolls_done)
    patterns = line_patterns(cells)
    if level == "casual":
        gains = immediate_gains(values, patterns, empty, value)
        pick = _softmax_pick(gains, CASUAL_TEMPERATURE, rng or random.Random())
    elif len(empty) == 1:
        pick = 0
    elif len(empty) == 2:
        pick = _best(lookahead_values(values, patterns, empty, value).tolist(), rng)
    else:
        scores = two_roll_values(values, patterns, empty, value, STRONG_WIDTH)
        pick = _best(scores.tolist(), rng)
    return divmod(empty[pick], SIZE)
