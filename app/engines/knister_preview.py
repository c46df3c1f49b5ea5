"""Knister lines that are not full yet: what a line holds so far and what it can still become.

Rules: docs/rules.md, "Knister scoring" (the points table; a line with an empty cell scores
nothing until it is full). This module only explains a sheet to its players while the game
runs; the score itself is ``app.engines.knister.score_grid``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import NamedTuple

from app.engines._dice import multiplicities
from app.engines.knister import (
    _BY_MULTIPLICITIES,
    DIAGONAL_FACTOR,
    LINES,
    MAX_SUM,
    MIN_SUM,
    SIZE,
    KnisterRules,
    classify_line,
)

DEFAULT_RULES = KnisterRules()


class LinePreview(NamedTuple):
    """One line of a sheet as its players see it during the game.

    ``filled``: how many of its five cells hold a number; ``so_far``: the combination id of
    its numbers as they stand (for a full line its final combination; for an incomplete one
    the same-number groups alone: ``pair``, ``two_pairs``, ``three_of_a_kind``,
    ``full_house``, ``four_of_a_kind`` or ``none``); ``now``: the points (before doubling)
    the line would score if the empty cells added nothing; ``best``: the most it can still
    score (before doubling) and ``best_combination`` which combination gives that;
    ``straight_open``: a straight can still be made.
    """

    filled: int
    so_far: str
    now: int
    best: int
    best_combination: str
    straight_open: bool

    @property
    def full(self) -> bool:
        """True once all five cells hold a number (the line then scores ``now``)."""
        return self.filled == SIZE


def preview_line(values: Sequence[int | None], rules: KnisterRules = DEFAULT_RULES) -> LinePreview:
    """The ``LinePreview`` of one line: five cells, each None (empty) or a sum 2..12.

    Raises ValueError for a line that is not five cells or holds a value outside 2..12.
    Example: ``preview_line([5, 5, None, None, 9])`` is a pair so far (1 point now), heading
    at best for a full house (8): ``LinePreview(3, "pair", 1, 8, "full_house", False)``.
    """
    if len(values) != SIZE:
        raise ValueError(f"a line has five cells, got {values!r}")
    filled = tuple(sorted(v for v in values if v is not None))
    if not all(type(v) is int and MIN_SUM <= v <= MAX_SUM for v in filled):
        raise ValueError(f"a line holds sums 2..12, got {values!r}")
    return _preview(filled, rules)


@lru_cache(maxsize=16384)
def _preview(filled: tuple[int, ...], rules: KnisterRules) -> LinePreview:
    if len(filled) == SIZE:
        name = classify_line(filled)
        points = rules.points(name)
        return LinePreview(SIZE, name, points, points, name, name.startswith("straight"))
    groups = tuple(n for n in multiplicities(filled) if n > 1)
    so_far = _GROUPS.get(groups, "none")
    best, best_name = 0, "none"
    for rest in combinations_with_replacement(range(MIN_SUM, MAX_SUM + 1), SIZE - len(filled)):
        name = classify_line(filled + rest)
        points = rules.points(name)
        if points > best:
            best, best_name = points, name
    straight_open = len(set(filled)) == len(filled) and (
        not filled or filled[-1] - filled[0] < SIZE)
    return LinePreview(len(filled), so_far, rules.points(so_far), best, best_name,
                       straight_open)


# The same-number groups of an incomplete line named by the combination they already make.
_GROUPS: dict[tuple[int, ...], str] = {
    tuple(n for n in counts if n > 1): name for counts, name in _BY_MULTIPLICITIES.items()
    if name != "five_of_a_kind"
}


def preview_grid(grid: Sequence[Sequence[int | None]],
                 rules: KnisterRules = DEFAULT_RULES,
                 before: tuple[Sequence[Sequence[int | None]], Sequence[LinePreview]] | None = None,
                 ) -> tuple[LinePreview, ...]:
    """The previews of a sheet's twelve lines, in ``LINES`` order (rows 0..4, columns 0..4,
    diagonals 0..1). ``grid``: 5 rows of 5 cells, None or 2..12; ValueError otherwise.

    ``before``: an earlier grid of the same sheet and its previews (same ``rules``); lines
    whose cells are all as they were keep their preview (after one placement, only the
    placed cell's row, column and diagonals are looked at again).
    """
    if len(grid) != SIZE or any(len(row) != SIZE for row in grid):
        raise ValueError("a grid is 5 rows of 5 cells")
    if before is None:
        return tuple(preview_line([grid[r][c] for r, c in cells], rules)
                     for _, _, cells in LINES)
    old, old_previews = before
    changed = {(r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] != old[r][c]}
    return tuple(
        preview_line([grid[r][c] for r, c in cells], rules)
        if not changed.isdisjoint(cells) else old_previews[i]
        for i, (_, _, cells) in enumerate(LINES))


def total_so_far(previews: Sequence[LinePreview]) -> int:
    """The provisional total of a sheet while the game runs: every full line's points plus what
    each incomplete line scores now (its ``now``: as if its empty cells added nothing), the
    diagonals counted twice as in the final total (docs/rules.md, "Knister scoring").

    ``previews``: the twelve ``LinePreview`` of a sheet in ``LINES`` order (``preview_grid``);
    ValueError for another count. Equals the final total once the sheet is full.
    """
    if len(previews) != len(LINES):
        raise ValueError(f"a sheet has {len(LINES)} lines, got {len(previews)}")
    return sum(p.now * (DIAGONAL_FACTOR if kind == "diag" else 1)
               for (kind, _, _), p in zip(LINES, previews, strict=True))
