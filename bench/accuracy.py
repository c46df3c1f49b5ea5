"""Accuracy calibration: the mean accuracy of four kinds of player per rule set.

Run: python bench/accuracy.py [--games 1000] [--workers 2] [--rulesets kniffel kitkniff yatzy]
     [--players optimal strong casual random]

Each game is played alone on the real engine (Scorecard, Turn) with dice from
random.Random(game) (every player sees the same rolls) and choices from
random.Random(10**9 + game). Every decision is judged as the post-game analysis judges it
(app/rooms/games/kniffel/analysis.py: ``keep_decision``, ``box_decision``), and the game's
accuracy is ``analysis.accuracy(loss, turns)`` (docs/rules.md, "Accuracy").

Players: "optimal" takes the analysis's own best keep and box (loses nothing by definition);
"strong" and "casual" are app.engines.kniffel_bot at those levels; "random" keeps a uniformly
random sub-multiset of the dice after rolls 1 and 2 (all five: roll no more) and fills a
uniformly random open box. Prints, per rule set and player, the mean accuracy (with its
standard error), the mean loss per turn and the mean final total, and the time taken.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engines.kniffel import MAX_ROLLS, Scorecard, Turn  # noqa: E402
from app.engines.kniffel_bot import choose_box, choose_keep, held_for  # noqa: E402
from app.engines.kniffel_optimal import Strategy, solve  # noqa: E402
from app.rooms.games.kniffel.analysis import (  # noqa: E402
    accuracy,
    box_decision,
    keep_decision,
    rank_keeps,
)

PLAYERS = ("optimal", "strong", "casual", "random")
RULESETS = ("kniffel", "kitkniff", "yatzy")
_worker: tuple[str, Strategy] | None = None  # set before the pool forks


def _keeps(dice: list[int]) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of ``dice`` (sorted faces), the empty keep included."""
    return sorted({tuple(sorted(c)) for n in range(6) for c in itertools.combinations(dice, n)})


def _keep(player: str, strategy: Strategy, card: Scorecard, dice: list[int], rolls_left: int,
          rng: random.Random) -> tuple[int, ...]:
    if player == "optimal":
        return rank_keeps(strategy, card, dice, rolls_left)[0][0]
    if player == "random":
        return rng.choice(_keeps(dice))
    return choose_keep(card, dice, rolls_left, strategy, player, rng)


def _box(player: str, strategy: Strategy, card: Scorecard, dice: list[int],
         rng: random.Random) -> str:
    if player == "optimal":
        return strategy.best_box(card, dice)[0]
    if player == "random":
        return rng.choice(sorted(card.options(dice)))
    return choose_box(card, dice, strategy, player, rng)


def play(ruleset: str, strategy: Strategy, player: str, game: int) -> tuple[int, float, int]:
    """One game of ``player``: ``(accuracy, loss per turn, final total)``."""
    dice, rng = random.Random(game), random.Random(10**9 + game)
    card = Scorecard(ruleset)
    loss, turns = 0.0, 0
    while not card.is_complete:
        turn = Turn()
        turn.roll([dice.randint(1, 6) for _ in range(5)])
        for rolls_left in (2, 1):
            keep = _keep(player, strategy, card, list(turn.dice), rolls_left, rng)
            loss += keep_decision(strategy, card, turn.dice, MAX_ROLLS - rolls_left,
                                  keep).loss
            if len(keep) == 5:
                break
            target = held_for(turn.dice, turn.held, keep)
            turn.set_held([i for i, hold in enumerate(target) if hold])
            turn.roll([dice.randint(1, 6) for _ in range(turn.free_count())])
        box = _box(player, strategy, card, list(turn.dice), rng)
        loss += box_decision(strategy, card, turn.dice, turn.rolls, box).loss
        card.fill(box, turn.dice)
        turns += 1
    score = accuracy(loss, turns)
    assert score is not None
    return score, loss / turns, card.total


def _play_many(job: tuple[str, int, int]) -> list[tuple[int, float, int]]:
    assert _worker is not None
    ruleset, strategy = _worker
    player, first, count = job
    return [play(ruleset, strategy, player, game) for game in range(first, first + count)]


def results(ruleset: str, strategy: Strategy, player: str, games: int,
            workers: int) -> list[tuple[int, float, int]]:
    """``(accuracy, loss per turn, total)`` of games 0..games-1 on ``workers`` processes."""
    global _worker
    _worker = ruleset, strategy
    chunk = max(1, -(-games // (workers * 8)))
    jobs = [(player, first, min(chunk, games - first)) for first in range(0, games, chunk)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return [row for part in pool.map(_play_many, jobs) for row in part]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rulesets", nargs="+", default=list(RULESETS), choices=RULESETS)
    parser.add_argument("--players", nargs="+", default=list(PLAYERS), choices=PLAYERS)
    args = parser.parse_args()
    print(f"{args.games} games per cell, {args.workers} workers")
    print(f"{'rule set':9} {'player':8} {'accuracy':>14} {'loss/turn':>10} {'total':>7} {'s':>6}")
    for ruleset in args.rulesets:
        strategy = solve(ruleset)
        for player in args.players:
            start = time.perf_counter()
            rows = results(ruleset, strategy, player, args.games, args.workers)
            scores = [r[0] for r in rows]
            sem = statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else 0.0
            print(f"{ruleset:9} {player:8} {statistics.fmean(scores):8.1f} ± {sem:4.1f} "
                  f"{statistics.fmean(r[1] for r in rows):10.2f} "
                  f"{statistics.fmean(r[2] for r in rows):7.1f} "
                  f"{time.perf_counter() - start:6.0f}", flush=True)


if __name__ == "__main__":
    main()
