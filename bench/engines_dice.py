"""Speed of the dice engines on one core: Knister score_grid and Kniffel Scorecard.options.

Run: python bench/engines_dice.py. Targets: score_grid >= 100,000 grids/s and
options >= 150,000 calls/s. A combined bench imports run() -> {name: per second}.
Inputs come from random.Random(1), so every run times the same work.
"""

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engines.kniffel import Scorecard  # noqa: E402
from app.engines.knister import score_grid  # noqa: E402

TARGETS = {
    "knister.score_grid grids/s": 100_000,
    "kniffel.options calls/s (fresh card)": 150_000,
    "kniffel.options calls/s (half-filled card)": 150_000,
}
SAMPLES = 2_000
REPEATS = 5


def _per_second(work: Callable[[], object], items: int) -> float:
    """Items per second in the fastest of REPEATS runs of work, which handles `items` items."""
    best = min(_timed(work) for _ in range(REPEATS))
    return items / best


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def run() -> dict[str, float]:
    """Time both engines; returns {measure: items per second}, keys as in TARGETS."""
    rng = random.Random(1)
    grids = [[[rng.randint(2, 12) for _ in range(5)] for _ in range(5)] for _ in range(SAMPLES)]
    rolls = [[rng.randint(1, 6) for _ in range(5)] for _ in range(SAMPLES)]
    fresh = Scorecard("kniffel")
    half = Scorecard("kniffel")
    for box in ("ones", "threes", "fives", "full_house", "yahtzee", "chance"):
        half.fill(box, [5, 5, 5, 5, 5])  # the yahtzee box holds 50: joker checks are live

    def score_all() -> int:
        return sum(score_grid(grid).total for grid in grids)

    def options_on(card: Scorecard) -> Callable[[], None]:
        def work() -> None:
            for dice in rolls:
                card.options(dice)

        return work

    measures = (score_all, options_on(fresh), options_on(half))
    return {name: _per_second(work, SAMPLES) for name, work in zip(TARGETS, measures, strict=True)}


def main() -> None:
    """Print the measures, their targets and whether each is met."""
    results = run()
    width = max(map(len, results))
    print(f"{'measure':<{width}}  {'per second':>12}  {'target':>9}  ok")
    for name, rate in results.items():
        ok = "yes" if rate >= TARGETS[name] else "NO"
        print(f"{name:<{width}}  {rate:>12,.0f}  {TARGETS[name]:>9,}  {ok}")


if __name__ == "__main__":
    main()
