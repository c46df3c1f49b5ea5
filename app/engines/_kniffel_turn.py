"""The dice side of one Kniffel-family turn, vectorised: rolls, kept dice and re-rolls.

A turn (docs/rules.md, Kniffel family) is a roll of five dice, then up to two re-rolls of any
dice the player does not keep. Everything here is about multisets of faces, in numpy arrays whose
last axis runs over many positions at once, so one call handles thousands of scorecard states.

- A *roll* is one of the 252 sorted 5-tuples; ROLLS lists them, ROLL_PROB is the chance of each
  when five dice are thrown (multinomial, exact up to float rounding).
- A *keep* is a sorted tuple of 0..5 faces (462 of them), ordered by size and, within a size,
  by how many distinct faces it has (most first); the last 252 keeps are the rolls, and ROLLS is
  listed in that same order.
- keep_values(V) turns "value of each roll" V into "expected value of each keep when the other
  dice are thrown" (the average over the one-more-die children, size by size).
- best_roll_values(E) turns keep values into "value of each roll when the player keeps the best
  sub-multiset" (the best over the one-fewer-die parents, size by size).

Pure: no I/O, no randomness.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial

import numpy as np

DICE = 5
FACES = range(1, 7)

KEEPS: tuple[tuple[int, ...], ...] = tuple(
    keep
    for size in range(DICE + 1)
    for keep in sorted(combinations_with_replacement(FACES, size), key=lambda k: -len(set(k)))
)
KEEP_INDEX: dict[tuple[int, ...], int] = {keep: i for i, keep in enumerate(KEEPS)}
# KEEPS[SIZE_START[k]:SIZE_START[k + 1]] are the keeps of k dice.
SIZE_START: tuple[int, ...] = tuple(
    sum(1 for keep in KEEPS if len(keep) < size) for size in range(DICE + 2)
)
ROLLS_START = SIZE_START[DICE]
ROLLS: tuple[tuple[int, ...], ...] = KEEPS[ROLLS_START:]
ROLL_INDEX: dict[tuple[int, ...], int] = {roll: i for i, roll in enumerate(ROLLS)}

FIVE_ALIKE: np.ndarray = np.array([ROLL_INDEX[(face,) * DICE] for face in FACES])
# FACE_COUNT[r, f]: how many dice of roll r show face f (f = 1..6; column 0 unused).
FACE_COUNT: np.ndarray = np.array([[roll.count(f) for f in range(7)] for roll in ROLLS])


def _roll_probability(roll: tuple[int, ...]) -> float:
    """Chance that five fair dice show this multiset: 5! / prod(count!) / 6^5."""
    ways = factorial(DICE)
    for count in Counter(roll).values():
        ways //= factorial(count)
    return ways / 6**DICE


ROLL_PROB: np.ndarray = np.array([_roll_probability(roll) for roll in ROLLS])

# CHILDREN[k]: (n_k, 6) keep indices of each k-dice keep with one more die of face 1..6.
CHILDREN: tuple[np.ndarray, ...] = tuple(
    np.array(
        [[KEEP_INDEX[tuple(sorted(keep + (f,)))] for f in FACES] for keep in KEEPS[lo:hi]],
        dtype=np.intp,
    )
    for lo, hi in zip(SIZE_START[:DICE], SIZE_START[1 : DICE + 1], strict=True)
)


def _parents(size: int) -> list[np.ndarray]:
    """For the keeps of `size` dice: column c = the keep indices with one die of the c-th
    distinct face removed, for the leading keeps that have more than c distinct faces (keeps of a
    size are ordered by distinct faces, most first, so each column covers a prefix)."""
    block = KEEPS[SIZE_START[size] : SIZE_START[size + 1]]
    columns: list[list[int]] = [[] for _ in range(min(size, len(FACES)))]
    for keep in block:
        for c, face in enumerate(sorted(set(keep))):
            smaller = list(keep)
            smaller.remove(face)
            columns[c].append(KEEP_INDEX[tuple(smaller)])
    return [np.array(column, dtype=np.intp) for column in columns]


# PARENTS[k][c]: see _parents; column c has as many rows as the size-k keeps with > c faces.
PARENTS: tuple[list[np.ndarray], ...] = tuple(_parents(size) for size in range(DICE + 1))


@cache
def sub_keeps(roll: tuple[int, ...]) -> tuple[int, ...]:
    """Keep indices of every distinct sub-multiset of a sorted roll (the empty one and all five
    included), in KEEPS order. Args: a sorted 5-tuple of faces 1..6."""
    found = {KEEP_INDEX[sub] for size in range(DICE + 1) for sub in combinations(roll, size)}
    return tuple(sorted(found))


def keep_values(roll_values: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Expected value of every keep when the other dice are thrown once.

    Args: roll_values, shape (252, S): a value per roll (ROLLS order) for S positions; out, an
    optional float array (462, S) to write into (reused by the solver: fresh large arrays cost
    page faults). Returns shape (462, S) in KEEPS order; the last 252 rows are roll_values
    itself (keeping all five dice). Each smaller keep is the mean of its six children.
    """
    if roll_values.shape[1] <= _FEW:
        return np.matmul(_KEEP_MATRIX, roll_values, out=out)
    values = np.empty((len(KEEPS), roll_values.shape[1])) if out is None else out
    values[ROLLS_START:] = roll_values
    for size in range(DICE - 1, -1, -1):
        lo, hi = SIZE_START[size], SIZE_START[size + 1]
        children = CHILDREN[size]
        total = values[children[:, 0]]
        for column in range(1, len(FACES)):
            total += values[children[:, column]]
        np.multiply(total, 1.0 / len(FACES), out=values[lo:hi])
    return values


def best_roll_values(keep_vals: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Value of every roll when the best sub-multiset of it is kept.

    Args: keep_vals, shape (462, S), as from keep_values; out, an optional float array (462, S)
    to work in (may be keep_vals itself, which is then overwritten). Returns shape (252, S),
    ROLLS order (a view of the work array): for each roll the maximum of keep_vals over its
    sub-multisets (built up size by size: the best of a keep is its own value or the best of a
    one-die-smaller keep).
    """
    if keep_vals.shape[1] <= _FEW:
        return keep_vals[_SUB_KEEPS].max(axis=1)
    best = keep_vals.copy() if out is None else out
    if best is not keep_vals:
        best[...] = keep_vals
    for size in range(1, DICE + 1):
        lo = SIZE_START[size]
        for column in PARENTS[size]:
            rows = best[lo : lo + column.size]
            np.maximum(rows, best[column], out=rows)
    return best[ROLLS_START:]


# For a few positions at a time (the hints), one matrix product and one gather beat the size-by-
# size recursions, whose cost is mostly numpy's per-call overhead.
_FEW = 4
_KEEP_MATRIX: np.ndarray = keep_values(np.eye(len(ROLLS)))  # (462, 252): P(roll | keep)
_SUB_KEEPS: np.ndarray = np.array(  # (252, 32): sub_keeps of each roll, padded by repeats
    [(subs := sub_keeps(roll)) + subs[:1] * (2**DICE - len(subs)) for roll in ROLLS]
)
