"""The preview image of a shared daily result (Open Graph, 1200 x 630 PNG, Pillow): the
game and day, the player's score, par and rank; once the day is over also the player's
Knister grid or score sheet (docs/rules.md, "Daily challenges"). Rendered once per text
(kept in a small cache)."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
BACKGROUND, INK, ACCENT = (250, 246, 238), (34, 34, 34), (180, 60, 40)


FONT = "DejaVuSans.ttf"
"""The card's font (Debian's ``fonts-dejavu-core``, installed by the Dockerfile): it has the
letters of every language the site speaks (ä, ë, ß...), which Pillow's built-in font lacks."""


@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """``FONT`` at ``size`` pixels, Pillow's built-in font when it is not installed."""
    try:
        return ImageFont.truetype(FONT, size)
    except OSError:
        return ImageFont.load_default(size=size)


def _fitted(text: str, size: int, width: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font at ``size`` pixels, or smaller (down to 12) until ``text`` is at most
    ``width`` pixels wide."""
    while size > 12 and _font(size).getlength(text) > width:
        size -= 2
    return _font(size)


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


Sheet = tuple[tuple[tuple[str, int | None], ...], ...]
SHEET_LEFT, SHEET_TOP, SHEET_BOTTOM = 580, 160, 600  # the score sheet's columns on the right
SHEET_COLUMN, SHEET_GAP, LABEL_WIDTH = 270, 30, 200


def _sheet(draw: ImageDraw.ImageDraw, sheet: Sheet) -> None:
    """A score sheet (sections of ``(box name, points or None)``, e.g. the upper and the
    lower boxes) on the right of the card, one column per section (the first two), a rule
    under each box."""
    rows = max((len(section) for section in sheet), default=0)
    if not rows:
        return
    height = min(60, (SHEET_BOTTOM - SHEET_TOP) // rows)
    points_font = _font(min(32, height - 12))
    for k, section in enumerate(sheet[:2]):
        left = SHEET_LEFT + k * (SHEET_COLUMN + SHEET_GAP)
        right = left + SHEET_COLUMN
        for r, (label, points) in enumerate(section):
            y = SHEET_TOP + r * height
            middle = y + height / 2
            draw.text((left, middle), label, fill=INK,
                      font=_fitted(label, min(28, height - 14), LABEL_WIDTH), anchor="lm")
            if points is not None:
                draw.text((right, middle), str(points), fill=ACCENT, font=points_font,
                          anchor="rm")
            draw.line((left, y + height, right, y + height), fill=INK, width=1)


@lru_cache(maxsize=256)
def result_card(title: str, lines: tuple[str, ...], grid: Grid | None = None,
                sheet: Sheet | None = None) -> bytes:
    """A PNG (bytes) with ``title`` on top and ``lines`` (already translated text, at most
    four) below, large, and on the right a Knister ``grid`` or a score ``sheet`` (sections
    of translated box names and points: ``capabilities.GameSheet``) when given (only once
    the day is over); the same arguments give the same bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    if grid is not None:
        _grid(draw, grid)
    elif sheet is not None:
        _sheet(draw, sheet)
    draw.rectangle((0, 0, WIDTH, 24), fill=ACCENT)
    draw.text((60, 70), title, fill=INK, font=_fitted(title, 64, WIDTH - 120))
    room = (GRID_LEFT if grid is not None else SHEET_LEFT if sheet is not None else WIDTH) - 100
    y = 200
    for line in lines[:4]:
        draw.text((60, y), line, fill=INK, font=_fitted(line, 80 if y == 200 else 56, room))
        y += 110 if y == 200 else 80
    draw.text((60, HEIGHT - 80), "Knobel", fill=ACCENT, font=_font(44))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
