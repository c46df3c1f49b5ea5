"""Knikkers (Color Lines): the position of one game and its read-only views.

:class:`Position` is the state :class:`app.engines.knikkers.Game` plays on: seed, variant, board,
upcoming balls, score, counters, the one move that can be taken back and the log of actions
(docs/rules.md, section "Knikkers (Color Lines)"). Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engines.knikkers_board import COORDS, NEIGHBOURS, Action, Cell, IllegalMove, cell_index
from app.engines.knikkers_seed import CELLS, SIZE


@dataclass(frozen=True)
class Snapshot:
    """The state before a move, kept so that the move can be taken back."""

    cells: tuple[int | None, ...]
    upcoming: tuple[int, ...]
    spawn_index: int
    score: int
    moves: int
    lines_cleared: int
    free: int


class Position:
    """The position of one Knikkers game, read-only (the moves are :class:`Game`'s).

    Rule source: docs/rules.md, Knikkers; rule text 001.
    """

    __slots__ = ("_seed", "_min_line", "_cells", "_upcoming", "_spawn_index", "_score", "_moves",
                 "_lines_cleared", "_free", "_undo", "_actions")

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
        self._undo: Snapshot | None = None
        self._actions: list[Action] = []

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
        cell is empty"; rule text 001, step 7)."""
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
        if not isinstance(other, Position):
            return NotImplemented
        return self.state_dict() == other.state_dict() and self._undo == other._undo

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(seed={self._seed}, min_line={self._min_line}, "
            f"score={self._score}, moves={self._moves}, over={self.over})"
        )

    def reachable(self, src: Cell) -> set[Cell]:
        """Return the empty cells the ball on ``src`` can reach by orthogonal steps through empty
        cells.

        Args: src, (row, col) of a ball. Returns: a set of (row, col).
        Raises: IllegalMove when src is malformed, out of the board or holds no ball.
        Rule source: docs/rules.md, Knikkers ("reachable through empty cells by orthogonal steps").
        """
        start = cell_index(src, "src")
        cells = self._cells
        if cells[start] is None:
            raise IllegalMove(f"src {COORDS[start]} holds no ball")
        seen = [False] * CELLS
        seen[start] = True
        queue = [start]
        for i in queue:
            for j in NEIGHBOURS[i]:
                if not seen[j] and cells[j] is None:
                    seen[j] = True
                    queue.append(j)
        return {COORDS[i] for i in queue[1:]}
