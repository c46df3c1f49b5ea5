"""Bots: average scores over many games, and decision times (Knister, Kniffel family).

Run: python bench/bots.py [--games 10000] [--workers 2] [--players strong casual greedy random]
     [--straight 12 10] [--timing-games 200]
     [--kniffel-games 10000] [--rulesets kniffel kitkniff yatzy] [--kniffel-timing-games 100]
     [--only knister|kniffel]

Kniffel family (bench/kniffel_bots.py): for each rule set (default house rules) the optimal
strategy is solved once, then --kniffel-games games per level ("strong", "casual") are played
on --workers processes; decision times are every choose_keep/choose_box call of
--kniffel-timing-games games per level in this process (one core): mean and p99 in ms.

Players: "strong" and "casual" are app.engines.knister_bot.choose_cell at those levels;
"greedy" writes the sum where the running score (partial lines counted by their pairs,
triples, ...) grows most, ties drawn at random; "random" picks a uniformly random empty cell.
Game g rolls its dice from random.Random(g) (every player sees the same rolls) and draws its
own choices from random.Random(10**9 + g). Averages are of the sheet total under each
straight-without-7 value (12: the NSV edition, the "official" table; 10: the seed's), with the
standard error of the mean. Decision times: every choose_cell call of --timing-games strong
games on the official table (games 10**6 on), played in this process alone (one core), after a
warm-up; mean, p50, p99 and max in ms.
Targets: strong mean >= 63.2 on the official table (LineNet, the best published agent, 63.19);
decisions mean <= 10 ms, p99 <= 50 ms.
"""

import argparse
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engines._dice import multiplicities  # noqa: E402
from app.engines.knister import LINES, KnisterRules, score_grid, score_line  # noqa: E402
from app.engines.knister_bot import choose_cell  # noqa: E402
from bench import kniffel_bots  # noqa: E402

TARGET_MEAN = 63.2
TARGET_DECISION_MS = (10.0, 50.0)  # mean, p99


def roll(rng: random.Random) -> int:
    """The sum of two dice."""
    return rng.randint(1, 6) + rng.randint(1, 6)


# Points of a line's same-number groups (pair 1, two pairs 3, three 3, full house 8, four 6,
# five 10), by the group sizes: how the running score counts a line that is not full yet.
_GROUP_POINTS = {(): 0, (2,): 1, (2, 2): 3, (3,): 3, (3, 2): 8, (4,): 6, (5,): 10}


def running_score(grid: list[list[int | None]], rules: KnisterRules) -> int:
    """The sheet's score counting partial lines by their groups (full lines as score_line)."""
    total = 0
    for kind, _, cells in LINES:
        numbers = [v for r, c in cells if (v := grid[r][c]) is not None]
        if len(numbers) == 5:
            points = score_line(numbers, rules=rules)
        else:
            points = _GROUP_POINTS[tuple(n for n in multiplicities(numbers) if n > 1)]
        total += points * (2 if kind == "diag" else 1)
    return total


def greedy_cell(
    grid: list[list[int | None]], value: int, rules: KnisterRules, rng: random.Random
) -> tuple[int, int]:
    """An empty cell where writing value raises running_score most (ties drawn by rng): the
    "greedy on the immediate score change" baseline."""
    scored = []
    for r, c in ((r, c) for r in range(5) for c in range(5) if grid[r][c] is None):
        grid[r][c] = value
        scored.append((running_score(grid, rules), (r, c)))
        grid[r][c] = None
    best = max(total for total, _ in scored)
    return rng.choice([cell for total, cell in scored if total == best])


def play(player: str, straight: int, game: int, timings: list[float] | None = None) -> int:
    """Total of one game (seeded by its number) by player under the straight value."""
    rules = KnisterRules(straight_without_seven=straight)
    dice, choices = random.Random(game), random.Random(10**9 + game)
    grid: list[list[int | None]] = [[None] * 5 for _ in range(5)]
    for rolls_done in range(25):
        value = roll(dice)
        if player == "random":
            cell = choices.choice(
                [(r, c) for r in range(5) for c in range(5) if grid[r][c] is None]
            )
        elif player == "greedy":
            cell = greedy_cell(grid, value, rules, choices)
        else:
            start = time.perf_counter()
            cell = choose_cell(grid, value, rolls_done, straight, choices, level=player)
            if timings is not None:
                timings.append(time.perf_counter() - start)
        r, c = cell
        grid[r][c] = value
    return score_grid(grid, rules).total


