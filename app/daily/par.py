"""The daily Knister's dice and par: the 25 rolls of a day (docs/dice.md, the day's seed and
``daily-knister-<day>``) and the strong bot's game on them (where it places each roll, its
total). Pure but for a small cache; CPU-bound (about 0.2 s): run ``bot_game`` off the loop."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from app.engines.fair_dice import faces
from app.engines.knister import KnisterRules, score_grid
from app.engines.knister_bot import choose_cell
from app.rooms.dice import daily_seed, dice_game

ROLLS = 25
KIND = "knister"


def rolls(secret: str, day: str) -> list[tuple[int, int]]:
    """The 25 rolls (two faces each) of the daily Knister of ``day`` (``YYYY-MM-DD``) on a
    server whose secret is ``secret``: roll ``k`` is turn ``k``, throw 1, slots 0 and 1."""
    seed, name = daily_seed(secret, KIND, day), dice_game("", 1, {"daily": day}, KIND)
    return [(a, b) for a, b in (faces(seed, name, k, 1, (0, 1)) for k in range(1, ROLLS + 1))]


@dataclass(frozen=True)
class BotGame:
    """The strong bot's game on a day's rolls: ``cells[k]`` (row, column from 0) where it
    wrote roll ``k``'s sum, and its ``total`` (par)."""

    cells: tuple[tuple[int, int], ...]
    total: int


@lru_cache(maxsize=16)
def bot_game(secret: str, day: str) -> BotGame:
    """The strong bot's game on ``day``'s rolls (its ties broken by a generator seeded with
    the day, so every process agrees); straight without 7 worth 10 (the default rules)."""
    grid: list[list[int | None]] = [[None] * 5 for _ in range(5)]
    rng = random.Random(f"daily-{KIND}-{day}")
    cells = []
    for k, (a, b) in enumerate(rolls(secret, day)):
        r, c = choose_cell(grid, a + b, k, 10, rng, level="strong")
        grid[r][c] = a + b
        cells.append((r, c))
    return BotGame(tuple(cells), score_grid(grid, KnisterRules(10)).total)
