"""Counting helpers shared by the dice engines (Knister lines, Kniffel rolls).

Both games score a handful of numbers by the same two questions: how often does each value
occur, and how long is the longest run of consecutive distinct values.
"""

from collections import Counter
from collections.abc import Iterable


def multiplicities(values: Iterable[int]) -> tuple[int, ...]:
    """How often each distinct value occurs, largest first.

    Args: any iterable of ints. Returns e.g. (3, 2) for 4,4,4,9,9 and (1, 1, 1, 1, 1) for 2..6.
    """
    return tuple(sorted(Counter(values).values(), reverse=True))


def longest_run(values: Iterable[int]) -> int:
    """Length of the longest run of consecutive distinct values (repeats are ignored).

    Args: any iterable of ints. Returns 4 for 1,2,3,4,6; 5 for 4,5,6,7,8; 0 for no values.
    """
    best = run = 0
    previous: int | None = None
    for value in sorted(set(values)):
        run = run + 1 if previous is not None and value == previous + 1 else 1
        best = max(best, run)
        previous = value
    return best
