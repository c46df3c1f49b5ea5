"""Geometry for the server-rendered SVG charts on the player page (no chart library).

Both functions return plain numbers for ``templates/knikkers/player.html`` to draw, in a
``width`` x ``height`` viewBox with a left and bottom margin for the labels.
"""

from __future__ import annotations

from dataclasses import dataclass

LEFT, BOTTOM, TOP, RIGHT = 40, 20, 10, 10


@dataclass
class Bar:
    """One histogram bar: its box, the score range [low, high) and how many games fell in it."""

    x: float
    y: float
    w: float
    h: float
    low: int
    high: int
    count: int


def nice_max(value: int) -> int:
    """The smallest of 10, 20, 50, 100, 200, 500, ... that is >= ``value`` (at least 10)."""
    base = 10
    while True:
        for factor in (1, 2, 5):
            if base * factor >= value:
                return base * factor
        base *= 10


def score_line(
    scores: list[int], width: int = 600, height: int = 220
) -> dict[str, object]:
    """The polyline of ``scores`` in order (oldest left) scaled into the chart area.

    Returns ``{"points": "x,y x,y ...", "dots": [(x, y, score)], "y_max": int,
    "ticks": [(y, value)]}``; an empty ``points`` for no scores.
    """
    top = nice_max(max(scores, default=0))
    inner_w, inner_h = width - LEFT - RIGHT, height - TOP - BOTTOM
    n = len(scores)
    dots = []
    for i, score in enumerate(scores):
        x = LEFT + (inner_w * i / (n - 1) if n > 1 else inner_w / 2)
        y = TOP + inner_h * (1 - score / top)
        dots.append((round(x, 1), round(y, 1), score))
    ticks = [(round(TOP + inner_h * (1 - k / 4), 1), top * k // 4) for k in range(5)]
    return {
        "points": " ".join(f"{x},{y}" for x, y, _ in dots),
        "dots": dots,
        "y_max": top,
        "ticks": ticks,
    }


def histogram(scores: list[int], bins: int = 10, width: int = 600, height: int = 220) -> dict:
    """Equal-width bins over [0, nice maximum] of ``scores``.

    Returns ``{"bars": [Bar], "count_max": int}``; bars of zero games have height 0.
    """
    top = nice_max(max(scores, default=0) + 1)
    size = max(1, -(-top // bins))
    counts = [0] * bins
    for score in scores:
        counts[min(bins - 1, score // size)] += 1
    count_max = max(counts) or 1
    inner_w, inner_h = width - LEFT - RIGHT, height - TOP - BOTTOM
    bar_w = inner_w / bins
    bars = []
    for i, count in enumerate(counts):
        h = inner_h * count / count_max
        bars.append(
            Bar(
                x=round(LEFT + i * bar_w + 1, 1),
                y=round(TOP + inner_h - h, 1),
                w=round(bar_w - 2, 1),
                h=round(h, 1),
                low=i * size,
                high=(i + 1) * size,
                count=count,
            )
        )
    return {"bars": bars, "count_max": count_max}
