"""Benchmark: one Knikkers move (path search, lines, spawn) in microseconds, on one core.

Plays whole games of ``app.engines.knikkers`` with a deterministic move chooser (a 64-bit xorshift,
not Python's ``random``) and times each ``Game.move`` call alone with ``time.perf_counter_ns``
(choosing the move, including ``reachable``, is not timed). The garbage collector is paused while
timing, as ``timeit`` does. Goal: median <= 30 us per move.

Run: ``python bench/engines_knikkers.py [games]``.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engines.knikkers import Game  # noqa: E402

GAMES = 400
GOAL_US = 30.0


class _Chooser:
    """Deterministic move chooser: xorshift64 picks a ball with somewhere to go and a target."""

    def __init__(self, state: int) -> None:
        self._state = (state * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF or 1

    def _next(self, n: int) -> int:
        x = self._state
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        self._state = x
        return x % n

    def choose(self, game: Game) -> tuple[tuple[int, int], tuple[int, int]]:
        board = game.board
        balls = [(r, c) for r in range(9) for c in range(9) if board[r][c] is not None]
        offset = self._next(len(balls))
        for n in range(len(balls)):
            src = balls[(offset + n) % len(balls)]
            targets = sorted(game.reachable(src))
            if targets:
                return src, targets[self._next(len(targets))]
        raise RuntimeError("no legal move on a board with a free cell")


def run(games: int = GAMES, min_line: int = 5) -> dict[str, float]:
    """Play ``games`` games (seeds 0..games-1) and return timing statistics.

    Returns: {"median_us", "mean_us", "p90_us", "min_us", "moves", "games", "clearing_share",
    "goal_us"}; times are microseconds per ``Game.move``.
    """
    times: list[int] = []
    clearing = 0
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for seed in range(games):
            game = Game.new(seed, min_line)
            chooser = _Chooser(seed)
            while not game.over:
                src, dst = chooser.choose(game)
                t0 = time.perf_counter_ns()
                result = game.move(src, dst)
                times.append(time.perf_counter_ns() - t0)
                clearing += bool(result.lines)
            gc.collect()
    finally:
        if was_enabled:
            gc.enable()
    times.sort()
    return {
        "median_us": statistics.median(times) / 1000,
        "mean_us": statistics.fmean(times) / 1000,
        "p90_us": times[int(len(times) * 0.9)] / 1000,
        "min_us": times[0] / 1000,
        "moves": float(len(times)),
        "games": float(games),
        "clearing_share": clearing / len(times),
        "goal_us": GOAL_US,
    }


def main() -> None:
    """Pin to one core where the OS allows it, run the benchmark and print the numbers."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    for min_line in (5, 4):
        stats = run(games, min_line)
        verdict = "ok" if stats["median_us"] <= GOAL_US else "SLOW"
        print(
            f"knikkers move ({min_line} op een rij): median {stats['median_us']:.1f} us, "
            f"mean {stats['mean_us']:.1f} us, p90 {stats['p90_us']:.1f} us, "
            f"min {stats['min_us']:.1f} us over {int(stats['moves'])} moves in "
            f"{int(stats['games'])} games ({stats['clearing_share']:.1%} cleared a line) "
            f"[goal <= {GOAL_US:.0f} us: {verdict}]"
        )


if __name__ == "__main__":
    main()
