"""Pure helpers: period boards (UTC, weeks from Monday), chart geometry, the animation data,
the near-full test position."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from app.engines.knikkers import Game
from app.knikkers import charts, view
from app.knikkers.periods import board_keys, period_board, period_range
from app.knikkers.testpositions import near_full
from app.knikkers.variants import parse_variant


def test_board_keys_of_a_game_name_its_periods_and_its_daily_board() -> None:
    moment = datetime(2026, 11, 29, 23, 59, 59, tzinfo=UTC)  # a Sunday
    assert board_keys(moment, None) == [
        "all", "month:2026-11-01", "week:2026-11-23", "day:2026-11-29"]
    assert board_keys(moment, date(2026, 11, 29))[-1] == "daily:2026-11-29"


def test_periods_are_utc() -> None:
    from zoneinfo import ZoneInfo

    late_in_berlin = datetime(2026, 1, 1, 0, 30, tzinfo=ZoneInfo("Europe/Berlin"))
    assert period_board("today", late_in_berlin) == "day:2025-12-31"
    assert period_board("month", late_in_berlin) == "month:2025-12-01"


def test_period_ranges_roll_over_months_and_years() -> None:
    now = datetime(2026, 12, 31, 12, tzinfo=UTC)
    assert period_range("month", now) == (datetime(2026, 12, 1, tzinfo=UTC),
                                          datetime(2027, 1, 1, tzinfo=UTC))
    assert period_range("week", now) == (datetime(2026, 12, 28, tzinfo=UTC),
                                         datetime(2027, 1, 4, tzinfo=UTC))
    assert period_range("today", now)[1] - period_range("today", now)[0] == timedelta(days=1)
    assert period_range("all", now) is None
    with pytest.raises(ValueError):
        period_board("year", now)


def test_variants_parse_only_5_and_4() -> None:
    assert [parse_variant(v) for v in ("5", 4, " 4 ", "6", "x", None)] == [5, 4, 4, None, None,
                                                                           None]


def test_nice_axis_maxima() -> None:
    assert [charts.nice_max(v) for v in (0, 10, 11, 21, 99, 101, 4999)] == [
        10, 10, 20, 50, 100, 200, 5000]


def test_the_histogram_counts_every_score_once() -> None:
    scores = [0, 10, 10, 24, 42, 98, 100, 180]
    hist = charts.histogram(scores, bins=10)
    assert sum(bar.count for bar in hist["bars"]) == len(scores)
    assert hist["bars"][0].low == 0 and hist["bars"][-1].high >= max(scores)
    frame = hist["frame"]
    assert max(bar.h for bar in hist["bars"]) == frame.bottom - frame.top  # spans the plot


def test_the_score_line_runs_left_to_right_and_bottom_up() -> None:
    line = charts.score_line([0, 50, 100])
    xs = [x for x, _y, _s in line["dots"]]
    ys = [y for _x, y, _s in line["dots"]]
    assert xs == sorted(xs) and ys == sorted(ys, reverse=True)
    assert line["y_max"] == 100


def test_animation_data_names_the_path_the_cleared_balls_and_the_spawned_cells() -> None:
    board = [[None] * 9 for _ in range(9)]
    for c in range(4):
        board[0][c] = 2
    board[4][4] = 2
    game = Game.from_position(board, [0, 1, 3], 5, 0)
    before = game.board
    result = game.move((4, 4), (0, 4))
    data = view.animation(result, before)
    assert data["path"].split()[0] == "4,4" and data["path"].split()[-1] == "0,4"
    assert data["cleared"] == "0,0,2 0,1,2 0,2,2 0,3,2 0,4,2"
    assert data["points"] == "10" and data["spawned"] == ""
    assert view.animation(None, None) == {}


def test_durations() -> None:
    assert [view.duration(s) for s in (0, 59, 61, 3600, 3725)] == [
        "0:00", "0:59", "1:01", "1:00:00", "1:02:05"]


def test_the_near_full_position_has_no_line_and_its_free_cells_in_the_centre() -> None:
    board, upcoming = near_full(9)
    game = Game.from_position(board, upcoming, 4, 1)
    free = {(r, c) for r in range(9) for c in range(9) if board[r][c] is None}
    assert free == {(r, c) for r in (3, 4, 5) for c in (3, 4, 5)}
    assert game.score == 0 and not game.over
    for r in range(9):
        for c in range(8):
            if board[r][c] is not None and board[r][c + 1] is not None:
                assert board[r][c] != board[r][c + 1]
    with pytest.raises(ValueError):
        near_full(0)
