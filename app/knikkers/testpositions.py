"""Test-only start positions (served only when ``settings.test_hooks`` is on).

The browser tests reach a game's end screen from a near-full test position
(docs/testing.md).
"""

from __future__ import annotations

from app.knikkers.log import Start

SIZE = 9


def near_full(free: int = 9) -> Start:
    """A 9x9 board with ``free`` empty cells (1..81) and no line anywhere, upcoming (0, 1, 2).

    Colour of (r, c) is ``(2r + c) % 7``: neighbours differ by 1, 2, 3 or 1 along the four line
    directions, so no two touching balls share a colour. The empty cells are taken from the
    centre outwards, so the balls around them can move. Raises ValueError for ``free`` outside
    1..81.
    """
    if not 1 <= free <= SIZE * SIZE:
        raise ValueError("free must be 1..81")
    board: list[list[int | None]] = [
        [(2 * r + c) % 7 for c in range(SIZE)] for r in range(SIZE)
    ]
    centre = sorted(
        ((r, c) for r in range(SIZE) for c in range(SIZE)),
        key=lambda rc: (max(abs(rc[0] - 4), abs(rc[1] - 4)), rc),
    )
    for r, c in centre[:free]:
        board[r][c] = None
    return board, [0, 1, 2]
