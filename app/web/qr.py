"""QR codes of share links (segno), as inline SVG for a page."""

from __future__ import annotations

from functools import lru_cache

import segno


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """An inline ``<svg>`` QR code of ``url`` (error correction M, black on white); the
    latest 256 are kept, as encoding one costs a few milliseconds (bench/groups.py).

    ``omitsize``: a viewBox only, so the code scales into its box instead of being cut off."""
    return segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff",
                                                 omitsize=True)
