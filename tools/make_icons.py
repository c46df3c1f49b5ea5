"""Draw the app's icons (the favicon's die: a red rounded square with three white pips) as the
PNGs an installable web app needs: ``static/icons/icon-192.png``, ``icon-512.png`` and
``maskable-512.png`` (full bleed, the die's pips inside the maskable safe zone). Standard
library only; run ``python tools/make_icons.py`` after changing the design."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

RED = (0xC0, 0x39, 0x2B)
WHITE = (0xFF, 0xFF, 0xFF)
OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
SAMPLES = 3  # per axis, for smooth edges


def _inside_rounded(x: float, y: float, lo: float, hi: float, radius: float) -> bool:
    if not (lo <= x <= hi and lo <= y <= hi):
        return False
    cx = min(max(x, lo + radius), hi - radius)
    cy = min(max(y, lo + radius), hi - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def draw(size: int, maskable: bool) -> bytes:
    """RGBA rows of the icon at ``size`` pixels (the design in a 32-unit box)."""
    scale = size / 32
    pips = [(10, 10), (16, 16), (22, 22)]
    pip_r = 3.0
    if maskable:  # pips shrink towards the middle: the safe zone is the inner 80 %
        pips = [(16 + (x - 16) * 0.8, 16 + (y - 16) * 0.8) for x, y in pips]
        pip_r *= 0.8
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) / scale
                    y = (py + (sy + 0.5) / SAMPLES) / scale
                    if maskable or _inside_rounded(x, y, 2, 30, 6):
                        on_pip = any((x - cx) ** 2 + (y - cy) ** 2 <= pip_r ** 2
                                     for cx, cy in pips)
                        colour = WHITE if on_pip else RED
                        acc[0] += colour[0]
                        acc[1] += colour[1]
                        acc[2] += colour[2]
                        acc[3] += 255
            n = SAMPLES * SAMPLES
            alpha = acc[3] // n
            if alpha:
                rows += bytes((acc[0] * 255 // acc[3], acc[1] * 255 // acc[3],
                               acc[2] * 255 // acc[3], alpha))
            else:
                rows += b"\0\0\0\0"
    return bytes(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    """A PNG file of ``size`` x ``size`` RGBA pixels from filtered rows."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rgba_rows, 9)) + chunk(b"IEND", b""))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("maskable-512.png", 512, True)):
        (OUT / name).write_bytes(png(size, draw(size, maskable)))
        print(OUT / name)


if __name__ == "__main__":
    main()
