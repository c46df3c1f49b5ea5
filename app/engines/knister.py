"""Knister: the 5x5 sheet of dice sums and its scoring.

Sources: rule text 000 ("Wanneer eindigt het spel", "Veelgemaakte fouten") and
docs/rules.md, section "Knister". Each turn every player writes the same sum of two dice (2..12)
into one empty cell; a written number is final. When all 25 cells are full, the 12 lines score: 5
rows, 5 columns and the 2 corner-to-corner diagonals, which count double.

Coordinates are (row, col), 0-based from the top-left. Diagonal 0 runs from the top-left to the
bottom-right corner, diagonal 1 from the top-right to the bottom-left corner.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Literal, NamedTuple

from app.engines._dice import longest_run, multiplicities

SIZE = 5
MIN_SUM, MAX_SUM = 2, 12
DIAGONAL_FACTOR = 2  # docs/rules.md, Knister: "Both diagonals count double."

Cell = tuple[int, int]
Grid = Sequence[Sequence[int | None]]
LineKind = Literal["row", "col", "diag"]


class PlacementError(ValueError):
    """A placement that breaks the rules: a cell outside the sheet or a value outside 2..12."""


class CellTaken(PlacementError):
    """The cell already holds a number (rule text 000, "Veelgemaakte fouten": a number is final)."""


# docs/rules.md, Knister, points table; rule text 000, "Wanneer eindigt het spel en wie wint".
# The categories are exclusive: a line scores its one combination, never a sum of several.
BASE_POINTS: dict[str, int] = {
    "none": 0,
    "pair": 1,
    "two_pairs": 3,
    "three_of_a_kind": 3,
    "full_house": 8,
    "four_of_a_kind": 6,
    "five_of_a_kind": 10,
    "straight": 8,  # five distinct consecutive numbers containing a 7
    "straight_without_7": 10,  # 2-6 or 8-12; the NSV edition gives 12 (KnisterRules)
}
COMBINATIONS: tuple[str, ...] = tuple(BASE_POINTS)

_BY_MULTIPLICITIES: dict[tuple[int, ...], str] = {
    (2, 1, 1, 1): "pair",
    (2, 2, 1): "two_pairs",
    (3, 1, 1): "three_of_a_kind",
    (3, 2): "full_house",
    (4, 1): "four_of_a_kind",
    (5,): "five_of_a_kind",
}


@dataclass(frozen=True, slots=True)
class KnisterRules:
    """Room options for Knister scoring.

    straight_without_seven: points for a straight 2-6 or 8-12; 10 per the seed (default), 12 per
    the official NSV edition (docs/rules.md, Knister). Any other value raises ValueError.
    """

    straight_without_seven: int = 10

    def __post_init__(self) -> None:
        if self.straight_without_seven not in (10, 12):
            raise ValueError("straight_without_seven must be 10 (seed) or 12 (NSV edition)")

    def points(self, combination: str) -> int:
        """Points before doubling for a combination id from COMBINATIONS (KeyError if unknown)."""
        if combination == "straight_without_7":
            return self.straight_without_seven
        return BASE_POINTS[combination]


DEFAULT_RULES = KnisterRules()


def _classify_sorted(values: tuple[int, ...]) -> str:
    """Combination id of five checked sums. A repeated number never makes a straight (rule
    text 000)."""
    name = _BY_MULTIPLICITIES.get(multiplicities(values))
    if name is not None:
        return name
    if longest_run(values) == SIZE:
        return "straight" if 7 in values else "straight_without_7"
    return "none"


# A line's combination depends only on the multiset of its numbers: 3003 sorted tuples in all.
_COMBINATION_OF: dict[tuple[int, ...], str] = {
    values: _classify_sorted(values)
    for values in combinations_with_replacement(range(MIN_SUM, MAX_SUM + 1), SIZE)
}


# A line's numbers as one int: the sum of 6**(v - 2) over its numbers, so that in base 6 the
# digit for each number is how often it occurs (0..5). The key ignores order, and tables of
# all 3003 lines can be keyed by it. An empty cell adds _WEIGHT[None], which makes the key
# negative whatever the other cells hold (5 * 6**10 < 6**11): such a line scores nothing.
_WEIGHT: dict[int | None, int] = {v: 6 ** (v - MIN_SUM) for v in range(MIN_SUM, MAX_SUM + 1)}
_WEIGHT[None] = -(6**11)


class _LineTable(dict[int, tuple[str, int]]):
    """Line key -> (combination, points before doubling); a line with an empty cell has a
    negative key, missing here, and scores ("none", 0) (docs/rules.md: such lines score nothing)."""

    def __missing__(self, key: int) -> tuple[str, int]:
        return ("none", 0)


@cache
def _line_table(rules: KnisterRules) -> _LineTable:
    """The line table under the given rules: all 3003 full lines."""
    return _LineTable(
        (sum(_WEIGHT[v] for v in values), (name, rules.points(name)))
        for values, name in _COMBINATION_OF.items()
    )


def _checked_rules(rules: KnisterRules | None) -> KnisterRules:
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, KnisterRules):
        raise ValueError(f"rules must be KnisterRules, got {rules!r}")
    return rules


def classify_line(values: Iterable[int]) -> str:
    """Combination id of a full line, for the UI.

    Args: five sums 2..12 in any order. Returns one of COMBINATIONS ("none", "pair", "two_pairs",
    "three_of_a_kind", "full_house", "four_of_a_kind", "five_of_a_kind", "straight",
    "straight_without_7"). Raises ValueError on a wrong length or a value outside 2..12.
    Source: docs/rules.md, Knister, points table.
    """
    try:
        key = tuple(sorted(values))
        name = _COMBINATION_OF[key]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"a line is five sums 2..12, got {values!r}") from exc
    if not all(type(v) is int for v in key):
        raise ValueError(f"a line holds ints, got {values!r}")
    return name


def score_line(values: Iterable[int], *, rules: KnisterRules | None = None) -> int:
    """Points of one full line before doubling (docs/rules.md, Knister, points table).

    Args: five sums 2..12 in any order; rules for the straight-without-7 value (default 10).
    Returns 0..12. Raises ValueError on a wrong length or a value outside 2..12.
    """
    return _checked_rules(rules).points(classify_line(values))


# The twelve scoring lines (docs/rules.md, Knister): rows, then columns, then the two diagonals.
LINES: tuple[tuple[LineKind, int, tuple[Cell, ...]], ...] = (
    *(("row", r, tuple((r, c) for c in range(SIZE))) for r in range(SIZE)),
    *(("col", c, tuple((r, c) for r in range(SIZE))) for c in range(SIZE)),
    ("diag", 0, tuple((i, i) for i in range(SIZE))),
    ("diag", 1, tuple((i, SIZE - 1 - i) for i in range(SIZE))),
)
_FACTOR = {"row": 1, "col": 1, "diag": DIAGONAL_FACTOR}


class LineScore(NamedTuple):
    """One scored line: kind "row"|"col"|"diag", its index, its cells, its combination id, its
    points before doubling and the points it adds to the total (doubled on diagonals)."""

    kind: LineKind
    index: int  # type: ignore[assignment]  # the line's number (shadows tuple.index)
    cells: tuple[Cell, ...]
    combination: str
    points: int
    counted: int


@dataclass(frozen=True, slots=True)
class KnisterScore:
    """The score of one sheet (docs/rules.md, Knister), built by score_grid.

    combinations and points: one entry per line in LINES order (rows 0..4, columns 0..4,
    diagonals 0..1); points are before doubling; a line with an empty cell is ("none", 0).
    total = rows + columns + 2 x diagonals.
    """

    combinations: tuple[str, ...]
    points: tuple[int, ...]
    total: int

    @property
    def rows(self) -> tuple[int, ...]:
        """Points of rows 0..4 (top to bottom)."""
        return self.points[:SIZE]

    @property
    def cols(self) -> tuple[int, ...]:
        """Points of columns 0..4 (left to right)."""
        return self.points[SIZE : 2 * SIZE]

    @property
    def diagonals(self) -> tuple[int, ...]:
        """Points of diagonal 0 (top-left start) and diagonal 1 (top-right start), not doubled."""
        return self.points[2 * SIZE :]

    @property
    def lines(self) -> tuple[LineScore, ...]:
        """Every line with its cells, combination, points and counted (doubled) points."""
        return tuple(
            LineScore(kind, index, cells, name, points, points * _FACTOR[kind])
            for (kind, index, cells), name, points in zip(
                LINES, self.combinations, self.points, strict=True
            )
        )


_SHAPE = [SIZE] * SIZE


def _cell_weights(grid: Grid) -> list[int]:
    """The 25 cells' _WEIGHT, row by row; ValueError unless 5x5 of None or 2..12.

    Numbers equal to an int 2..12 (7.0) pass here; the sheet, which keeps them, wants ints.
    """
    try:
        weights = [_WEIGHT[v] for row in grid for v in row]
        shape = [*map(len, grid)]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"a grid is 5 rows of 5 cells, None or 2..12: {exc!r}") from exc
    if shape != _SHAPE:
        raise ValueError(f"a grid is 5 rows of 5 cells, got rows of {shape}")
    return weights


def _line_keys(weights: list[int]) -> tuple[int, ...]:
    """The 12 line keys, in LINES order, of the 25 cell weights given row by row.

    Written out cell by cell (rows a..e, columns 0..4) because it is the hot loop of
    score_grid; tests check it against LINES.
    """
    (a0, a1, a2, a3, a4, b0, b1, b2, b3, b4, c0, c1, c2, c3, c4,
     d0, d1, d2, d3, d4, e0, e1, e2, e3, e4) = weights  # fmt: skip
    return (
        a0 + a1 + a2 + a3 + a4,  # row 0
        b0 + b1 + b2 + b3 + b4,  # row 1
        c0 + c1 + c2 + c3 + c4,  # row 2
        d0 + d1 + d2 + d3 + d4,  # row 3
        e0 + e1 + e2 + e3 + e4,  # row 4
        a0 + b0 + c0 + d0 + e0,  # column 0
        a1 + b1 + c1 + d1 + e1,  # column 1
        a2 + b2 + c2 + d2 + e2,  # column 2
        a3 + b3 + c3 + d3 + e3,  # column 3
        a4 + b4 + c4 + d4 + e4,  # column 4
        a0 + b1 + c2 + d3 + e4,  # diagonal 0, from the top-left corner
        a4 + b3 + c2 + d1 + e0,  # diagonal 1, from the top-right corner
    )


def score_grid(grid: Grid, rules: KnisterRules | None = None) -> KnisterScore:
    """Score a sheet (docs/rules.md, Knister; rule text 000, "Wanneer eindigt het spel").

    Args: grid, 5 rows of 5 cells, each None (empty) or a sum 2..12; rules (default: seed rules).
    Returns a KnisterScore; lines with an empty cell score 0. Raises ValueError on a bad grid.
    Speed: one dict look-up per line (see _WEIGHT and bench/engines_dice.py).
    """
    table = _line_table(_checked_rules(rules))
    names, points = zip(*map(table.__getitem__, _line_keys(_cell_weights(grid))), strict=False)
    diagonals = points[2 * SIZE] + points[2 * SIZE + 1]
    return KnisterScore(names, points, sum(points) + (DIAGONAL_FACTOR - 1) * diagonals)


class KnisterSheet:
    """One player's 5x5 sheet; numbers go into empty cells and are final (rule text 000,
    docs/rules.md)."""

    def __init__(self) -> None:
        self._grid: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]

    @classmethod
    def from_grid(cls, grid: Grid) -> "KnisterSheet":
        """A sheet holding a copy of grid (5x5 of None or ints 2..12); ValueError on a bad grid."""
        _cell_weights(grid)
        if not all(v is None or type(v) is int for row in grid for v in row):
            raise ValueError(f"sheet cells hold ints, got {grid!r}")
        sheet = cls()
        sheet._grid = [list(row) for row in grid]
        return sheet

    @property
    def grid(self) -> list[list[int | None]]:
        """A copy of the cells, 5 lists of 5 (None = empty)."""
        return [list(row) for row in self._grid]

    @property
    def is_full(self) -> bool:
        """True once all 25 cells hold a number: the game is over (docs/rules.md, Knister)."""
        return all(None not in row for row in self._grid)

    def empty_cells(self) -> list[Cell]:
        """The empty cells as (row, col), row by row from the top-left."""
        return [(r, c) for r, row in enumerate(self._grid) for c, v in enumerate(row) if v is None]

    def place(self, cell: Cell, value: int) -> None:
        """Write a sum into an empty cell (docs/rules.md, Knister: a written number is final).

        Args: cell (row, col) with 0 <= row, col < 5; value an int 2..12.
        Raises CellTaken on a filled cell, PlacementError on a bad cell or value; the sheet is
        then unchanged.
        """
        r, c = _checked_cell(cell)
        _check_value(value)
        if self._grid[r][c] is not None:
            raise CellTaken(f"cell {(r, c)} already holds {self._grid[r][c]}")
        self._grid[r][c] = value

    def score(self, rules: KnisterRules | None = None) -> KnisterScore:
        """score_grid of this sheet."""
        return score_grid(self._grid, rules)


def _checked_cell(cell: Cell) -> Cell:
    try:
        r, c = cell
    except (TypeError, ValueError) as exc:
        raise PlacementError(f"a cell is (row, col), got {cell!r}") from exc
    if not all(type(i) is int and 0 <= i < SIZE for i in (r, c)):
        raise PlacementError(f"cell {cell!r} is not on the 5x5 sheet")
    return r, c


def _check_value(value: int) -> None:
    if type(value) is not int or not MIN_SUM <= value <= MAX_SUM:
        raise PlacementError(f"a placed number is a sum 2..12, got {value!r}")


# Points of the same-number groups alone (pairs, triples, ...), used to judge partial lines.
_GROUP_POINTS: dict[tuple[int, ...], int] = {(): 0} | {
    tuple(n for n in counts if n > 1): BASE_POINTS[name]
    for counts, name in _BY_MULTIPLICITIES.items()
}


def _group_points(values: list[int]) -> int:
    return _GROUP_POINTS[tuple(n for n in multiplicities(values) if n > 1)]


def auto_cell(sheet: KnisterSheet, value: int) -> Cell:
    """Where to write value for a player whose time ran out: a cheap, deterministic heuristic.

    For each empty cell, look at the lines through it (a diagonal weighs 2) and rank by:
    1. gain: how much the same-number groups of those lines (pair 1, two pairs 3, three 3,
       full house 8, four 6, five 10; docs/rules.md, Knister) grow when value joins them;
    2. then lines already holding many different numbers (a non-matching number hurts least);
    3. then cells on fewer / lighter lines (keep the doubled diagonals for good numbers);
    4. then the first cell row by row.
    Straights are not considered. Raises PlacementError on a bad value or a full sheet.
    """
    _check_value(value)
    cells = sheet.empty_cells()
    if not cells:
        raise PlacementError("the sheet is full")
    grid = sheet.grid
    through: dict[Cell, list[tuple[int, list[int]]]] = {cell: [] for cell in cells}
    for kind, _, line_cells in LINES:
        filled = [v for r, c in line_cells if (v := grid[r][c]) is not None]
        for cell in line_cells:
            if cell in through:
                through[cell].append((_FACTOR[kind], filled))

    def rank(cell: Cell) -> tuple[int, int, int]:
        lines = through[cell]
        gain = sum(w * (_group_points([*f, value]) - _group_points(f)) for w, f in lines)
        variety = sum(w * len(set(f)) for w, f in lines)
        weight = sum(w for w, _ in lines)
        return gain, variety, -weight

    return max(cells, key=rank)  # max keeps the first of equals: row-major order
