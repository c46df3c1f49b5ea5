"""Knister bot (app/engines/knister_bot.py): legal moves, errors, whole games, strength.

Rules: docs/rules.md, "Knister". Strength is measured at length by bench/bots.py; here only a
quick check with fixed seeds.
"""

import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engines.knister import KnisterRules, KnisterSheet, score_grid
from app.engines.knister_bot import LEVELS, choose_cell
from app.engines.knister_patterns import (
    CHILD,
    CLASS_COUNT,
    PATTERN_COUNT,
    PATTERNS,
    SUM_PROBABILITY,
    SYMMETRY_CLASS,
    full_line_points,
    pattern_of,
)
from app.engines.knister_values import independent_fill_values, stored_values
from bench.bots import greedy_cell, roll

SUMS = range(2, 13)
CHANCE = {v: (6 - abs(v - 7)) / 36 for v in SUMS}  # two dice: 1/36 for 2 ... 6/36 for 7


@st.composite
def sheets(draw, min_empty=1):
    """A 5x5 grid with at least min_empty empty cells, and its number of filled cells."""
    filled = draw(st.integers(0, 25 - min_empty))
    order = draw(st.permutations(range(25)))
    grid = [[None] * 5 for _ in range(5)]
    for cell in order[:filled]:
        grid[cell // 5][cell % 5] = draw(st.integers(2, 12))
    return grid, filled


def empty_cells(grid):
    return {(r, c) for r in range(5) for c in range(5) if grid[r][c] is None}


# --- legal moves ---


@settings(max_examples=150, deadline=None)
@given(
    sheet=sheets(),
    value=st.integers(2, 12),
    level=st.sampled_from(LEVELS),
    straight=st.sampled_from([10, 12]),
    seed=st.integers(0, 2**32),
)
def test_choose_cell_returns_an_empty_cell(sheet, value, level, straight, seed):
    grid, filled = sheet
    before = [list(row) for row in grid]
    cell = choose_cell(grid, value, filled, straight, random.Random(seed), level=level)
    assert cell in empty_cells(grid)
    assert grid == before  # the caller's grid is not touched


@settings(max_examples=40, deadline=None)
@given(sheet=sheets(min_empty=2), value=st.integers(2, 12), straight=st.sampled_from([10, 12]))
def test_strong_is_deterministic(sheet, value, straight):
    grid, filled = sheet
    first = choose_cell(grid, value, filled, straight)
    assert choose_cell(grid, value, filled, straight) == first
    assert choose_cell(grid, value, filled, straight, random.Random(5)) == choose_cell(
        grid, value, filled, straight, random.Random(5)
    )


def expected_total(grid, cell, value, rules):
    """Exact expected final score after writing value at cell with one other empty cell left:
    the last roll has the two-dice chances and has only one place to go."""
    r, c = cell
    grid = [list(row) for row in grid]
    grid[r][c] = value
    (last,) = empty_cells(grid)
    total = 0.0
    for v in SUMS:
        grid[last[0]][last[1]] = v
        total += CHANCE[v] * score_grid(grid, rules).total
    return total


@settings(max_examples=60, deadline=None)
@given(
    numbers=st.lists(st.integers(2, 12), min_size=25, max_size=25),
    holes=st.lists(st.integers(0, 24), min_size=2, max_size=2, unique=True),
    value=st.integers(2, 12),
    straight=st.sampled_from([10, 12]),
)
def test_strong_plays_the_last_two_rolls_perfectly(numbers, holes, value, straight):
    """With two empty cells the look-ahead sees the rest of the game, so its choice must have
    the best exact expected final score."""
    grid = [numbers[r * 5 : r * 5 + 5] for r in range(5)]
    for hole in holes:
        grid[hole // 5][hole % 5] = None
    rules = KnisterRules(straight_without_seven=straight)
    best = max(expected_total(grid, cell, value, rules) for cell in empty_cells(grid))
    chosen = choose_cell(grid, value, 23, straight)
    assert expected_total(grid, chosen, value, rules) == pytest.approx(best)


def test_last_cell_is_the_only_choice():
    grid = [[7] * 5 for _ in range(5)]
    grid[3][1] = None
    for level in LEVELS:
        assert choose_cell(grid, 2, 24, 12, random.Random(1), level=level) == (3, 1)


def test_completes_a_straight_without_7_on_the_last_roll():
    """Row 0 holds 2, 3, 4, 5 and one empty cell; writing the 6 there scores 12 (NSV table)."""
    grid = [[2, 3, 4, 5, None], *([[9, 11, 9, 11, 9] for _ in range(3)]), [12, 10, 12, 10, None]]
    assert choose_cell(grid, 6, 23, 12) == (0, 4)


# --- errors ---


def test_full_grid_raises():
    with pytest.raises(ValueError, match="full"):
        choose_cell([[7] * 5 for _ in range(5)], 7, 25)


@pytest.mark.parametrize("value", [1, 13, 7.0, "7", None, True])
def test_bad_value_raises(value):
    with pytest.raises(ValueError, match="value"):
        choose_cell([[None] * 5 for _ in range(5)], value, 0)


@pytest.mark.parametrize("rolls_done", [1, -1, 25, "0", None])
def test_rolls_done_other_than_the_filled_cells_raises(rolls_done):
    with pytest.raises(ValueError, match="rolls_done"):
        choose_cell([[None] * 5 for _ in range(5)], 7, rolls_done)


@pytest.mark.parametrize(
    "grid",
    [
        [[None] * 5 for _ in range(4)],
        [[None] * 4 for _ in range(5)],
        [[1, *[None] * 4], *[[None] * 5 for _ in range(4)]],
        [[7.5, *[None] * 4], *[[None] * 5 for _ in range(4)]],
        "grid",
    ],
)
def test_bad_grid_raises(grid):
    with pytest.raises(ValueError):
        choose_cell(grid, 7, 0)


def test_bad_straight_value_raises():
    with pytest.raises(ValueError, match="straight"):
        choose_cell([[None] * 5 for _ in range(5)], 7, 0, 11)


def test_unknown_level_raises():
    with pytest.raises(ValueError, match="level"):
        choose_cell([[None] * 5 for _ in range(5)], 7, 0, level="perfect")


# --- whole games ---


def play(player, game, straight=12):
    """Total of one game seeded by its number; every placement goes through KnisterSheet.place,
    which refuses a filled cell."""
    dice, choices = random.Random(game), random.Random(10**6 + game)
    sheet = KnisterSheet()
    for rolls_done in range(25):
        value = roll(dice)
        if player == "greedy":
            cell = greedy_cell(sheet.grid, value, KnisterRules(straight), choices)
        else:
            cell = choose_cell(sheet.grid, value, rolls_done, straight, choices, level=player)
        sheet.place(cell, value)
    assert sheet.is_full
    return sheet.score(KnisterRules(straight)).total


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("straight", [10, 12])
def test_plays_whole_games_to_the_end(level, straight):
    for game in range(3):
        assert 0 <= play(level, game, straight) <= 12 * 10 + 2 * 12  # a full sheet's score


def test_strong_beats_greedy_and_casual_on_the_same_dice():
    games = range(40)
    strong = statistics.fmean(play("strong", g) for g in games)
    casual = statistics.fmean(play("casual", g) for g in games)
    greedy = statistics.fmean(play("greedy", g) for g in games)
    assert strong > casual > greedy
    assert strong > greedy + 15


# --- line patterns and values ---


def test_patterns_are_every_multiset_of_up_to_five_sums():
    assert PATTERN_COUNT == 1 + 11 + 66 + 286 + 1001 + 3003
    assert PATTERNS[CHILD[pattern_of([9, 4])][5 - 2]] == (4, 5, 9)
    assert CHILD[pattern_of([2, 2, 2, 2, 2])] == (-1,) * 11


def test_mirrored_patterns_share_a_class():
    assert SYMMETRY_CLASS[pattern_of([2, 3, 4, 5])] == SYMMETRY_CLASS[pattern_of([12, 11, 10, 9])]
    assert SYMMETRY_CLASS[pattern_of([2, 3])] != SYMMETRY_CLASS[pattern_of([2, 4])]
    assert len(set(SYMMETRY_CLASS)) == CLASS_COUNT


def test_sum_chances_are_the_two_dice_distribution():
    assert SUM_PROBABILITY == tuple(CHANCE[v] for v in SUMS)
    assert sum(SUM_PROBABILITY) == pytest.approx(1)


def test_full_line_points_follow_the_points_table():
    nsv = full_line_points(KnisterRules(12))
    seed = full_line_points(KnisterRules(10))
    assert nsv[pattern_of([8, 9, 10, 11, 12])] == 12
    assert seed[pattern_of([8, 9, 10, 11, 12])] == 10
    assert nsv[pattern_of([6, 6, 6, 9, 9])] == 8
    assert nsv[pattern_of([6, 6, 6, 9])] == 0  # not full


def test_blind_fill_value_of_2_3_4_5():
    """One blind roll: 2..5 make a pair (1 point, chance 10/36), 6 the straight without 7
    (12 points, 5/36), anything else nothing."""
    values = independent_fill_values(KnisterRules(12))
    assert values[pattern_of([2, 3, 4, 5])] == pytest.approx(10 / 36 + 12 * 5 / 36)


def test_shipped_tables_load_for_both_straight_values():
    for straight in (10, 12):
        values = stored_values(KnisterRules(straight))
        full = pattern_of([2, 3, 4, 5, 6])
        assert values.by_pattern[0][0][full] == straight
        assert values.by_pattern[1][7][full] == straight
        assert values.array.shape == (2, 25, PATTERN_COUNT + 1)
