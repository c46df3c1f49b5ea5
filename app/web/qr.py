"""QR codes of share links (segno), as inline SVG for a page."""

from __future__ import annotations

import segno


def qr_svg(url: str) -> str:
    """An inline ``<svg>`` QR code of ``url`` (error correction M, black on white).

    ``omitsize``: a viewBox only, so the code scales into its box instead of being cut off."""
    return segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff",
                                                 omitsize=True)