def play_many(job: tuple[str, int, int, int]) -> list[int]:
    """Totals of games first..first+count-1."""
    player, straight, first, count = job
    return [play(player, straight, game) for game in range(first, first + count)]


def averages(player: str, straight: int, games: int, pool: Pool, workers: int) -> list[int]:
    """Totals of games 0..games-1, split over the pool."""
    chunk = -(-games // (workers * 8))
    jobs = [
        (player, straight, first, min(chunk, games - first)) for first in range(0, games, chunk)
    ]
    return [total for part in pool.map(play_many, jobs) for total in part]


def decision_times(games: int) -> list[float]:
    """Seconds per strong choose_cell call over games games on the official table."""
    play("strong", 12, -1)  # warm-up: loads the tables
    timings: list[float] = []
    for game in range(games):
        play("strong", 12, 10**6 + game, timings)
    return timings


def main() -> None:
    """Print one line per (player, straight) and the decision times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", nargs="*", default=["strong", "casual", "greedy", "random"])
    parser.add_argument("--straight", type=int, nargs="*", default=[12, 10])
    parser.add_argument("--timing-games", type=int, default=200)
    parser.add_argument("--kniffel-games", type=int, default=10_000)
    parser.add_argument("--rulesets", nargs="*", default=list(kniffel_bots.RULESETS))
    parser.add_argument("--kniffel-timing-games", type=int, default=100)
    parser.add_argument("--only", choices=("knister", "kniffel"))
    args = parser.parse_args()
    if args.only != "kniffel":
        knister(args)
    if args.only != "knister":
        kniffel(args)


def kniffel(args: argparse.Namespace) -> None:
    """Print one line per (rule set, level): average, and decision times."""
    print(f"{'game':<9} {'level':<7} {'games':>6} {'mean':>7} {'s.e.':>5} {'sd':>5} "
          f"{'optimum':>7}  {'ms mean':>7} {'ms p99':>6}  seconds")
    for ruleset, strategy in kniffel_bots.strategies(args.rulesets).items():
        for level in ("strong", "casual"):
            start = time.perf_counter()
            totals = kniffel_bots.averages(ruleset, strategy, level, args.kniffel_games,
                                           args.workers)
            mean, sd = statistics.fmean(totals), statistics.stdev(totals)
            ms = sorted(t * 1000 for t in kniffel_bots.decision_times(
                ruleset, strategy, level, args.kniffel_timing_games))
            p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else 0.0
            print(f"{ruleset:<9} {level:<7} {len(totals):>6} {mean:>7.2f} "
                  f"{sd / len(totals) ** 0.5:>5.2f} {sd:>5.2f} {strategy.expected_score:>7.2f}  "
                  f"{statistics.fmean(ms) if ms else 0:>7.3f} {p99:>6.3f}  "
                  f"{time.perf_counter() - start:>6.0f}", flush=True)


def knister(args: argparse.Namespace) -> None:
    """Print one line per (player, straight) and the decision times."""
    print(f"{'player':<8} {'straight':>8} {'games':>6} {'mean':>7} {'s.e.':>5} {'sd':>5}  seconds")
    with Pool(args.workers) as pool:
        for straight in args.straight:
            for player in args.players:
                start = time.perf_counter()
                totals = averages(player, straight, args.games, pool, args.workers)
                mean, sd = statistics.fmean(totals), statistics.stdev(totals)
                note = ""
                if player == "strong" and straight == 12:
                    note = f"  target >= {TARGET_MEAN}: {'yes' if mean >= TARGET_MEAN else 'NO'}"
                print(
                    f"{player:<8} {straight:>8} {len(totals):>6} {mean:>7.2f} "
                    f"{sd / len(totals) ** 0.5:>5.2f} {sd:>5.2f}  "
                    f"{time.perf_counter() - start:>6.0f}{note}",
                    flush=True,
                )
    if args.timing_games:
        ms = sorted(t * 1000 for t in decision_times(args.timing_games))
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        mean = statistics.fmean(ms)
        ok = mean <= TARGET_DECISION_MS[0] and p99 <= TARGET_DECISION_MS[1]
        print(
            f"strong decisions: {len(ms)} calls, mean {mean:.2f} ms, p50 {ms[len(ms) // 2]:.2f} ms,"
            f" p99 {p99:.2f} ms, max {ms[-1]:.2f} ms; target mean <= {TARGET_DECISION_MS[0]:.0f},"
            f" p99 <= {TARGET_DECISION_MS[1]:.0f}: {'yes' if ok else 'NO'}"
        )


if __name__ == "__main__":
    main()
