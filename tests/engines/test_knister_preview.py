"""Knister lines while they fill: what a line holds so far, scores now and can still become
(docs/rules.md, "Knister scoring")."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engines.knister import KnisterRules, classify_line, score_grid, score_line
from app.engines.knister_preview import LinePreview, preview_grid, preview_line, total_so_far

NSV = KnisterRules(12)
SUMS = st.integers(2, 12)
CELL = st.one_of(st.none(), SUMS)


@pytest.mark.parametrize(("line", "expected"), [
    ([5, 5, None, None, 9], LinePreview(3, "pair", 1, 8, "full_house", False)),
    ([None] * 5, LinePreview(0, "none", 0, 10, "five_of_a_kind", True)),
    ([4, 4, 8, 8, None], LinePreview(4, "two_pairs", 3, 8, "full_house", False)),
    ([7, 7, 7, None, None], LinePreview(3, "three_of_a_kind", 3, 10, "five_of_a_kind", False)),
    ([3, 5, None, 7, None], LinePreview(3, "none", 0, 8, "straight", True)),
    ([2, 4, 6, 8, None], LinePreview(4, "none", 0, 1, "pair", False)),
    ([2, 4, 6, 8, 10], LinePreview(5, "none", 0, 0, "none", False)),
    ([6, 6, 6, 9, 9], LinePreview(5, "full_house", 8, 8, "full_house", False)),
])
def test_a_line_so_far(line, expected) -> None:
    assert preview_line(line) == expected


def test_the_straight_option_changes_what_a_line_can_become() -> None:
    assert preview_line([2, 3, None, None, None], NSV).best == 12
    assert preview_line([None] * 5, NSV).best_combination == "straight_without_7"
    assert preview_line([8, 9, 10, 11, 12], NSV).now == 12


@pytest.mark.parametrize("line", [[1, None, None, None, None], [2, 3], [13] + [None] * 4])
def test_a_bad_line_is_refused(line) -> None:
    with pytest.raises(ValueError):
        preview_line(line)


@settings(max_examples=150, deadline=None)
@given(st.lists(CELL, min_size=5, max_size=5), st.sampled_from([KnisterRules(), NSV]))
def test_now_and_best_bound_every_way_to_fill_the_line(line, rules) -> None:
    preview = preview_line(line, rules)
    filled = [v for v in line if v is not None]
    points = [score_line(filled + list(rest), rules=rules)
              for rest in combinations_with_replacement(range(2, 13), 5 - len(filled))]
    assert preview.best == max(points)
    assert preview.now <= preview.best
    assert preview.straight_open == any(
        classify_line(filled + list(rest)).startswith("straight")
        for rest in combinations_with_replacement(range(2, 13), 5 - len(filled)))
    if len(filled) == 5:
        assert preview.now == score_line(filled, rules=rules)


def test_a_grid_has_twelve_previews_in_line_order() -> None:
    grid = [[5, 5, None, None, None]] + [[None] * 5 for _ in range(4)]
    previews = preview_grid(grid)
    assert len(previews) == 12
    assert previews[0].so_far == "pair"  # row 1
    assert previews[5].filled == 1 and previews[10].filled == 1  # column 1, diagonal ↘
    with pytest.raises(ValueError):
        preview_grid(grid[:4])


GRID = st.lists(st.lists(CELL, min_size=5, max_size=5), min_size=5, max_size=5)


@given(GRID, GRID, st.sampled_from([KnisterRules(), NSV]))
def test_previews_from_an_earlier_grid_equal_fresh_ones(old, new, rules) -> None:
    """Reusing the previews of unchanged lines (``before``) gives exactly the fresh ones,
    whatever changed between the two grids."""
    earlier = preview_grid(old, rules)
    assert preview_grid(new, rules, (old, earlier)) == preview_grid(new, rules)


@given(GRID, st.integers(0, 4), st.integers(0, 4), SUMS)
def test_one_placement_changes_only_the_lines_through_its_cell(grid, r, c, value) -> None:
    grid[r][c] = None
    before = preview_grid(grid)
    after_grid = [row[:] for row in grid]
    after_grid[r][c] = value
    after = preview_grid(after_grid, before=(grid, before))
    through = {r, 5 + c} | ({10} if r == c else set()) | ({11} if r + c == 4 else set())
    assert all(after[i] == before[i] for i in range(12) if i not in through)


# A sheet in play, worked by hand (docs/rules.md, "Knister scoring"): rows 5 5 . . 9 a pair
# (1), 7 7 7 . . three of a kind (3), 2 3 4 5 6 full: straight without 7 (10), empty (0),
# 8 8 . . 5 a pair (1); no column holds two equal sums (0); the diagonal 5 7 4 . 5 a pair
# (1, doubled: 2), the other 9 . 4 . 8 nothing. So far 1 + 3 + 10 + 0 + 1 + 2 = 17; the
# final-only total counts the one full line: 10.
SHEET_IN_PLAY = [[5, 5, None, None, 9],
                 [7, 7, 7, None, None],
                 [2, 3, 4, 5, 6],
                 [None] * 5,
                 [8, 8, None, None, 5]]


def test_the_total_so_far_adds_what_unfinished_lines_hold_now() -> None:
    assert total_so_far(preview_grid(SHEET_IN_PLAY)) == 17
    assert score_grid(SHEET_IN_PLAY).total == 10


def test_the_total_so_far_of_an_empty_sheet_is_zero_and_of_a_full_one_the_final_total() -> None:
    assert total_so_far(preview_grid([[None] * 5 for _ in range(5)])) == 0
    # docs/rules.md's worked example: 45 (49 with straights without 7 worth 12)
    full = [[2, 3, 4, 5, 6], [8, 9, 10, 11, 12], [7, 7, 7, 7, 7], [6, 6, 6, 9, 9],
            [4, 4, 8, 8, 11]]
    assert total_so_far(preview_grid(full)) == 45
    assert total_so_far(preview_grid(full, KnisterRules(straight_without_seven=12))) == 49


def test_the_total_so_far_needs_twelve_lines() -> None:
    with pytest.raises(ValueError):
        total_so_far(preview_grid(SHEET_IN_PLAY)[:11])
