"""Knikkers (Color Lines): the rules engine for the single-player marble game.

Rule sources: docs/rules.md, section "Knikkers (Color Lines)" (authoritative) and the original
Dutch rule text ``seeds/001_d3872731f6cfa08a.txt`` beside docs/rules.md ("Knikkers - zo speelt u
het", steps 1-7). Where and in which colour balls appear is in :mod:`app.engines.knikkers_seed`
(the seeding function, versioned ``v1``).

Coordinates are ``(row, col)``, 0-based from the top-left of the 9x9 board; colours are 0..6 and an
empty cell is ``None``. Internally the board is a flat list of 81 cells (index ``row * 9 + col``)
with precomputed neighbour and line tables.

Public API: :func:`line_points`, :class:`IllegalMove`, :class:`MoveResult`, :class:`Game`
(``Game.new``, ``Game.from_position``, ``Game.replay``, ``move``, ``undo``, ``reachable``,
``state_dict`` and read-only properties). Pure: no I/O, no clock, no randomness of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.engines.knikkers_seed import CELLS, COLOURS, SIZE, landing_cell, spawn_colour, start_cells

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


def _on_board(r: int, c: int) -> bool:
    return 0 <= r < SIZE and 0 <= c < SIZE


def _ray(r: int, c: int, dr: int, dc: int) -> tuple[int, ...]:
    """Flat indices from (r, c) stepping by (dr, dc), excluding (r, c), up to the board's edge."""
    out = []
    r, c = r + dr, c + dc
    while _on_board(r, c):
        out.append(r * SIZE + c)
        r, c = r + dr, c + dc
    return tuple(out)


