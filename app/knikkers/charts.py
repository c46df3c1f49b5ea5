"""Geometry for the server-rendered SVG charts on the player page (no chart library).

Both functions return plain numbers for ``templates/knikkers/player.html`` to draw, in a
``width`` x ``height`` viewBox with a left and bottom margin for the labels.
"""

from __future__ import annotations

from dataclasses import dataclass

# Margins of the chart area inside the viewBox: room on the left for a grouped 5-digit score
# (``12.345``) and below for the labels, so nothing is drawn outside the axes.
LEFT, BOTTOM, TOP, RIGHT = 60, 26, 12, 12


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


@dataclass
class Frame:
    """The axes of a ``width`` x ``height`` chart: the plot area is ``left``..``right`` by
    ``top``..``bottom`` (SVG y grows downwards); ``label_y`` is the baseline of the labels
    under the x axis and ``tick_x`` the right edge of the value labels left of the y axis."""

    left: float
    right: float
    top: float
    bottom: float
    label_y: float
    tick_x: float

    @classmethod
    def of(cls, width: int, height: int) -> Frame:
        """The frame of a chart of that size with the module's margins."""
        return cls(left=LEFT, right=width - RIGHT, top=TOP, bottom=height - BOTTOM,
                   label_y=height - 6, tick_x=LEFT - 6)


def nice_max(value: int) -> int:
    """The smallest of 10, 20, 50, 100, 200, 500, ... that is >= ``value`` (at least 10)."""
    base = 10
    while True:
        for factor in (1, 2, 5):
            if base * factor >= value:
                return base * factor
        base *= 10


def score_line(
    scores: list[int], width: int = 600, height: int = 220, max_dots: int | None = None
) -> dict[str, object]:
    """The polyline of ``scores`` in order (oldest left) scaled into the chart area.

    Returns ``{"points": "x,y x,y ...", "dots": [(x, y, score)], "y_max": int,
    "ticks": [(y, value)], "frame": Frame}``; an empty ``points`` for no scores. With
    ``max_dots``, ``dots`` is empty for more scores than that (the dots, each with its score
    as a tooltip, would lie on top of each other; the line shows them).
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
        "dots": dots if max_dots is None or n <= max_dots else [],
        "y_max": top,
        "ticks": ticks,
        "frame": Frame.of(width, height),
    }


def histogram(scores: list[int], bins: int = 10, width: int = 600, height: int = 220) -> dict:
    """Equal-width bins over [0, nice maximum] of ``scores``.

    Returns ``{"bars": [Bar], "count_max": int, "frame": Frame}``; bars of zero games have
    height 0; every bar lies inside the frame (on or above its x axis, right of its y axis).
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
    return {"bars": bars, "count_max": count_max, "frame": Frame.of(width, height)}
