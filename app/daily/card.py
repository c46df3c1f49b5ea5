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


@lru_cache(maxsize=256)
def result_card(title: str, lines: tuple[str, ...]) -> bytes:
    """A PNG (bytes) with ``title`` on top and ``lines`` (already translated text, at most
    four) below, large; the same arguments give the same bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
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
