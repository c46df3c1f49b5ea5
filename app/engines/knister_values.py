"""Learned line values for the Knister bot: the expected final points of one line.

docs/rules.md, "Knister scoring": a sheet's total is the sum of its 12 lines' points (the two
diagonals doubled), and a line's points depend only on the multiset of its numbers. The bot
therefore judges a sheet by the sum over its lines of

    value[kind, empties, pattern] = expected final points (before doubling) of a line that holds
    `pattern` (see knister_patterns) while the sheet has `empties` empty cells left,

kind 0 for rows and columns, 1 for the diagonals (the bot treats those differently, so they fill
differently). A full line's value is its points. The tables are fitted by self-play
(bench/train_knister_bot.py) and stored per straight-without-7 value (10 and 12) in
app/engines/data/knister_lines.npz as float32 arrays `straight_10` and `straight_12` of shape
(KINDS, 25, CLASS_COUNT) indexed by (kind, empties 0..24, symmetry class).
"""

from functools import cache
from pathlib import Path

import numpy as np

from app.engines.knister import SIZE, KnisterRules
from app.engines.knister_patterns import (
    CHILD,
    CLASS_COUNT,
    FILLED,
    PATTERN_COUNT,
    SUM_PROBABILITY,
    SYMMETRY_CLASS,
    full_line_points,
)

CELLS = SIZE * SIZE
KINDS = 2
DATA_FILE = Path(__file__).resolve().parent / "data" / "knister_lines.npz"

# The 12 lines as cell indices (row * 5 + col), in knister.LINES order, and their kinds/weights.
LINE_CELLS: tuple[tuple[int, ...], ...] = (
    *(tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)),
    *(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE)),
    tuple(i * SIZE + i for i in range(SIZE)),
    tuple(i * SIZE + SIZE - 1 - i for i in range(SIZE)),
)
LINE_KIND: tuple[int, ...] = (0,) * (2 * SIZE) + (1, 1)
LINE_WEIGHT: tuple[int, ...] = (1,) * (2 * SIZE) + (2, 2)
CELL_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(line for line, cells in enumerate(LINE_CELLS) if cell in cells) for cell in range(CELLS)
)


def independent_fill_values(rules: KnisterRules) -> np.ndarray:
    """Expected points of each pattern if its empty cells took the next rolls blindly.

    Args: rules. Returns PATTERN_COUNT floats (before doubling): full patterns their points,
    partial ones sum_v P(v) * value(pattern + v), with P the two-dice sum chances. A prior for
    the learned tables (it ignores the player's choice, so it is low).
    """
    points = full_line_points(rules)
    values = np.zeros(PATTERN_COUNT)
    for pattern in sorted(range(PATTERN_COUNT), key=FILLED.__getitem__, reverse=True):
        if FILLED[pattern] == SIZE:
            values[pattern] = points[pattern]
        else:
            values[pattern] = sum(
                p * values[child] for p, child in zip(SUM_PROBABILITY, CHILD[pattern], strict=True)
            )
    return values


class LineValues:
    """Value tables expanded for fast look-ups: one list per (kind, empties) over all patterns.

    Args: table, float array (KINDS, 25, CLASS_COUNT) as stored (see module docstring); rules.
    `by_pattern[kind][empties][pattern]` is the value of a pattern, its points if it is full.
    `array` is the same as a float array (KINDS, 25, PATTERN_COUNT + 1); the extra last column
    is 0 and stands for "no pattern" (the child of a full pattern).
    Raises ValueError on a table of another shape.
    """

    def __init__(self, table: np.ndarray, rules: KnisterRules) -> None:
        if table.shape != (KINDS, CELLS, CLASS_COUNT):
            raise ValueError(f"a line table has shape {(KINDS, CELLS, CLASS_COUNT)}")
        self.rules = rules
        full = np.array([FILLED[p] == SIZE for p in range(PATTERN_COUNT)])
        points = np.array(full_line_points(rules), dtype=float)
        expanded = table.astype(float)[:, :, list(SYMMETRY_CLASS)]
        expanded[:, :, full] = points[full]
        self.array = np.concatenate([expanded, np.zeros((KINDS, CELLS, 1))], axis=2)
        self.by_pattern: list[list[list[float]]] = [
            [row.tolist() for row in self.array[kind]] for kind in range(KINDS)
        ]


def _table_key(rules: KnisterRules) -> str:
    return f"straight_{rules.straight_without_seven}"


@cache
def stored_values(rules: KnisterRules) -> LineValues:
    """The shipped tables for these rules (DATA_FILE), loaded once per process.

    Raises FileNotFoundError if the data file is missing, KeyError if it lacks these rules.
    """
    with np.load(DATA_FILE) as data:
        return LineValues(data[_table_key(rules)], rules)


def save_tables(tables: dict[KnisterRules, np.ndarray], path: Path = DATA_FILE) -> None:
    """Write tables (KINDS, 25, CLASS_COUNT) per rules to path as float32 (np.savez_compressed).

    Tables for other rules already in the file are kept, so one straight value can be trained
    again on its own.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {}
    if path.exists():
        with np.load(path) as old:
            arrays = {key: old[key] for key in old.files}
    arrays |= {_table_key(rules): table.astype(np.float32) for rules, table in tables.items()}
    np.savez_compressed(path, **arrays)
