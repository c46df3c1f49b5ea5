"""Knister rules (docs/rules.md, Knister; seed 000_30715a6c3153a139.txt)."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engines.knister import (
    COMBINATIONS,
    LINES,
    CellTaken,
    KnisterRules,
    KnisterSheet,
    PlacementError,
    auto_cell,
    classify_line,
    score_grid,
    score_line,
)

NSV = KnisterRules(straight_without_seven=12)

# Diagonal 0 holds five 2s; every row, column and diagonal 1 holds 2, 4, 6, 8, 10 once each.
DIAGONAL_ONLY = [[2 + 2 * ((c - r) % 5) for c in range(5)] for r in range(5)]
ALL_SEVENS = [[7] * 5 for _ in range(5)]


# --- the points table, one row each (docs/rules.md, Knister) ---


def test_pair_scores_1():
    assert score_line([5, 5, 2, 9, 11]) == 1


def test_two_pairs_score_3():
    assert score_line([5, 5, 9, 9, 11]) == 3


def test_three_of_a_kind_scores_3():
    assert score_line([6, 6, 6, 2, 12]) == 3


def test_full_house_scores_8():
    assert score_line([6, 6, 6, 12, 12]) == 8


def test_four_of_a_kind_scores_6():
    assert score_line([8, 8, 8, 8, 3]) == 6


def test_five_of_a_kind_scores_10():
    assert score_line([4, 4, 4, 4, 4]) == 10


@pytest.mark.parametrize("line", [[3, 4, 5, 6, 7], [4, 5, 6, 7, 8], [7, 8, 9, 10, 11]])
def test_straight_with_a_7_scores_8(line):
    assert score_line(line) == 8


@pytest.mark.parametrize("line", [[2, 3, 4, 5, 6], [8, 9, 10, 11, 12]])
def test_straight_without_a_7_scores_10(line):
    assert score_line(line) == 10


def test_anything_else_scores_0():
    assert score_line([2, 4, 6, 8, 10]) == 0


# --- the finer points ---


def test_order_inside_the_line_does_not_matter_for_a_straight():
    assert score_line([11, 8, 10, 12, 9]) == 10


def test_a_repeated_number_breaks_a_straight():
    assert classify_line([4, 5, 5, 7, 8]) == "pair"
    assert score_line([4, 5, 5, 7, 8]) == 1


@pytest.mark.parametrize("line", [[2, 3, 4, 5, 6], [12, 11, 10, 9, 8]])
def test_nsv_option_makes_a_straight_without_7_worth_12(line):
    assert score_line(line, rules=NSV) == 12


def test_nsv_option_leaves_a_straight_with_7_at_8():
    assert score_line([5, 6, 7, 8, 9], rules=NSV) == 8


@pytest.mark.parametrize("value", [8, 11, 0])
def test_rules_accept_only_10_or_12_for_a_straight_without_7(value):
    with pytest.raises(ValueError):
        KnisterRules(straight_without_seven=value)


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ([2, 4, 6, 8, 10], "none"),
        ([5, 5, 2, 9, 11], "pair"),
        ([5, 5, 9, 9, 11], "two_pairs"),
        ([6, 6, 6, 2, 12], "three_of_a_kind"),
        ([6, 6, 6, 12, 12], "full_house"),
        ([8, 8, 8, 8, 3], "four_of_a_kind"),
        ([4, 4, 4, 4, 4], "five_of_a_kind"),
        ([3, 4, 5, 6, 7], "straight"),
        ([2, 3, 4, 5, 6], "straight_without_7"),
    ],
)
def test_classify_line_names_the_combination(line, name):
    assert classify_line(line) == name


@pytest.mark.parametrize(
    "line",
    [[2, 3, 4, 5], [2, 3, 4, 5, 6, 7], [1, 3, 4, 5, 6], [2, 3, 4, 5, 13], [2, 3, None, 5, 6]],
)
def test_score_line_refuses_anything_but_five_sums_2_to_12(line):
    with pytest.raises(ValueError):
        score_line(line)


@pytest.mark.parametrize("line", [[2.0, 3, 4, 5, 6], ["2", "3", "4", "5", "6"], 23456])
def test_classify_line_refuses_non_int_values(line):
    with pytest.raises(ValueError):
        classify_line(line)


def test_score_line_refuses_rules_of_the_wrong_type():
    with pytest.raises(ValueError):
        score_line([2, 3, 4, 5, 6], rules=12)  # type: ignore[arg-type]


# --- whole grids ---


def test_diagonals_count_double():
    score = score_grid(DIAGONAL_ONLY)
    assert score.diagonals == (10, 0)
    assert score.rows == (0, 0, 0, 0, 0)
    assert score.cols == (0, 0, 0, 0, 0)
    assert score.total == 20


def test_every_line_of_a_full_grid_scores():
    assert score_grid(ALL_SEVENS).total == 10 * 10 + 2 * 2 * 10


def test_lines_with_an_empty_cell_score_0():
    grid = [row[:] for row in ALL_SEVENS]
    grid[0][1] = None  # row 0 and column 1 lose their five of a kind
    score = score_grid(grid)
    assert score.rows == (0, 10, 10, 10, 10)
    assert score.cols == (10, 0, 10, 10, 10)
    assert score.total == 8 * 10 + 2 * 2 * 10


def test_an_empty_cell_on_both_diagonals_zeroes_them():
    grid = [row[:] for row in DIAGONAL_ONLY]
    grid[2][2] = None
    assert score_grid(grid).total == 0


def test_an_empty_grid_scores_0():
    assert score_grid([[None] * 5 for _ in range(5)]).total == 0


def test_grid_score_uses_the_nsv_option():
    # Rows and both diagonals are the straight 2-6; every column is five of a kind.
    grid = [[2, 3, 4, 5, 6] for _ in range(5)]
    assert score_grid(grid).total == 5 * 10 + 5 * 10 + 2 * (10 + 10)
    assert score_grid(grid, NSV).total == 5 * 12 + 5 * 10 + 2 * (12 + 12)


def test_line_breakdown_names_cells_combination_and_doubled_points():
    line = score_grid(DIAGONAL_ONLY).lines[10]
    assert line.kind == "diag"
    assert line.index == 0
    assert line.cells == ((0, 0), (1, 1), (2, 2), (3, 3), (4, 4))
    assert line.combination == "five_of_a_kind"
    assert (line.points, line.counted) == (10, 20)


def test_diagonal_1_runs_from_the_top_right_corner():
    assert LINES[11][2] == ((0, 4), (1, 3), (2, 2), (3, 1), (4, 0))


def test_line_breakdown_lists_rows_then_columns_then_diagonals():
    kinds = [(line.kind, line.index) for line in score_grid(ALL_SEVENS).lines]
    assert kinds == [("row", i) for i in range(5)] + [("col", i) for i in range(5)] + [
        ("diag", 0),
        ("diag", 1),
    ]


@pytest.mark.parametrize(
    "grid",
    [
        [[7] * 5] * 4,
        [[7] * 5] * 4 + [[7] * 6],
        [[7] * 5] * 4 + [[7, 7, 7, 7, 13]],
        [[7] * 5] * 4 + [[7, 7, 7, 7, "7"]],
        None,
    ],
)
def test_score_grid_refuses_a_bad_grid(grid):
    with pytest.raises(ValueError):
        score_grid(grid)


# --- the sheet ---


def test_sheet_places_a_number_in_an_empty_cell():
    sheet = KnisterSheet()
    sheet.place((1, 3), 9)
    assert sheet.grid[1][3] == 9
    assert len(sheet.empty_cells()) == 24


def test_sheet_refuses_a_filled_cell_and_changes_nothing():
    sheet = KnisterSheet()
    sheet.place((0, 0), 7)
    with pytest.raises(CellTaken):
        sheet.place((0, 0), 8)
    assert sheet.grid[0][0] == 7
    assert len(sheet.empty_cells()) == 24


@pytest.mark.parametrize("cell", [(5, 0), (0, 5), (-1, 0), (1,), "a1", (1.0, 2)])
def test_sheet_refuses_a_cell_off_the_grid(cell):
    sheet = KnisterSheet()
    with pytest.raises(PlacementError):
        sheet.place(cell, 7)
    assert sheet.empty_cells() == KnisterSheet().empty_cells()


@pytest.mark.parametrize("value", [1, 13, 7.0, True, None])
def test_sheet_refuses_a_value_outside_2_to_12(value):
    sheet = KnisterSheet()
    with pytest.raises(PlacementError):
        sheet.place((0, 0), value)
    assert sheet.grid[0][0] is None


def test_sheet_is_full_after_25_placements():
    sheet = KnisterSheet()
    for r in range(5):
        for c in range(5):
            assert not sheet.is_full
            sheet.place((r, c), 7)
    assert sheet.is_full
    assert sheet.score().total == 140


def test_sheet_from_grid_copies_the_grid():
    grid = [row[:] for row in DIAGONAL_ONLY]
    sheet = KnisterSheet.from_grid(grid)
    grid[0][0] = 12
    assert sheet.grid == DIAGONAL_ONLY
    assert sheet.score().total == 20


def test_sheet_grid_is_a_copy():
    sheet = KnisterSheet()
    sheet.grid[0][0] = 5
    assert sheet.grid[0][0] is None


@pytest.mark.parametrize("grid", [[[7] * 5] * 4, [[7] * 5] * 4 + [[7, 7, 7, 7, 7.0]]])
def test_sheet_from_grid_refuses_a_bad_grid(grid):
    with pytest.raises(ValueError):
        KnisterSheet.from_grid(grid)


# --- automatic placement ---


def test_auto_cell_keeps_the_diagonals_free_on_an_empty_sheet():
    assert auto_cell(KnisterSheet(), 7) == (0, 1)


def test_auto_cell_joins_matching_numbers_weighing_the_diagonal_double():
    sheet = KnisterSheet()
    sheet.place((0, 0), 7)
    sheet.place((0, 1), 7)
    # (1, 1) pairs with column 1's 7 and diagonal 0's 7 (doubled): gain 3 beats row 0's gain 2.
    assert auto_cell(sheet, 7) == (1, 1)


def test_auto_cell_takes_the_last_empty_cell():
    grid = [row[:] for row in ALL_SEVENS]
    grid[3][2] = None
    assert auto_cell(KnisterSheet.from_grid(grid), 12) == (3, 2)


def test_auto_cell_refuses_a_full_sheet():
    with pytest.raises(PlacementError):
        auto_cell(KnisterSheet.from_grid(ALL_SEVENS), 7)


# --- properties ---

sums = st.integers(min_value=2, max_value=12)
lines = st.lists(sums, min_size=5, max_size=5)
cells = st.one_of(st.none(), sums)
grids = st.lists(st.lists(cells, min_size=5, max_size=5), min_size=5, max_size=5)


def reference_points(line: list[int], straight_without_seven: int = 10) -> int:
    """The docs/rules.md table written out plainly, as an oracle for the precomputed tables."""
    counts = sorted(Counter(line).values(), reverse=True)
    if counts == [1, 1, 1, 1, 1] and max(line) - min(line) == 4:
        return 8 if 7 in line else straight_without_seven
    return {
        (5,): 10,
        (4, 1): 6,
        (3, 2): 8,
        (3, 1, 1): 3,
        (2, 2, 1): 3,
        (2, 1, 1, 1): 1,
    }.get(tuple(counts), 0)


@given(lines, st.sampled_from([10, 12]))
def test_line_score_matches_the_plain_table(line, straight_without_seven):
    rules = KnisterRules(straight_without_seven)
    assert score_line(line, rules=rules) == reference_points(line, straight_without_seven)


@given(lines.flatmap(lambda line: st.tuples(st.just(line), st.permutations(line))))
def test_line_score_is_order_independent(pair):
    line, shuffled = pair
    assert score_line(shuffled) == score_line(line)
    assert classify_line(shuffled) == classify_line(line)


@given(grids)
def test_grid_total_is_rows_plus_cols_plus_twice_the_diagonals(grid):
    def points(cells):
        values = [grid[r][c] for r, c in cells]
        return 0 if None in values else score_line(values)

    rows = [points(cells) for kind, _, cells in LINES if kind == "row"]
    cols = [points(cells) for kind, _, cells in LINES if kind == "col"]
    diagonals = [points(cells) for kind, _, cells in LINES if kind == "diag"]
    score = score_grid(grid)
    assert score.rows == tuple(rows)
    assert score.cols == tuple(cols)
    assert score.diagonals == tuple(diagonals)
    assert score.total == sum(rows) + sum(cols) + 2 * sum(diagonals)
    assert score.total == sum(line.counted for line in score.lines)


@given(grids)
def test_grid_combinations_are_known_ids(grid):
    assert set(score_grid(grid).combinations) <= set(COMBINATIONS)


@given(st.lists(sums, min_size=25, max_size=25))
def test_auto_cell_fills_a_whole_sheet(values):
    sheet = KnisterSheet()
    for value in values:
        cell = auto_cell(sheet, value)
        assert cell in sheet.empty_cells()
        sheet.place(cell, value)
    assert sheet.is_full
