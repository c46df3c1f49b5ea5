"""Kniffel-family bots for bench/bots.py: whole games by app.engines.kniffel_bot, and timing.

Each game plays the real engine (Scorecard, Turn) with dice from random.Random(game) and the
casual level's draws from random.Random(10**9 + game). A turn: roll five dice, then after the
first and second roll the bot's keep (choose_keep; all five = stop), then its box (choose_box).
Decision times are of choose_keep and choose_box calls (the turn's solution is cached by the
Strategy after the first call of a turn, as in the app).
"""

from __future__ import annotations

import multiprocessing
import random
import time

from app.engines.kniffel import Scorecard, Turn
from app.engines.kniffel_bot import choose_box, choose_keep, held_for
from app.engines.kniffel_optimal import Strategy, solve

RULESETS = ("kniffel", "kitkniff", "yatzy")
_worker: tuple[str, Strategy] | None = None  # set before the pool forks


def play(ruleset: str, strategy: Strategy, level: str, game: int,
         timings: list[float] | None = None) -> int:
    """Final total of one game (seeded by its number) by the bot at ``level``."""
    dice, choices = random.Random(game), random.Random(10**9 + game)
    card = Scorecard(ruleset)
    while not card.is_complete:
        turn = Turn()
        turn.roll([dice.randint(1, 6) for _ in range(5)])
        for rolls_left in (2, 1):
            start = time.perf_counter()
            keep = choose_keep(card, turn.dice, rolls_left, strategy, level, choices)
            if timings is not None:
                timings.append(time.perf_counter() - start)
            if len(keep) == 5:
                break
            target = held_for(turn.dice, turn.held, keep)
            turn.set_held([i for i, hold in enumerate(target) if hold])
            turn.roll([dice.randint(1, 6) for _ in range(turn.free_count())])
        start = time.perf_counter()
        box = choose_box(card, turn.dice, strategy, level, choices)
        if timings is not None:
            timings.append(time.perf_counter() - start)
        card.fill(box, turn.dice)
    return card.total


def _play_many(job: tuple[str, int, int]) -> list[int]:
    assert _worker is not None
    ruleset, strategy = _worker
    level, first, count = job
    return [play(ruleset, strategy, level, game) for game in range(first, first + count)]


def averages(ruleset: str, strategy: Strategy, level: str, games: int,
             workers: int) -> list[int]:
    """Totals of games 0..games-1 at ``level`` on ``workers`` forked processes."""
    global _worker
    _worker = ruleset, strategy
    chunk = -(-games // (workers * 8))
    jobs = [(level, first, min(chunk, games - first)) for first in range(0, games, chunk)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return [total for part in pool.map(_play_many, jobs) for total in part]


def decision_times(ruleset: str, strategy: Strategy, level: str, games: int) -> list[float]:
    """Seconds per decision (keep or box) over ``games`` games in this process (one core)."""
    timings: list[float] = []
    for game in range(games):
        play(ruleset, strategy, level, 10**6 + game, timings)
    return timings


def strategies(rulesets: list[str]) -> dict[str, Strategy]:
    """The solved optimal strategy of each rule set (default house rules; ~3-8 s each)."""
    return {ruleset: solve(ruleset) for ruleset in rulesets}
