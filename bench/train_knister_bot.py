"""Fit the Knister bot's line values by self-play (approximate policy iteration, numpy only).

Run: python bench/train_knister_bot.py [--rounds R] [--games N] [--workers 2]
Writes app/engines/data/knister_lines.npz (see app/engines/knister_values.py), one table per
straight-without-7 value (10 and 12; `--straight 12` trains only that one and keeps the other's
table in the file).

Each round plays N games with the current tables. The policy is the one the bot uses: the
"greedy" rounds pick the cell with the best immediate value change (fast), the "lookahead"
rounds the strong bot's one-roll expectimax. For every line, after every placement, the game
records (kind, empties left, pattern class) and, when the game ends, that line's points. The
new table is the mean of those points per entry, shrunk towards the previous table for entries
seen few times (SHRINK pseudo-games): the expected final points of a line in that state under
the round's policy. The first tables are knister_values.independent_fill_values (blind fill).
Dice come from random.Random(seed + game number), so a run is reproducible.
"""

import argparse
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engines.knister import KnisterRules  # noqa: E402
from app.engines.knister_bot import immediate_gains, lookahead_values  # noqa: E402
from app.engines.knister_patterns import (  # noqa: E402
    CHILD,
    CLASS_COUNT,
    EMPTY_PATTERN,
    FILLED,
    SYMMETRY_CLASS,
    full_line_points,
)
from app.engines.knister_values import (  # noqa: E402
    CELL_LINES,
    CELLS,
    KINDS,
    LINE_KIND,
    LINE_WEIGHT,
    LineValues,
    independent_fill_values,
    save_tables,
)

SHRINK = 5.0
DECAY = 0.8
TRAINING_SEED = 10**7  # games 10**7 on: never the benchmark's games (bench/bots.py: 0 on)
SIZE = 5
TABLE_SHAPE = (KINDS, CELLS, CLASS_COUNT)


def roll(rng: random.Random) -> int:
    """The sum of two dice."""
    return rng.randint(1, 6) + rng.randint(1, 6)


def play_game(
    values: LineValues, rng: random.Random, policy: str
) -> tuple[list[tuple[int, ...]], list[int]]:
    """One game by the policy ("greedy" or "lookahead"); returns the 12 line patterns after each
    placement (25 tuples) and the final patterns' points per line (before doubling)."""
    patterns = [EMPTY_PATTERN] * 12
    empty = list(range(CELLS))
    history = []
    for _ in range(CELLS):
        value = roll(rng)
        if policy == "greedy" or len(empty) == 1:
            scores = immediate_gains(values, patterns, empty, value)
        else:
            scores = lookahead_values(values, patterns, empty, value).tolist()
        cell = empty.pop(max(range(len(scores)), key=scores.__getitem__))
        for line in CELL_LINES[cell]:
            patterns[line] = CHILD[patterns[line]][value - 2]
        history.append(tuple(patterns))
    points = full_line_points(values.rules)
    return history, [points[p] for p in patterns]


def play_batch(args: tuple[np.ndarray, int, str, int, int]) -> tuple[np.ndarray, np.ndarray, float]:
    """Play games first..first+count-1; returns (sums, counts) over TABLE_SHAPE and the summed
    totals of the games."""
    table, straight, policy, first, count = args
    values = LineValues(table, KnisterRules(straight_without_seven=straight))
    index: list[int] = []
    target: list[int] = []
    total = 0
    for game in range(first, first + count):
        history, final = play_game(values, random.Random(game), policy)
        total += sum(w * p for w, p in zip(LINE_WEIGHT, final, strict=True))
        for step, patterns in enumerate(history):
            empties = CELLS - 1 - step
            for line, pattern in enumerate(patterns):
                if FILLED[pattern] < SIZE:
                    kind = LINE_KIND[line]
                    index.append((kind * CELLS + empties) * CLASS_COUNT + SYMMETRY_CLASS[pattern])
                    target.append(final[line])
    size = KINDS * CELLS * CLASS_COUNT
    sums = np.bincount(index, weights=target, minlength=size).reshape(TABLE_SHAPE)
    counts = np.bincount(index, minlength=size).reshape(TABLE_SHAPE)
    return sums, counts, float(total)


def prior_table(rules: KnisterRules) -> np.ndarray:
    """independent_fill_values per class, the same for every kind and number of empties."""
    blind = independent_fill_values(rules)
    per_class = np.zeros(CLASS_COUNT)
    per_class[list(SYMMETRY_CLASS)] = blind
    return np.broadcast_to(per_class, TABLE_SHAPE).copy()


def train(
    rules: KnisterRules, schedule: list[tuple[str, int]], workers: int, seed: int, decay: float
) -> np.ndarray:
    """Run the rounds of schedule [(policy, games), ...]; print each round's mean total."""
    table = prior_table(rules)
    sums = np.zeros(TABLE_SHAPE)
    counts = np.zeros(TABLE_SHAPE)
    game = seed
    with Pool(workers) as pool:
        for number, (policy, games) in enumerate(schedule, 1):
            start = time.perf_counter()
            chunk = -(-games // (workers * 4))
            jobs = [
                (
                    table,
                    rules.straight_without_seven,
                    policy,
                    first,
                    min(chunk, game + games - first),
                )
                for first in range(game, game + games, chunk)
            ]
            sums *= decay
            counts *= decay
            total = 0.0
            for s, c, t in pool.map(play_batch, jobs):
                sums += s
                counts += c
                total += t
            game += games
            table = (sums + SHRINK * table) / (counts + SHRINK)
            print(
                f"straight {rules.straight_without_seven} round {number} {policy} x{games}: "
                f"mean {total / games:.2f}  {time.perf_counter() - start:.0f} s",
                flush=True,
            )
    return table


def main() -> None:
    """Parse the options, train one table per straight value, save them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--greedy-rounds", type=int, default=6)
    parser.add_argument("--greedy-games", type=int, default=20_000)
    parser.add_argument("--lookahead-rounds", type=int, default=10)
    parser.add_argument("--lookahead-games", type=int, default=40_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=TRAINING_SEED)
    parser.add_argument("--decay", type=float, default=DECAY)
    parser.add_argument("--straight", type=int, nargs="*", default=[12, 10])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    schedule = [("greedy", args.greedy_games)] * args.greedy_rounds + [
        ("lookahead", args.lookahead_games)
    ] * args.lookahead_rounds
    start = time.perf_counter()
    tables = {}
    for straight in args.straight:
        rules = KnisterRules(straight_without_seven=straight)
        tables[rules] = train(rules, schedule, args.workers, args.seed, args.decay)
    save_tables(tables, *([args.out] if args.out else []))
    print(f"trained in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
