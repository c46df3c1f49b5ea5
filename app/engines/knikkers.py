"""Knikkers (Color Lines): the rules engine for the single-player marble game.

Rule sources: docs/rules.md, section "Knikkers (Color Lines)" (authoritative), and the Dutch
rule text 001 it follows ("Knikkers - zo speelt u het", steps 1-7). Where and in which colour
balls appear is in :mod:`app.engines.knikkers_seed` (the seeding function, versioned ``v1``).

Coordinates are ``(row, col)``, 0-based from the top-left of the 9x9 board; colours are 0..6 and an
empty cell is ``None``. Internally the board is a flat list of 81 cells (index ``row * 9 + col``)
with precomputed neighbour and line tables.

Public API: :func:`line_points`, :class:`IllegalMove`, :class:`MoveResult`, :class:`Game`
(``Game.new``, ``Game.from_position``, ``Game.replay``, ``move``, ``undo``, ``reachable``,
``state_dict`` and read-only properties). The board mechanics are in
:mod:`app.engines.knikkers_board`, the position and its views in
:mod:`app.engines.knikkers_position`. Pure: no I/O, no clock, no randomness of its own.
"""


from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.engines.knikkers_board import (
    COORDS,
    MAX_SEED,
    MIN_LINES,
    UPCOMING,
    Action,
    Cell,
    IllegalMove,
    cell_index,
    check_min_line,
    check_seed,
    clear,
    find_path,
    flat_board,
    line_points,
    lines_through,
    parse_action,
    spawn,
    spawn_lines,
    upcoming_at,
    upcoming_colours,
)
from app.engines.knikkers_position import Position, Snapshot
from app.engines.knikkers_seed import start_cells

__all__ = ["MAX_SEED", "MIN_LINES", "UPCOMING", "Action", "Cell", "Game", "IllegalMove",
           "MoveResult", "line_points"]


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



class Game(Position):
    """One game of Knikkers: board, upcoming balls, score, and the one move that can be undone.

    Make one with :meth:`new`, :meth:`from_position` or :meth:`replay`. Games compare equal when
    their :meth:`state_dict` and the move they can take back are equal.
    Rule source: docs/rules.md, Knikkers; rule text 001.
    """

    __slots__ = ()

    @classmethod
    def new(cls, seed: int, min_line: int = 5) -> Game:
        """Start a new game: 5 balls on the board and 3 upcoming colours, all fixed by ``seed``.

        Args: seed, an int 0..2**63-1; min_line 5 ("5 op een rij") or 4 ("4 op een rij").
        Returns: the game; the start balls are spawn indices 0..4, the upcoming ones 5..7 (see
        :mod:`app.engines.knikkers_seed`). No line is cleared at the start.
        Raises: ValueError for a bad seed or min_line.
        Rule source: docs/rules.md, Knikkers ("A new game has 5 balls on the board and shows the 3
        upcoming balls"; "Determinism"); rule text 001, step 1.
        """
        seed = check_seed(seed)
        min_line = check_min_line(min_line)
        upcoming = upcoming_at(seed, 5)
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
        seed = check_seed(seed)
        min_line = check_min_line(min_line)
        return cls(seed, min_line, flat_board(board), upcoming_colours(upcoming), 0)

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
                parsed = parse_action(action)
                if parsed[0] == "move":
                    game.move(parsed[1], parsed[2])
                else:
                    game.undo()
            except IllegalMove as exc:
                raise IllegalMove(f"action {n}: {exc}") from exc
        return game


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
        s = cell_index(src, "src")
        d = cell_index(dst, "dst")
        cells = self._cells
        if cells[s] is None:
            raise IllegalMove(f"src {COORDS[s]} holds no ball")
        if cells[d] is not None:
            raise IllegalMove(f"dst {COORDS[d]} is not empty")
        path = find_path(cells, s, d)
        if path is None:
            raise IllegalMove(
                f"no orthogonal path through empty cells from {COORDS[s]} to {COORDS[d]}"
            )

        self._undo = Snapshot(tuple(cells), self._upcoming, self._spawn_index, self._score,
                               self._moves, self._lines_cleared, self._free)
        cells[d] = cells[s]
        cells[s] = None
        lines = lines_through(cells, d, self._min_line)
        spawned: list[tuple[Cell, int]] = []
        if not lines:
            seed, first = self._seed, self._spawn_index
            placed = spawn(cells, seed, first, self._upcoming, self._free)
            self._free -= len(placed)
            self._spawn_index = first + UPCOMING
            self._upcoming = upcoming_at(seed, first + UPCOMING)
            spawned = [(COORDS[i], colour) for i, colour in placed]
            lines = spawn_lines(cells, [i for i, _ in placed], self._min_line)
        points, cleared = clear(cells, lines, self._min_line)
        self._free += len(cleared)
        self._score += points
        self._lines_cleared += len(lines)
        self._moves += 1
        self._actions.append(("move", COORDS[s], COORDS[d]))
        return MoveResult(
            points=points,
            lines=[[COORDS[i] for i in line] for line in lines],
            spawned=spawned,
            path=[COORDS[i] for i in path],
            cleared={COORDS[i] for i in cleared},
        )

    def undo(self) -> None:
        """Take back the last move: board, upcoming balls, score, moves and lines come back.

        The upcoming balls are fixed in advance, so the same move afterwards brings the same balls
        onto the same cells. A move that ended the game can be taken back too.
        Raises: IllegalMove when there is no move to take back (no move yet, or the last action
        was already an undo: only one move can be taken back).
        Rule source: docs/rules.md, Knikkers ("Undo ("Terug") takes back the last move only (not
        two in a row)"); rule text 001, step 5.
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