_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple((r + dr) * SIZE + c + dc for dr, dc in _STEPS if _on_board(r + dr, c + dc))
    for r in range(SIZE)
    for c in range(SIZE)
)
# _RAYS[i] = ((backward, forward) for each of the 4 directions), nearest cell first.
_RAYS: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = tuple(
    tuple((_ray(r, c, -dr, -dc), _ray(r, c, dr, dc)) for dr, dc in _DIRECTIONS)
    for r in range(SIZE)
    for c in range(SIZE)
)
_COORDS: tuple[Cell, ...] = tuple((i // SIZE, i % SIZE) for i in range(CELLS))


def line_points(length: int, min_line: int) -> int:
    """Return the points for one cleared line of ``length`` balls in the ``min_line`` variant.

    Args: length >= 0 (balls in the line); min_line 4 ("4 op een rij") or 5 ("5 op een rij").
    Returns: ``length * (length - min_line + 1) * 2``, or 0 when ``length < min_line``
    (5-variant: 5 -> 10, 6 -> 24, 7 -> 42; 4-variant: 4 -> 8, 5 -> 20).
    Raises: ValueError for min_line not in (4, 5) or a negative or non-int length.
    Rule source: docs/rules.md, Knikkers ("Points for one line of n balls"); seed 001,
    "Scoretelling".
    """
    if type(min_line) is not int or min_line not in MIN_LINES:
        raise ValueError(f"min_line must be 4 or 5, not {min_line!r}")
    if type(length) is not int or length < 0:
        raise ValueError(f"length must be an int >= 0, not {length!r}")
    if length < min_line:
        return 0
    return length * (length - min_line + 1) * 2


# _POINTS[min_line][n]: line_points(n, min_line) for every line length that fits on the board.
_POINTS = {m: tuple(line_points(n, m) for n in range(SIZE + 1)) for m in MIN_LINES}


class IllegalMove(ValueError):
    """An action the rules refuse (docs/rules.md, Knikkers: "Anything else is rejected and changes
    nothing"). Raised by ``Game.move``, ``Game.undo``, ``Game.reachable`` and ``Game.replay``."""


@dataclass(frozen=True)
class MoveResult:
    """What one move did (docs/rules.md, Knikkers).

    Attributes:
        points: points scored by this move, its own lines and the spawned balls' lines together.
        lines: every cleared line as a list of cells in board order (left to right, top to bottom;
            a down-left diagonal from its top-right end): first the lines through the moved ball
            (horizontal, vertical, down-right, down-left), then the distinct lines through the
            spawned balls.
        spawned: ``((row, col), colour)`` for each upcoming ball placed, in upcoming order; empty
            when the move cleared a line.
        path: the cells walked from src to dst inclusive, a shortest orthogonal path (BFS with the
            neighbour order up, right, down, left).
        cleared: every cell emptied by the lines (a ball shared by two lines appears once).
    """

    points: int
    lines: list[list[Cell]]
    spawned: list[tuple[Cell, int]]
    path: list[Cell]
    cleared: set[Cell]


@dataclass(frozen=True)
class _Snapshot:
    """The state before a move, kept so that the move can be taken back."""

    cells: tuple[int | None, ...]
    upcoming: tuple[int, ...]
    spawn_index: int
    score: int
    moves: int
    lines_cleared: int
    free: int


def _cell_index(coord: Any, name: str) -> int:
    """Return the flat index of ``coord`` (a (row, col) pair of ints); IllegalMove otherwise."""
    if not isinstance(coord, (tuple, list)) or len(coord) != 2:
        raise IllegalMove(f"{name} must be a (row, col) pair, not {coord!r}")
    r, c = coord
    if type(r) is not int or type(c) is not int:
        raise IllegalMove(f"{name} must be a (row, col) pair of ints, not {coord!r}")
    if not _on_board(r, c):
        raise IllegalMove(f"{name} {(r, c)} is out of the board")
    return r * SIZE + c


def _find_path(cells: list[int | None], src: int, dst: int) -> list[int] | None:
    """Return the flat cells of a shortest orthogonal path src..dst through empty cells, or None.

    Breadth-first search with neighbours in the fixed order up, right, down, left, so the path is
    the same on every run: each cell's predecessor is the first cell that reached it. ``prev`` is a
    copy of the board, so balls count as already visited and one test per neighbour suffices.
    Rule source: docs/rules.md, Knikkers ("reachable through empty cells by orthogonal steps (never
    diagonal, never through balls)"); seed 001, step 2.
    """
    prev: list[int | None] = cells[:]
    prev[src] = src
    queue = [src]
    push = queue.append
    for i in queue:
        for j in _NEIGHBOURS[i]:
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


def _lines_through(cells: list[int | None], i: int, min_line: int) -> list[tuple[int, ...]]:
    """Return every line of >= min_line balls of the colour at ``i`` that passes through ``i``.

    One line per direction at most (horizontal, vertical, down-right, down-left), each a tuple of
    flat cells in board order. Rule source: docs/rules.md, Knikkers ("every line of >= min balls of
    one colour through the moved ball (horizontal, vertical, both diagonals)").
    """
    colour = cells[i]
    found = []
    for back, fwd in _RAYS[i]:
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


def _check_seed(seed: Any) -> int:
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be an int in 0..2**63-1, not {seed!r}")
    return seed


def _check_min_line(min_line: Any) -> int:
    if type(min_line) is not int or min_line not in MIN_LINES:
        raise ValueError(f"min_line must be 4 or 5, not {min_line!r}")
    return min_line


def _check_colour(colour: Any) -> int:
    if type(colour) is not int or not 0 <= colour < COLOURS:
        raise ValueError(f"a colour must be an int in 0..6, not {colour!r}")
    return colour


def _flat_board(board: Any) -> list[int | None]:
    """Validate a 9x9 board (rows of colour|None) and return it as a flat 81-cell list."""
    if not isinstance(board, Sequence) or isinstance(board, str) or len(board) != SIZE:
        raise ValueError("board must be 9 rows")
    cells: list[int | None] = []
    for row in board:
        if not isinstance(row, Sequence) or isinstance(row, str) or len(row) != SIZE:
            raise ValueError("every board row must have 9 cells")
        cells.extend(None if cell is None else _check_colour(cell) for cell in row)
    return cells


def _upcoming_colours(upcoming: Any) -> tuple[int, ...]:
    if not isinstance(upcoming, Sequence) or isinstance(upcoming, str) or len(upcoming) != UPCOMING:
        raise ValueError("upcoming must be 3 colours")
    return tuple(_check_colour(colour) for colour in upcoming)


def _parse_action(action: Any) -> tuple[Any, ...]:
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


class Game:
    """One game of Knikkers: board, upcoming balls, score, and the one move that can be undone.

    Make one with :meth:`new`, :meth:`from_position` or :meth:`replay`. Games compare equal when
    their :meth:`state_dict` and the move they can take back are equal.
    Rule source: docs/rules.md, Knikkers; seed 001_d3872731f6cfa08a.txt.
    """

    __slots__ = (
        "_seed",
        "_min_line",
        "_cells",
        "_upcoming",
        "_spawn_index",
        "_score",
        "_moves",
        "_lines_cleared",
        "_free",
        "_undo",
        "_actions",
    )

    def __init__(
        self,
        seed: int,
        min_line: int,
        cells: list[int | None],
        upcoming: tuple[int, ...],
        spawn_index: int,
    ) -> None:
        """Internal: use :meth:`new`, :meth:`from_position` or :meth:`replay` (they validate)."""
        self._seed = seed
        self._min_line = min_line
        self._cells = cells
        self._upcoming = upcoming
        self._spawn_index = spawn_index
        self._score = 0
        self._moves = 0
        self._lines_cleared = 0
        self._free = cells.count(None)
        self._undo: _Snapshot | None = None
        self._actions: list[Action] = []

    # ---- construction -------------------------------------------------------------------------

    @classmethod
    def new(cls, seed: int, min_line: int = 5) -> Game:
        """Start a new game: 5 balls on the board and 3 upcoming colours, all fixed by ``seed``.

        Args: seed, an int 0..2**63-1; min_line 5 ("5 op een rij") or 4 ("4 op een rij").
        Returns: the game; the start balls are spawn indices 0..4, the upcoming ones 5..7 (see
        :mod:`app.engines.knikkers_seed`). No line is cleared at the start.
        Raises: ValueError for a bad seed or min_line.
        Rule source: docs/rules.md, Knikkers ("A new game has 5 balls on the board and shows the 3
        upcoming balls"; "Determinism"); seed 001, step 1.
        """
        seed = _check_seed(seed)
        min_line = _check_min_line(min_line)
        upcoming = tuple(spawn_colour(seed, k) for k in range(5, 5 + UPCOMING))
        return cls(seed, min_line, start_cells(seed), upcoming, 5)

    @classmethod
    def from_position(
        cls,
        board: Sequence[Sequence[int | None]],
        upcoming: Sequence[int],
        min_line: int = 5,
        seed: int = 0,
    ) -> Game:
        """Start from a given position (for tests and test positions such as a near-full board).

        Args: board, 9 rows of 9 cells, each a colour 0..6 or None; upcoming, 3 colours 0..6;
        min_line 4 or 5; seed 0..2**63-1.
        Returns: a game with score 0 and no moves. The given upcoming balls take spawn indices
        0, 1, 2 (their cells come from the seed); later balls are spawn indices 3, 4, ... of the
        seed. The board is taken as it is: no line on it is cleared.
        Raises: ValueError for a malformed board, upcoming, min_line or seed.
        Rule source: docs/rules.md, Knikkers ("Determinism").
        """
        seed = _check_seed(seed)
        min_line = _check_min_line(min_line)
        return cls(seed, min_line, _flat_board(board), _upcoming_colours(upcoming), 0)

    @classmethod
    def replay(
        cls,
        seed: int,
        min_line: int,
        actions: Sequence[Any],
        *,
        start: tuple[Sequence[Sequence[int | None]], Sequence[int]] | None = None,
    ) -> Game:
        """Rebuild a game from its seed and its log of actions, as it was in live play.

        Args: seed and min_line as in :meth:`new`; actions, a sequence of
        ``("move", (r, c), (r, c))`` / ``("undo",)`` tuples, the same as lists (JSON round trip:
        ``["move", [r, c], [r, c]]``, ``["undo"]``), or dicts ``{"type": "move", "src": [r, c],
        "dst": [r, c]}`` / ``{"type": "undo"}``; start, an optional ``(board, upcoming)`` pair to
        begin from :meth:`from_position` instead of :meth:`new`.
        Returns: the game after every action, equal to the live game (``game.actions`` is the log
        in tuple form).
        Raises: ValueError for a bad seed, min_line or start; IllegalMove (naming the action's
        position) for a malformed or illegal action.
        Rule source: docs/rules.md, Knikkers ("The same seed and the same moves give the same game";
        "a game that has been undone is still a valid game").
        """
        if start is None:
            game = cls.new(seed, min_line)
        else:
            board, upcoming = start
            game = cls.from_position(board, upcoming, min_line, seed)
        for n, action in enumerate(actions):
            try:
                parsed = _parse_action(action)
                if parsed[0] == "move":
                    game.move(parsed[1], parsed[2])
                else:
                    game.undo()
            except IllegalMove as exc:
                raise IllegalMove(f"action {n}: {exc}") from exc
        return game

    # ---- read-only views ----------------------------------------------------------------------

    @property
    def seed(self) -> int:
        """The game's seed (int 0..2**63-1)."""
        return self._seed

    @property
    def min_line(self) -> int:
        """The variant: 5 ("5 op een rij") or 4 ("4 op een rij")."""
        return self._min_line

    @property
    def board(self) -> list[list[int | None]]:
        """A copy of the board: 9 rows of 9 cells, each a colour 0..6 or None."""
        cells = self._cells
        return [cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]

    @property
    def upcoming(self) -> tuple[int, ...]:
        """The 3 upcoming colours ("Volgende"), in the order they will be placed."""
        return self._upcoming

    @property
    def spawn_index(self) -> int:
        """The spawn index of the first upcoming ball (see :mod:`app.engines.knikkers_seed`)."""
        return self._spawn_index

    @property
    def score(self) -> int:
        """Points so far."""
        return self._score

    @property
    def moves(self) -> int:
        """Moves made, minus the ones taken back."""
        return self._moves

    @property
    def lines_cleared(self) -> int:
        """Lines cleared so far (by moves and by spawned balls), minus the ones taken back."""
        return self._lines_cleared

    @property
    def over(self) -> bool:
        """True exactly when no cell is empty (docs/rules.md, Knikkers: "The game is over when no
        cell is empty"; seed 001, step 7)."""
        return self._free == 0

    @property
    def can_undo(self) -> bool:
        """True when the last action was a move, which :meth:`undo` can take back."""
        return self._undo is not None

    @property
    def actions(self) -> list[Action]:
        """A copy of the log of applied actions (``("move", src, dst)`` and ``("undo",)``), for
        :meth:`replay`. Refused actions are not logged."""
        return list(self._actions)

    def state_dict(self) -> dict[str, Any]:
        """Return the state as plain data (JSON-ready) for storing and comparing.

        Keys: seed, min_line, board (9x9 lists), upcoming (list of 3), spawn_index, score, moves,
        lines_cleared, over, can_undo.
        """
        return {
            "seed": self._seed,
            "min_line": self._min_line,
            "board": self.board,
            "upcoming": list(self._upcoming),
            "spawn_index": self._spawn_index,
            "score": self._score,
            "moves": self._moves,
            "lines_cleared": self._lines_cleared,
            "over": self.over,
            "can_undo": self.can_undo,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.state_dict() == other.state_dict() and self._undo == other._undo

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"Game(seed={self._seed}, min_line={self._min_line}, score={self._score}, "
            f"moves={self._moves}, over={self.over})"
        )

    def reachable(self, src: Cell) -> set[Cell]:
        """Return the empty cells the ball on ``src`` can reach by orthogonal steps through empty
        cells.

        Args: src, (row, col) of a ball. Returns: a set of (row, col).
        Raises: IllegalMove when src is malformed, out of the board or holds no ball.
        Rule source: docs/rules.md, Knikkers ("reachable through empty cells by orthogonal steps").
        """
        start = _cell_index(src, "src")
        cells = self._cells
        if cells[start] is None:
            raise IllegalMove(f"src {_COORDS[start]} holds no ball")
        seen = [False] * CELLS
        seen[start] = True
        queue = [start]
        for i in queue:
            for j in _NEIGHBOURS[i]:
                if not seen[j] and cells[j] is None:
                    seen[j] = True
                    queue.append(j)
        return {_COORDS[i] for i in queue[1:]}

    # ---- actions ------------------------------------------------------------------------------

    def move(self, src: Cell, dst: Cell) -> MoveResult:
        """Move the ball on ``src`` to the empty cell ``dst``; clear lines, or else spawn.

        Args: src, dst as (row, col) pairs (tuples or lists).
        Returns: a :class:`MoveResult`. Lines of >= min_line balls of one colour through the moved
        ball vanish and score each on its own (a shared ball counts in both). When nothing was
        cleared the 3 upcoming balls are placed (fewer when fewer cells are free; the rest are
        dropped), 3 new upcoming colours are drawn, and every distinct line through the placed
        balls vanishes and scores once.
        Raises: IllegalMove, changing nothing, when the game is over, src is malformed / out of the
        board / holds no ball, dst is malformed / out of the board / not empty, or no orthogonal
        path through empty cells leads from src to dst.
        Rule source: docs/rules.md, Knikkers (move, lines, points, upcoming balls, game over); seed
        001, steps 2-4.
        """
        if self._free == 0:
            raise IllegalMove("the game is over")
        s = _cell_index(src, "src")
        d = _cell_index(dst, "dst")
        cells = self._cells
        if cells[s] is None:
            raise IllegalMove(f"src {_COORDS[s]} holds no ball")
        if cells[d] is not None:
            raise IllegalMove(f"dst {_COORDS[d]} is not empty")
        path = _find_path(cells, s, d)
        if path is None:
            raise IllegalMove(
                f"no orthogonal path through empty cells from {_COORDS[s]} to {_COORDS[d]}"
            )

        self._undo = _Snapshot(
            tuple(cells),
            self._upcoming,
            self._spawn_index,
            self._score,
            self._moves,
            self._lines_cleared,
            self._free,
        )
        cells[d] = cells[s]
        cells[s] = None
        lines = _lines_through(cells, d, self._min_line)
        spawned: list[tuple[Cell, int]] = []
        if not lines:
            placed = self._spawn()
            spawned = [(_COORDS[i], colour) for i, colour in placed]
            lines = self._spawn_lines([i for i, _ in placed])
        points, cleared = self._clear(lines)
        self._moves += 1
        self._actions.append(("move", _COORDS[s], _COORDS[d]))
        return MoveResult(
            points=points,
            lines=[[_COORDS[i] for i in line] for line in lines],
            spawned=spawned,
            path=[_COORDS[i] for i in path],
            cleared={_COORDS[i] for i in cleared},
        )

    def undo(self) -> None:
        """Take back the last move: board, upcoming balls, score, moves and lines come back.

        The upcoming balls are fixed in advance, so the same move afterwards brings the same balls
        onto the same cells. A move that ended the game can be taken back too.
        Raises: IllegalMove when there is no move to take back (no move yet, or the last action
        was already an undo: only one move can be taken back).
        Rule source: docs/rules.md, Knikkers ("Undo ("Terug") takes back the last move only (not
        two in a row)"); seed 001, step 5.
        """
        snap = self._undo
        if snap is None:
            raise IllegalMove("there is no move to take back")
        self._cells = list(snap.cells)
        self._upcoming = snap.upcoming
        self._spawn_index = snap.spawn_index
        self._score = snap.score
        self._moves = snap.moves
        self._lines_cleared = snap.lines_cleared
        self._free = snap.free
        self._undo = None
        self._actions.append(("undo",))

    # ---- internals ----------------------------------------------------------------------------

    def _spawn(self) -> list[tuple[int, int]]:
        """Place the upcoming balls (while cells are free), draw the next 3; return the placed
        balls as (flat cell, colour).

        Rule source: docs/rules.md, Knikkers ("brings the 3 upcoming balls onto the board (fewer
        when fewer cells are free), then 3 new upcoming ones are drawn"); knikkers_seed for the
        cells.
        """
        cells, seed, first = self._cells, self._seed, self._spawn_index
        placed: list[tuple[int, int]] = []
        for offset, colour in enumerate(self._upcoming):
            if self._free == 0:
                break
            cell = landing_cell(seed, first + offset, cells)
            cells[cell] = colour
            self._free -= 1
            placed.append((cell, colour))
        first += UPCOMING
        self._spawn_index = first
        self._upcoming = tuple(spawn_colour(seed, k) for k in range(first, first + UPCOMING))
        return placed

    def _spawn_lines(self, placed: list[int]) -> list[tuple[int, ...]]:
        """Return the distinct lines through the placed balls, each once, in placement order.

        Rule source: docs/rules.md, Knikkers ("Lines through the new balls vanish and score the
        same way (each distinct line once)").
        """
        lines: list[tuple[int, ...]] = []
        for cell in placed:
            for line in _lines_through(self._cells, cell, self._min_line):
                if line not in lines:
                    lines.append(line)
        return lines

    def _clear(self, lines: list[tuple[int, ...]]) -> tuple[int, set[int]]:
        """Empty the lines' cells and score each line on its own; return (points, cleared cells).

        Rule source: docs/rules.md, Knikkers ("Two lines from one move score separately; a ball
        shared by both counts in both").
        """
        if not lines:
            return 0, set()
        table = _POINTS[self._min_line]
        points = sum(table[len(line)] for line in lines)
        cleared = {i for line in lines for i in line}
        cells = self._cells
        for i in cleared:
            cells[i] = None
        self._free += len(cleared)
        self._score += points
        self._lines_cleared += len(lines)
        return points, cleared
