"""The player page's charts stay inside their axes (issue 12: the histogram's bars reached
below its x axis), whatever the scores, 5-digit ones too."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.knikkers.charts import histogram, score_line

SCORES = st.lists(st.integers(min_value=0, max_value=99_999), min_size=1, max_size=60)


@given(SCORES)
def test_every_histogram_bar_lies_between_the_axes(scores: list[int]) -> None:
    hist = histogram(scores)
    f = hist["frame"]
    assert sum(bar.count for bar in hist["bars"]) == len(scores)
    for bar in hist["bars"]:
        assert f.left <= bar.x and bar.x + bar.w <= f.right
        assert f.top <= bar.y and bar.y + bar.h <= f.bottom
        assert bar.h >= 0
    tallest = max(hist["bars"], key=lambda bar: bar.count)
    assert tallest.y == f.top and tallest.y + tallest.h == f.bottom


@given(SCORES)
def test_every_point_of_the_score_line_lies_between_the_axes(scores: list[int]) -> None:
    line = score_line(scores)
    f = line["frame"]
    for x, y, _score in line["dots"]:
        assert f.left <= x <= f.right and f.top <= y <= f.bottom
    assert [y for y, _value in line["ticks"]][0] == f.bottom
    assert line["ticks"][-1] == (f.top, line["y_max"])


def test_the_labels_have_room_left_of_the_y_axis_and_under_the_x_axis() -> None:
    f = histogram([12345])["frame"]
    assert f.tick_x < f.left and f.tick_x >= 48  # "12.345" at 15px needs about 48px
    assert f.bottom < f.label_y <= 220
