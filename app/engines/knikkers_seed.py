"""Knikkers seeding: where and in which colour every ball of a game comes, fixed by the seed.

Rule source: docs/rules.md, Knikkers ("Determinism"; "Undo ... the same balls come again, on the
same cells while free") and rule text 001, "De regels in dit spel" ("Het spel zelf,
niet het toeval, bepaalt waar nieuwe knikkers komen").

Stored games must replay forever, so this module never uses Python's ``random``; every number comes
from BLAKE2b in counter mode, which is the same on every machine and every Python version:

    draw(seed, stream, k) = int.from_bytes(
        blake2b(f"knikkers/v1/{seed}/{stream}/{k}".encode("ascii"), digest_size=8).digest(), "big")

``seed`` is written in decimal (0 .. 2**63-1), ``stream`` is one of ``colour``, ``cell``,
``fallback``, and ``k`` is the decimal *spawn index*: the k-th ball the game ever draws (k = 0, 1,
2, ...). Each ball uses only its own index, so what happens to one ball never shifts another.

- Colour of ball k:          ``draw(seed, "colour", k) % 7``.
- Intended cell of ball k:   ``draw(seed, "cell", k) % 81``, a flat index ``row * 9 + col``.
- Fallback, when that cell is taken at the moment ball k is placed: list the free cells in
  row-major order (flat index ascending) and take the one at position
  ``draw(seed, "fallback", k) % len(free)``. This depends only on (seed, k, board).
- Start position of ``Game.new``: balls k = 0..4 placed one after another on the empty board with
  the rule above (a later start ball falls back if an earlier one took its cell); the upcoming
  balls are k = 5, 6, 7. Every spawn takes the three indices after the current upcoming ones, also
  when fewer than three balls fit on the board (the balls that did not fit are dropped).

The tag ``v1`` is part of the hashed text: any change to this scheme must use a new tag and keep
``v1`` for the games already stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from hashlib import blake2b

VERSION = "v1"
COLOURS = 7
SIZE = 9
CELLS = SIZE * SIZE


def draw(seed: int, stream: str, k: int) -> int:
    """Return the 64-bit number ``k`` of ``stream`` for ``seed`` (see the module docstring).

    Args: seed 0..2**63-1; stream "colour" | "cell" | "fallback"; k >= 0 (spawn index).
    Returns: an int in 0 .. 2**64-1, the big-endian BLAKE2b-64 digest of
    ``f"knikkers/v1/{seed}/{stream}/{k}"``. No checks: callers pass validated values.
    Rule source: docs/rules.md, Knikkers ("Determinism").
    """
    text = f"knikkers/{VERSION}/{seed}/{stream}/{k}".encode("ascii")
    return int.from_bytes(blake2b(text, digest_size=8).digest(), "big")


def spawn_colour(seed: int, k: int) -> int:
    """Return the colour (0..6) of ball ``k`` of the game with ``seed``.

    Rule source: docs/rules.md, Knikkers ("The seed alone fixes ... the sequence of upcoming
    colours").
    """
    return draw(seed, "colour", k) % COLOURS


def intended_cell(seed: int, k: int) -> int:
    """Return the flat cell index (0..80, ``row * 9 + col``) ball ``k`` is meant to land on.

    Rule source: docs/rules.md, Knikkers ("... and the cell each of them is meant to land on").
    """
    return draw(seed, "cell", k) % CELLS


def fallback_cell(seed: int, k: int, cells: Sequence[int | None]) -> int:
    """Return the free cell ball ``k`` takes when its intended cell is already taken.

    Args: ``cells`` is the flat 81-cell board (colour or None) at the moment ball k is placed.
    Returns: a flat index of a free cell: free cells in row-major order, position
    ``draw(seed, "fallback", k) % len(free)``.
    Raises: ValueError when no cell is free.
    Rule source: docs/rules.md, Knikkers ("a fallback fixed by the seed and the board picks
    another").
    """
    free = [i for i in range(CELLS) if cells[i] is None]
    if not free:
        raise ValueError("no free cell to place a ball on")
    return free[draw(seed, "fallback", k) % len(free)]


def landing_cell(seed: int, k: int, cells: Sequence[int | None]) -> int:
    """Return the flat cell ball ``k`` lands on: its intended cell while free, else the fallback.

    Args: ``cells`` is the flat 81-cell board at the moment ball k is placed (at least one free).
    Raises: ValueError when no cell is free.
    Rule source: docs/rules.md, Knikkers ("Undo ... on the same cells while free"; "Determinism").
    """
    cell = intended_cell(seed, k)
    if cells[cell] is None:
        return cell
    return fallback_cell(seed, k, cells)


def start_cells(seed: int) -> list[int | None]:
    """Return the flat 81-cell start board of ``Game.new(seed)``: balls k = 0..4 on an empty board.

    The start balls are placed as they land; no line is cleared (docs/rules.md, Knikkers: "A new
    game has 5 balls on the board").
    """
    cells: list[int | None] = [None] * CELLS
    for k in range(5):
        cells[landing_cell(seed, k, cells)] = spawn_colour(seed, k)
    return cells
