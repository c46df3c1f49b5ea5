"""The optimal Kniffel-family strategy: solve time, decision latency, and a simulation check.

Run: .venv/bin/python bench/kniffel_strategy.py [--games 10000] [--workers 2] [--only yatzy]

For Kniffel, KitKniff and Yatzy (default house rules):
1. solve time of the whole value table on one core (wall and CPU seconds; goal <= 60 s);
2. latency of best_keep / best_box over random positions (mean and p99 in ms; goal <= 1 ms),
   cold (each position's turn solved afresh) and warm (the same position asked again);
3. --games games played by the strategy itself with the real engine (Scorecard, Turn) and
   seeded dice, on --workers processes: the mean final total must lie within three standard
   errors of expected_score. The bench ASSERTS this (exit status 1 otherwise), and Yatzy's
   expected score must be the published 248.4399894.
Results for this machine are in bench/README.md and docs/rules.md ("Verified values").
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engines.kniffel import Scorecard, Turn  # noqa: E402
from app.engines.kniffel_optimal import Strategy, rules_for, solve_table  # noqa: E402

GAMES = ("kniffel", "kitkniff", "yatzy")
YATZY_PUBLISHED = 248.4399894
LATENCY_POSITIONS = 2000
_played: tuple[str, Strategy] | None = None  # game and strategy of the workers (set before fork)


def solve_timed(ruleset: str) -> tuple[Strategy, float, float]:
    """(strategy, wall seconds, CPU seconds) of solving one game."""
    rules = rules_for(ruleset)  # scoring tables read from Scorecard: not part of the solve
    wall, cpu = time.perf_counter(), time.process_time()
    table = solve_table(rules)
    return Strategy(rules, table), time.perf_counter() - wall, time.process_time() - cpu


def random_position(ruleset: str, rng: random.Random) -> tuple[Scorecard, list[int], int]:
    """A card with 0..len-1 boxes filled by random dice, fresh dice and 1 or 2 rolls left."""
    card = Scorecard(ruleset)
    boxes = list(card.boxes)
    rng.shuffle(boxes)
    for box in boxes[: rng.randrange(len(boxes))]:
        card.fill(box, [rng.randint(1, 6) for _ in range(5)])
    return card, [rng.randint(1, 6) for _ in range(5)], rng.choice((1, 2))


def latencies(strategy: Strategy, ruleset: str) -> dict[str, tuple[float, float, float]]:
    """{call: (mean ms, p99 ms, p99 ms of CPU time)} for best_keep and best_box, cold and warm.
    Wall-clock p99 includes waiting for a core on this shared machine; CPU time does not."""
    rng = random.Random(7)
    positions = [random_position(ruleset, rng) for _ in range(LATENCY_POSITIONS)]
    times: dict[str, list[float]] = {}
    cpu_times: dict[str, list[float]] = {}
    for label, call in (("best_keep", lambda c, d, r: strategy.best_keep(c, d, r)),
                        ("best_box", lambda c, d, r: strategy.best_box(c, d))):
        for warmth in ("cold", "warm"):
            samples = times.setdefault(f"{label} {warmth}", [])
            cpu_samples = cpu_times.setdefault(f"{label} {warmth}", [])
            for card, dice, rolls_left in positions:
                if warmth == "cold":
                    strategy._turn.cache_clear()
                else:
                    call(card, dice, rolls_left)
                start, cpu = time.perf_counter(), time.thread_time()
                call(card, dice, rolls_left)
                cpu_samples.append((time.thread_time() - cpu) * 1000)
                samples.append((time.perf_counter() - start) * 1000)

    def p99(values: list[float]) -> float:
        return sorted(values)[int(0.99 * len(values))]

    return {key: (statistics.fmean(v), p99(v), p99(cpu_times[key])) for key, v in times.items()}


def play(seed: int) -> int:
    """One game played by the worker's strategy with the real engine; returns the final total.
    The dice come from random.Random(seed)."""
    assert _played is not None
    ruleset, strategy = _played
    rng = random.Random(seed)
    card = Scorecard(ruleset)
    while not card.is_complete:
        turn = Turn()
        turn.roll([rng.randint(1, 6) for _ in range(5)])
        for rolls_left in (2, 1):
            keep, _ = strategy.best_keep(card, turn.dice, rolls_left)
            if len(keep) == 5:
                break
            held, rest = [], list(keep)
            for index, die in enumerate(turn.dice):
                if die in rest:
                    rest.remove(die)
                    held.append(index)
            turn.set_held(held)
            turn.roll([rng.randint(1, 6) for _ in range(turn.free_count())])
        box, _ = strategy.best_box(card, turn.dice)
        card.fill(box, turn.dice)
    return card.total


def simulate(ruleset: str, strategy: Strategy, games: int, workers: int,
             first_seed: int) -> list[int]:
    """Final totals of `games` games, on `workers` forked processes."""
    global _played
    _played = ruleset, strategy
    seeds = range(first_seed, first_seed + games)
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(play, seeds, chunksize=50)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=GAMES, action="append")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    failures = []
    for number, ruleset in enumerate(args.only or GAMES):
        strategy, wall, cpu = solve_timed(ruleset)
        expected = strategy.expected_score
        print(f"\n{ruleset}: expected score {expected:.7f}; solved in {wall:.1f} s wall, "
              f"{cpu:.1f} s CPU (goal <= 60 s)")
        for key, (mean, p99, cpu_p99) in latencies(strategy, ruleset).items():
            print(f"  {key:<16} mean {mean:6.3f} ms  p99 {p99:6.3f} ms  "
                  f"p99 CPU {cpu_p99:6.3f} ms  (goal <= 1 ms)")
        start = time.perf_counter()
        totals = simulate(ruleset, strategy, args.games, args.workers, 1_000_000 * number)
        mean, sd = statistics.fmean(totals), statistics.stdev(totals)
        se = sd / math.sqrt(len(totals))
        off = (mean - expected) / se
        print(f"  simulation: {len(totals)} games in {time.perf_counter() - start:.0f} s: "
              f"mean {mean:.3f} +- {se:.3f} (SE; SD {sd:.1f}), {off:+.2f} SE from expected")
        if abs(off) > 3:
            failures.append(f"{ruleset}: simulated mean {off:+.2f} SE from expected")
        if ruleset == "yatzy" and abs(expected - YATZY_PUBLISHED) > 1e-6:
            failures.append(f"yatzy: {expected:.7f} is not the published {YATZY_PUBLISHED}")
    for failure in failures:
        print("FAILED", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
