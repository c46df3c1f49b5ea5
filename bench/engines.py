"""All engine benchmarks in one run: ``python bench/engines.py`` (or ``make bench``).

Prints Knister ``score_grid`` grids/s, Kniffel ``Scorecard.options`` calls/s and the median
Knikkers move time, against the goals of the engines issue.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import engines_dice, engines_knikkers  # noqa: E402


def main() -> None:
    """Run both benchmark modules and print a summary against the goals."""
    dice = engines_dice.run()
    marbles = engines_knikkers.run()
    print("\nengine benchmarks (one core)")
    for key, value in {**dice, **marbles}.items():
        print(f"  {key:<44} {value:>14,.1f}")


if __name__ == "__main__":
    main()
