"""A first game that teaches (docs/rules.md, "Guided first round"): a solo room with the
``guide`` option shows, at each step of its first rolls or turns, what the strong bot would do
and why. The bot's choice is the bots' own (``app.rooms.bots.moves.next_move`` for Knister,
the optimal strategy's hint, ``app.review.service.Reviews.hint``, for the Kniffel family);
this module only names the step and gathers what its explanation shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rooms.bots.moves import Strategies, next_move
from app.rooms.games.kniffel.hints import Hint
from app.rooms.games.kniffel.state import KniffelState
from app.rooms.games.knister.state import KnisterState
from app.rooms.state import RoomState

KNISTER_ROLLS = 5  # rolls of a guided Knister round
KNIFFEL_TURNS = 2  # turns of a guided Kniffel-family round
DIAGONALS = ({(i, i) for i in range(5)}, {(i, 4 - i) for i in range(5)})


@dataclass(frozen=True)
class GuideStep:
    """One step of a guided round: ``game`` (``knister`` or ``kniffel``), ``phase``
    (``roll``, ``place``, ``keep``, ``box``, ``wait`` while the bot's table is being built,
    ``done`` after the round), step ``number`` of ``total``, and what its text shows:
    Knister ``sum``, ``cell`` (row, column, 1-based), ``ways`` (throws of 36 giving the sum),
    ``row``/``column`` (the line's numbers after writing), ``diagonal``; Kniffel ``hint``."""

    game: str
    phase: str
    number: int
    total: int
    sum: int | None = None
    cell: tuple[int, int] | None = None
    ways: int = 0
    row: tuple[int, ...] = ()
    column: tuple[int, ...] = ()
    diagonal: bool = False
    hint: Hint | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def knister_step(state: RoomState, seat: int, strategies: Strategies) -> GuideStep:
    """The guided Knister step of ``seat`` in ``state`` (docs/rules.md, "Guided first
    round"): roll, then write the sum where the strong bot would, five times."""
    game: KnisterState = state.game_state
    rolled = len(game.rolls)
    if rolled >= KNISTER_ROLLS and not game.roll_pending or state.status != "playing":
        return GuideStep("knister", "done", KNISTER_ROLLS, KNISTER_ROLLS)
    if not game.roll_pending:
        return GuideStep("knister", "roll", rolled + 1, KNISTER_ROLLS)
    move = next_move(state, seat, "strong", strategies)
    if move is None or move[1]["type"] != "place":  # placed already (another page)
        return GuideStep("knister", "roll", rolled + 1, KNISTER_ROLLS)
    r, c = move[1]["cell"]
    value = game.current_sum
    assert value is not None
    grid = [list(row) for row in game.sheets[seat].grid]
    grid[r][c] = value
    return GuideStep(
        "knister", "place", rolled, KNISTER_ROLLS, sum=value, cell=(r + 1, c + 1),
        ways=6 - abs(7 - value),
        row=tuple(v for v in grid[r] if v is not None),
        column=tuple(grid[i][c] for i in range(5) if grid[i][c] is not None),
        diagonal=any((r, c) in d for d in DIAGONALS))


def kniffel_step(state: RoomState, seat: int, hint: Hint | None) -> GuideStep:
    """The guided Kniffel-family step of ``seat`` in ``state``: roll, then keep and write as
    the optimal strategy would (``hint``: its advice for the dice on the table, None while
    its table is being built), for two turns."""
    game: KniffelState = state.game_state
    turns = game.turn_no - 1
    if turns >= KNIFFEL_TURNS or game.over or state.status != "playing":
        return GuideStep("kniffel", "done", KNIFFEL_TURNS, KNIFFEL_TURNS)
    number = game.turn_no
    if game.current != seat or not game.turn.rolls:
        return GuideStep("kniffel", "roll", number, KNIFFEL_TURNS)
    if hint is None:
        return GuideStep("kniffel", "wait", number, KNIFFEL_TURNS)
    phase = "keep" if hint.keep is not None and len(hint.keep) < 5 else "box"
    return GuideStep("kniffel", phase, number, KNIFFEL_TURNS, hint=hint,
                     extra={"rolls": game.turn.rolls, "ruleset": game.ruleset})
