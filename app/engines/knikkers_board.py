"""Knikkers (Color Lines) board mechanics: geometry, input checks, paths, lines, spawning, points.

The pure building blocks of :class:`app.engines.knikkers.Game` (docs/rules.md, section "Knikkers
(Color Lines)"; rule text 001). The board is a flat list of 81 cells (index
``row * 9 + col``), each a colour 0..6 or None; coordinates are ``(row, col)``, 0-based from the
top-left. Where and in which colour balls appear is in :mod:`app.engines.knikkers_seed`.
Pure: no I/O, no clock, no randomness of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.engines.knikkers_seed import CELLS, COLOURS, SIZE, landing_cell, spawn_colour

Cell = tuple[int, int]
Action = tuple[str, Cell, Cell] | tuple[str]

MIN_LINES = (4, 5)
UPCOMING = 3
MAX_SEED = 2**63 - 1

# Orthogonal steps in the fixed BFS order: up, right, down, left (seed, step 2: "omhoog, omlaag,
# naar links of naar rechts, nooit schuin").
_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
# Line directions: horizontal, vertical, diagonal down-right, diagonal down-left (docs/rules.md,
# Knikkers: "horizontal, vertical, both diagonals").
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def on_board(r: int, c: int) -> bool:
    return 0 <= r < SIZE and 0 <= c < SIZE


def _ray(r: int, c: int, dr: int, dc: int) -> tuple[int, ...]:
    """Flat indices from (r, c) stepping by (dr, dc), excluding (r, c), up to the board's edge."""
    out = []
    r, c = r + dr, c + dc
    while on_board(r, c):
        out.append(r * SIZE + c)
        r, c = r + dr, c + dc
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple((r + dr) * SIZE + c + dc for dr, dc in _STEPS if on_board(r + dr, c + dc))
    for r in range(SIZE)
    for c in range(SIZE)
)
# RAYS[i] = ((backward, forward) for each of the 4 directions), nearest cell first.
RAYS: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = tuple(
    tuple((_ray(r, c, -dr, -dc), _ray(r, c, dr, dc)) for dr, dc in _DIRECTIONS)
    for r in range(SIZE)
    for c in range(SIZE)
)
COORDS: tuple[Cell, ...] = tuple((i // SIZE, i % SIZE) for i in range(CELLS))


def line_points(length: int, min_line: int) -> int:
    """Return the points for one cleared line of ``length`` balls in the ``min_line`` variant.

    Args: length >= 0 (balls in the line); min_line 4 ("4 op een rij") or 5 ("5 op een rij").
    Returns: ``length * (length - min_line + 1) * 2``, or 0 when ``length < min_line``
    (5-variant: 5 -> 10, 6 -> 24, 7 -> 42; 4-variant: 4 -> 8, 5 -> 20).
    Raises: ValueError for min_line not in (4, 5) or a negative or non-int length.
    Rule source: docs/rules.md, Knikkers ("Points for one line of n balls"); rule text 001,
    "Scoretelling".
    """
    if type(min_line) is not int or min_line not in MIN_LINES:
        raise ValueError(f"min_line must be 4 or 5, not {min_line!r}")
    if type(length) is not int or length < 0:
        raise ValueError(f"length must be an int >= 0, not {length!r}")
    if length < min_line:
        return 0
    return length * (length - min_line + 1) * 2


# POINTS[min_line][n]: line_points(n, min_line) for every line length that fits on the board.
POINTS = {m: tuple(line_points(n, m) for n in range(SIZE + 1)) for m in MIN_LINES}


class IllegalMove(ValueError):
    """An action the rules refuse (docs/rules.md, Knikkers: "Anything else is rejected and changes
    nothing"). Raised by ``Game.move``, ``Game.undo``, ``Game.reachable`` and ``Game.replay``."""




def cell_index(coord: Any, name: str) -> int:
    """Return the flat index of ``coord`` (a (row, col) pair of ints); IllegalMove otherwise."""
    if not isinstance(coord, (tuple, list)) or len(coord) != 2:
        raise IllegalMove(f"{name} must be a (row, col) pair, not {coord!r}")
    r, c = coord
    if type(r) is not int or type(c) is not int:
        raise IllegalMove(f"{name} must be a (row, col) pair of ints, not {coord!r}")
    if not on_board(r, c):
        raise IllegalMove(f"{name} {(r, c)} is out of the board")
    return r * SIZE + c


def find_path(cells: list[int | None], src: int, dst: int) -> list[int] | None:
    """Return the flat cells of a shortest orthogonal path src..dst through empty cells, or None.

    Breadth-first search with neighbours in the fixed order up, right, down, left, so the path is
    the same on every run: each cell's predecessor is the first cell that reached it. ``prev`` is a
    copy of the board, so balls count as already visited and one test per neighbour suffices.
    Rule source: docs/rules.md, Knikkers ("reachable through empty cells by orthogonal steps (never
    diagonal, never through balls)"); rule text 001, step 2.
    """
    prev: list[int | None] = cells[:]
    prev[src] = src
    queue = [src]
    push = queue.append
    for i in queue:
        for j in NEIGHBOURS[i]:
            if prev[j] is None:
                prev[j] = i
                if j == dst:
                    path = [dst]
                    while j != src:
                        j = prev[j]  # type: ignore[assignment]  # set by the search above
                        path.append(j)
                    path.reverse()
                    return path
                push(j)
    return None


def lines_through(cells: list[int | None], i: int, min_line: int) -> list[tuple[int, ...]]:
    """Return every line of >= min_line balls of the colour at ``i`` that passes through ``i``.

    One line per direction at most (horizontal, vertical, down-right, down-left), each a tuple of
    flat cells in board order. Rule source: docs/rules.md, Knikkers ("every line of >= min balls of
    one colour through the moved ball (horizontal, vertical, both diagonals)").
    """
    colour = cells[i]
    found = []
    for back, fwd in RAYS[i]:
        nb = 0
        for j in back:
            if cells[j] != colour:
                break
            nb += 1
        nf = 0
        for j in fwd:
            if cells[j] != colour:
                break
            nf += 1
        if nb + nf + 1 >= min_line:
            found.append(back[nb - 1 :: -1] + (i,) + fwd[:nf] if nb else (i,) + fwd[:nf])
    return found


def check_seed(seed: Any) -> int:
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be an int in 0..2**63-1, not {seed!r}")
    return seed


def check_min_line(min_line: Any) -> int:
    if type(min_line) is not int or min_line not in MIN_LINES:
        raise ValueError(f"min_line must be 4 or 5, not {min_line!r}")
    return min_line


def check_colour(colour: Any) -> int:
    if type(colour) is not int or not 0 <= colour < COLOURS:
        raise ValueError(f"a colour must be an int in 0..6, not {colour!r}")
    return colour


def flat_board(board: Any) -> list[int | None]:
    """Validate a 9x9 board (rows of colour|None) and return it as a flat 81-cell list."""
    if not isinstance(board, Sequence) or isinstance(board, str) or len(board) != SIZE:
        raise ValueError("board must be 9 rows")
    cells: list[int | None] = []
    for row in board:
        if not isinstance(row, Sequence) or isinstance(row, str) or len(row) != SIZE:
            raise ValueError("every board row must have 9 cells")
        cells.extend(None if cell is None else check_colour(cell) for cell in row)
    return cells


def upcoming_colours(upcoming: Any) -> tuple[int, ...]:
    if not isinstance(upcoming, Sequence) or isinstance(upcoming, str) or len(upcoming) != UPCOMING:
        raise ValueError("upcoming must be 3 colours")
    return tuple(check_colour(colour) for colour in upcoming)


def parse_action(action: Any) -> tuple[Any, ...]:
    """Return ("move", src, dst) or ("undo",) from a tuple/list or dict action; IllegalMove else."""
    if isinstance(action, Mapping):
        kind = action.get("type")
        if kind == "move" and set(action) == {"type", "src", "dst"}:
            return ("move", action["src"], action["dst"])
        if kind == "undo" and set(action) == {"type"}:
            return ("undo",)
    elif isinstance(action, (tuple, list)) and action:
        if action[0] == "move" and len(action) == 3:
            return ("move", action[1], action[2])
        if action[0] == "undo" and len(action) == 1:
            return ("undo",)
    raise IllegalMove(f"malformed action {action!r}")


def upcoming_at(seed: int, first: int) -> tuple[int, ...]:
    """The 3 upcoming colours whose first ball has spawn index ``first`` (knikkers_seed)."""
    return tuple(spawn_colour(seed, k) for k in range(first, first + UPCOMING))


def spawn(
    cells: list[int | None], seed: int, first: int, upcoming: tuple[int, ...], free: int
) -> list[tuple[int, int]]:
    """Place the ``upcoming`` balls (spawn indices ``first``...) while cells are free, in place.

    Args: cells, the flat board (changed); free, how many cells are empty now.
    Returns: the placed balls as (flat cell, colour), in upcoming order (fewer than 3 when fewer
    cells were free; the rest are dropped).
    Rule source: docs/rules.md, Knikkers ("brings the 3 upcoming balls onto the board (fewer
    when fewer cells are free), then 3 new upcoming ones are drawn"); knikkers_seed for the
    cells.
    """
    placed: list[tuple[int, int]] = []
    for offset, colour in enumerate(upcoming):
        if free == 0:
            break
        cell = landing_cell(seed, first + offset, cells)
        cells[cell] = colour
        free -= 1
        placed.append((cell, colour))
    return placed


def spawn_lines(cells: list[int | None], placed: list[int], min_line: int) -> list[tuple[int, ...]]:
    """Return the distinct lines through the placed balls, each once, in placement order.

    Rule source: docs/rules.md, Knikkers ("Lines through the new balls vanish and score the
    same way (each distinct line once)").
    """
    lines: list[tuple[int, ...]] = []
    for cell in placed:
        for line in lines_through(cells, cell, min_line):
            if line not in lines:
                lines.append(line)
    return lines


def clear(
    cells: list[int | None], lines: list[tuple[int, ...]], min_line: int
) -> tuple[int, set[int]]:
    """Empty the lines' cells (in place) and score each line on its own.

    Returns: (points, cleared flat cells); (0, empty set) for no lines.
    Rule source: docs/rules.md, Knikkers ("Two lines from one move score separately; a ball
    shared by both counts in both").
    """
    if not lines:
        return 0, set()
    table = POINTS[min_line]
    cleared = {i for line in lines for i in line}
    for i in cleared:
        cells[i] = None
    return sum(table[len(line)] for line in lines), cleared
