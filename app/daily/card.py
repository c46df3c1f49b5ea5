"""The preview image of a shared daily result (Open Graph, 1200 x 630 PNG, Pillow): the
game and day, the player's score, par and rank; no grid and no roll (docs/rules.md, "Daily
challenges"). Rendered once per text (kept in a small cache)."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
BACKGROUND, INK, ACCENT = (250, 246, 238), (34, 34, 34), (180, 60, 40)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in font at ``size`` pixels (no font file needed)."""
    return ImageFont.load_default(size=size)


Grid = tuple[tuple[int | None, ...], ...]
GRID_LEFT, GRID_TOP, CELL = 700, 160, 88  # the 5 x 5 grid on the right, 88 px cells


def _grid(draw: ImageDraw.ImageDraw, grid: Grid) -> None:
    """A Knister grid (5 rows of 5 sums or None) on the right of the card."""
    font = _font(44)
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            x, y = GRID_LEFT + c * CELL, GRID_TOP + r * CELL
            draw.rectangle((x, y, x + CELL, y + CELL), outline=INK, width=3)
            if value is not None:
                draw.text((x + CELL / 2, y + CELL / 2), str(value), fill=INK, font=font,
                          anchor="mm")


@lru_cache(maxsize=256)
def result_card(title: str, lines: tuple[str, ...], grid: Grid | None = None) -> bytes:
    """A PNG (bytes) with ``title`` on top and ``lines`` (already translated text, at most
    four) below, large, and a Knister ``grid`` on the right when given (only once the day
    is over); the same arguments give the same bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    if grid is not None:
        _grid(draw, grid)
    draw.rectangle((0, 0, WIDTH, 24), fill=ACCENT)
    draw.text((60, 70), title, fill=INK, font=_font(64))
    y = 200
    for line in lines[:4]:
        draw.text((60, y), line, fill=INK, font=_font(80 if y == 200 else 56))
        y += 110 if y == 200 else 80
    draw.text((60, HEIGHT - 80), "Knobel", fill=ACCENT, font=_font(44))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
