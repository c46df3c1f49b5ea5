"""A Knikkers race folded from its events: one engine game per seat, all on the race's seed.

Rules: docs/rules.md, "Knikkers race". Besides each seat's engine game, a board remembers which
ball of the seed lies on each cell (its draw number ``k``, see ``app.engines.knikkers_seed``),
so that what one player is shown of another's board can leave out the balls that have not come
up for them yet (``RaceBoard.masked``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from app.engines import knikkers as engine
from app.engines.knikkers_seed import landing_cell

SIZE = 9
CELLS = SIZE * SIZE
START_BALLS = 5  # balls 0..4 form the start position (docs/rules.md, Knikkers, "Determinism")


@dataclass
class RaceBoard:
    """One seat's board in a race.

    ``game``: the engine game on the race's seed; ``ids``: per flat cell (row × 9 + column)
    the draw number of the ball lying there, or None; ``log``: the moves made, as
    ``((r, c), (r, c))`` pairs; ``stopped``: the player finished early (``"stop"``, ``"auto"``
    when the server stopped an away player's board, ``"left"``), else None; ``ended_at``:
    when the board stopped or filled up (UTC).
    """

    game: engine.Game
    ids: list[int | None]
    log: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)
    stopped: str | None = None
    ended_at: datetime | None = None

    @classmethod
    def new(cls, seed: int, variant: int) -> RaceBoard:
        """The start position of ``seed`` in ``variant`` (5 or 4): balls 0..4 on the board."""
        game = engine.Game.new(seed, variant)
        ids: list[int | None] = [None] * CELLS
        # The start balls land one after another by the seed's rule; replaying that rule on
        # an empty board tells which ball is where.
        cells: list[int | None] = [None] * CELLS
        for k in range(START_BALLS):
            cell = landing_cell(seed, k, cells)
            cells[cell] = 0
            ids[cell] = k
        return cls(game, ids)

    @property
    def done(self) -> bool:
        """True when the board is full or stopped: its player makes no more moves."""
        return self.stopped is not None or self.game.over

    @property
    def horizon(self) -> int:
        """How far into the seed this board's player has been shown: the draw number after
        the last of the three upcoming balls ("Volgende") on their screen."""
        return self.game.spawn_index + engine.UPCOMING

    @property
    def last_drawn(self) -> int:
        """The highest draw number that can be on the board: that of the last ball placed
        (every ball on it has this number or a lower one)."""
        return self.game.spawn_index - 1

    def move(self, src: tuple[int, int], dst: tuple[int, int], at: datetime | None) -> None:
        """Make the move on the engine game and follow the balls' draw numbers."""
        first = self.game.spawn_index
        result = self.game.move(src, dst)
        s, d = src[0] * SIZE + src[1], dst[0] * SIZE + dst[1]
        self.ids[d], self.ids[s] = self.ids[s], None
        for offset, ((r, c), _colour) in enumerate(result.spawned):
            self.ids[r * SIZE + c] = first + offset
        for r, c in result.cleared:
            self.ids[r * SIZE + c] = None
        self.log.append((src, dst))
        if self.game.over:
            self.ended_at = at

    def masked(self, horizon: int | None) -> tuple[tuple[int | None, ...], int]:
        """The board as someone shown the seed up to draw number ``horizon`` (exclusive) may
        see it: ``(81 colours or None, number of balls left out)``; None shows every ball."""
        board = self.game.board
        flat = [colour for row in board for colour in row]
        if horizon is None:
            return tuple(flat), 0
        hidden = 0
        for i, k in enumerate(self.ids):
            if k is not None and k >= horizon:
                flat[i] = None
                hidden += 1
        return tuple(flat), hidden


@dataclass
class RaceState:
    """A Knikkers race folded from its events.

    ``variant``: 5 or 4; ``time_limit``: minutes (0: none); ``order``: seat ids in table
    order; ``seed``: the race's seed once the server drew it (never shown to a browser);
    ``boards``: one per seat once seeded; ``left``: seats taken out of the race;
    ``time_up``: the time limit ended the race; ``seeded_at``: when the boards were set out;
    ``events``: events folded so far; ``view_cache``: what viewers were shown, for the
    latest state (see ``view``).
    """

    variant: int
    time_limit: int
    order: list[int]
    seed: int | None = None
    boards: dict[int, RaceBoard] = field(default_factory=dict)
    left: set[int] = field(default_factory=set)
    time_up: bool = False
    seeded_at: datetime | None = None
    ended_at: datetime | None = None
    events: int = 0
    view_cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def running(self) -> list[int]:
        """Seats whose board still takes moves, in table order (none before the seed)."""
        if self.time_up:
            return []
        return [s for s in self.order if s in self.boards and not self.boards[s].done]

    @property
    def over(self) -> bool:
        """True when the time is up, every board is done, or nobody is left."""
        if self.time_up or all(s in self.left for s in self.order):
            return True
        return self.seed is not None and not self.running

    @property
    def ends_at(self) -> datetime | None:
        """When the time limit ends the race: the moment the boards were set out plus the
        limit; None without a limit or before the boards are out."""
        if not self.time_limit or self.seeded_at is None:
            return None
        return self.seeded_at + timedelta(minutes=self.time_limit)
