"""Knister line patterns: what a bot needs to know about one line, as small integer tables.

A line's score depends only on the multiset of its five numbers (docs/rules.md, "Knister
scoring": "Where a number stands within its line makes no difference"). A partly filled line is
therefore one of PATTERN_COUNT patterns: the sorted tuple of its 0..5 numbers (sums 2..12). This
module numbers them and gives, as plain lists indexed by pattern id:

- CHILD[p][v - 2]: the pattern after adding the sum v;
- FILLED[p]: how many numbers the pattern holds (0..5; 5 = the line is full);
- SYMMETRY_CLASS[p]: the same id for a pattern and its mirror (each v replaced by 14 - v). The
  mirror has the same chances (P(v) = P(14 - v)) and the same points (2-6 <-> 8-12, 3-7 <-> 7-11,
  ...), so learned tables keep one entry per class (CLASS_COUNT entries);
- full_line_points(rules): the points of each full pattern before doubling (0 for partial ones).

SUM_PROBABILITY[v - 2] is the chance that two dice sum to v (1/36 for 2 ... 6/36 for 7 ...).
"""

from functools import cache
from itertools import combinations_with_replacement

from app.engines.knister import MAX_SUM, MIN_SUM, SIZE, KnisterRules, score_line

SUMS = tuple(range(MIN_SUM, MAX_SUM + 1))
SUM_PROBABILITY: tuple[float, ...] = tuple((6 - abs(v - 7)) / 36 for v in SUMS)

PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    values for k in range(SIZE + 1) for values in combinations_with_replacement(SUMS, k)
)
PATTERN_ID: dict[tuple[int, ...], int] = {values: i for i, values in enumerate(PATTERNS)}
PATTERN_COUNT = len(PATTERNS)  # 1 + 11 + 66 + 286 + 1001 + 3003 = 4368
EMPTY_PATTERN = PATTERN_ID[()]
FILLED: tuple[int, ...] = tuple(len(values) for values in PATTERNS)

_FULL = -1  # CHILD entry of a full pattern: it takes no number
CHILD: tuple[tuple[int, ...], ...] = tuple(
    tuple(PATTERN_ID[tuple(sorted((*values, v)))] if len(values) < SIZE else _FULL for v in SUMS)
    for values in PATTERNS
)


def _mirror(values: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(MIN_SUM + MAX_SUM - v for v in values))


def _symmetry_classes() -> tuple[tuple[int, ...], int]:
    representative = [min(i, PATTERN_ID[_mirror(v)]) for i, v in enumerate(PATTERNS)]
    numbering = {rep: n for n, rep in enumerate(sorted(set(representative)))}
    return tuple(numbering[rep] for rep in representative), len(numbering)


SYMMETRY_CLASS, CLASS_COUNT = _symmetry_classes()


@cache
def full_line_points(rules: KnisterRules) -> tuple[int, ...]:
    """Points before doubling of each pattern that fills a line, 0 for partial patterns.

    Args: rules (the straight-without-7 value). Returns PATTERN_COUNT ints (docs/rules.md,
    "Knister scoring").
    """
    return tuple(
        score_line(values, rules=rules) if len(values) == SIZE else 0 for values in PATTERNS
    )


def pattern_of(values: list[int]) -> int:
    """Pattern id of a line's filled numbers (0..5 sums 2..12, any order); KeyError otherwise."""
    return PATTERN_ID[tuple(sorted(values))]
