"""Post-game analysis of a Kniffel-family game: every decision each player made, the optimal
one, and the expected points lost (docs/rules.md, "Hints and game analysis").

The game is folded again from its stored events (``state.fold``); before each event that ends
a decision the scorecard and dice are read and the choice is ranked by the optimal solitaire
strategy (``app.engines.kniffel_optimal.Strategy``):

- a re-roll after roll 1 or 2 is a **keep** decision: the faces of the held dice, with 2 or 1
  re-rolls left;
- filling a box after roll 1 or 2 is also a keep decision (keeping all five = rolling no more);
- filling a box is a **box** decision.

Events the server made (``auto``: a turn timer or an away player) are no one's decision: the
box and the "stop" before it are left out; keeps the player made earlier in that turn count.
With several columns each column is judged as a game of its own (the solver does not cover
several columns). Pure: no I/O; the strategy comes in as an argument.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.engines.kniffel import MAX_ROLLS, Scorecard
from app.engines.kniffel_optimal import Strategy
from app.rooms.games.base import Event
from app.rooms.games.kniffel.state import KniffelState, fold

ACCURACY_SCALE = 8.0
"""Expected points lost per turn at which the accuracy falls to 100/e (about 37); calibrated
so that the casual bot lands in the 70s-80s and random play far below (docs/rules.md,
"Accuracy"; bench/accuracy.py)."""
_TIE = 1e-9  # values this close are equally good


@dataclass(frozen=True)
class Decision:
    """One choice of one player.

    ``kind``: ``"keep"`` (``chosen``/``best``: sorted faces kept; all five = roll no more) or
    ``"box"`` (a box id). ``roll``: the roll it followed (1..3). ``dice``: the five dice on the
    table (as shown). ``chosen_value`` / ``best_value``: expected final total of the column
    after the choice and after the best one (points already written included). ``auto``: made
    by the server, not counted. ``column``: the scorecard it was made on.
    """

    kind: str
    roll: int
    dice: tuple[int, ...]
    chosen: tuple[int, ...] | str
    chosen_value: float
    best: tuple[int, ...] | str
    best_value: float
    column: int = 0
    auto: bool = False

    @property
    def loss(self) -> float:
        """Expected points given away by this choice (0 for the best or an equal one)."""
        gap = self.best_value - self.chosen_value
        return gap if gap > _TIE else 0.0


@dataclass
class TurnReview:
    """One turn of one seat: its rolls (five dice each), its decisions in order, the box
    filled and the points written (None when the player left during the turn)."""

    seat: int
    number: int
    column: int
    rolls: list[tuple[int, ...]] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    box: str | None = None
    points: int | None = None

    @property
    def loss(self) -> float:
        """Expected points lost in this turn (the player's own decisions)."""
        return sum(d.loss for d in self.decisions if not d.auto)


@dataclass
class SeatSummary:
    """A player's accuracy: ``decisions`` counted, ``turns`` with at least one own decision,
    ``loss`` (expected points lost in all), ``mean_loss`` per decision and ``accuracy``
    0..100 (see ``accuracy``); the last two are None without any own decision."""

    decisions: int
    turns: int
    loss: float
    mean_loss: float | None
    accuracy: int | None

    def to_json(self) -> dict[str, Any]:
        """The summary as stored with the game (``games.result["analysis"]``)."""
        return {"decisions": self.decisions, "turns": self.turns, "loss": round(self.loss, 4),
                "mean_loss": None if self.mean_loss is None else round(self.mean_loss, 4),
                "accuracy": self.accuracy}


@dataclass
class GameAnalysis:
    """Every seat's turns (``turns``: seat -> turns in order) and summaries (``summary``),
    ``expected``: the optimal strategy's expected final total from an empty card."""

    ruleset: str
    expected: float
    turns: dict[int, list[TurnReview]]
    summary: dict[int, SeatSummary]


def accuracy(loss: float, turns: int) -> int | None:
    """The 0..100 accuracy of a player who lost ``loss`` expected points in ``turns`` turns:
    ``floor(100 * exp(-loss / (ACCURACY_SCALE * turns)))`` (docs/rules.md, "Accuracy"). 100
    only for no loss at all; 1 point lost per turn gives 88, 2 points 77, 8 points 36. None
    for 0 turns."""
    if turns <= 0:
        return None
    return math.floor(100 * math.exp(-loss / (ACCURACY_SCALE * turns)) + 1e-9)


def summarise(turns: Iterable[TurnReview]) -> SeatSummary:
    """The summary of one seat's turns (auto decisions left out)."""
    own = [[d for d in t.decisions if not d.auto] for t in turns]
    decisions = [d for turn in own for d in turn]
    played = sum(1 for turn in own if turn)
    loss = sum(d.loss for d in decisions)
    return SeatSummary(len(decisions), played, loss,
                       loss / len(decisions) if decisions else None, accuracy(loss, played))


def rank_keeps(strategy: Strategy, card: Scorecard, dice: Sequence[int],
               rolls_left: int) -> list[tuple[tuple[int, ...], float]]:
    """Every keep with its expected final total, best first (ties: more dice kept first), where
    keeping all five means rolling no more: its value is the best box's now (the solver's own
    ``rank_keeps`` values "keep all five" as keeping them through the next roll, free to
    re-roll after it). Raises as ``Strategy.rank_keeps``."""
    stop = strategy.rank_boxes(card, dice)[0][1]
    ranked = [(keep, stop if len(keep) == len(dice) else value)
              for keep, value in strategy.rank_keeps(card, dice, rolls_left)]
    return sorted(ranked, key=lambda choice: (-choice[1], -len(choice[0])))


def keep_decision(strategy: Strategy, card: Scorecard, dice: Sequence[int], rolls: int,
                  kept: Sequence[int], column: int = 0, auto: bool = False) -> Decision:
    """The keep after roll ``rolls`` (1 or 2) of ``dice`` on ``card``: ``kept`` faces (all
    five = roll no more), ranked by ``rank_keeps``. Raises as Strategy.rank_keeps."""
    ranked = rank_keeps(strategy, card, dice, MAX_ROLLS - rolls)
    chosen = tuple(sorted(kept))
    value = next(v for keep, v in ranked if keep == chosen)
    return Decision("keep", rolls, tuple(dice), chosen, value, ranked[0][0], ranked[0][1],
                    column, auto)


def box_decision(strategy: Strategy, card: Scorecard, dice: Sequence[int], rolls: int,
                 box: str, column: int = 0, auto: bool = False) -> Decision:
    """Writing ``dice`` into ``box`` of ``card`` after roll ``rolls``, ranked by
    ``strategy.rank_boxes``. Raises as rank_boxes, KeyError for a box not open."""
    ranked = dict(strategy.rank_boxes(card, dice))
    best = next(iter(ranked))
    return Decision("box", rolls, tuple(dice), box, ranked[box], best, ranked[best], column,
                    auto)


def analyse(strategy: Strategy, ruleset: str, options: dict[str, Any], seat_ids: Sequence[int],
            events: Iterable[Event]) -> GameAnalysis:
    """Fold a finished (or running) game's ``events`` and judge every decision.

    Args: ``strategy`` for the game's rules and house rules; ``ruleset`` and room ``options``
    as the game was started with; ``seat_ids``: the play order (the game's ``seat_ids``).
    Returns the ``GameAnalysis``. Raises ValueError when the strategy is for other rules.
    """
    state = KniffelState.new(ruleset, options, seat_ids)
    turns: dict[int, list[TurnReview]] = {seat: [] for seat in state.order}
    for event in events:
        seat = event.seat_id
        if event.type in ("roll", "score") and seat is not None and seat == state.current:
            _judge(strategy, state, turns[seat], event)
        fold(state, event)
    return GameAnalysis(ruleset, strategy.expected_score, turns,
                        {seat: summarise(done) for seat, done in turns.items()})


def _judge(strategy: Strategy, state: KniffelState, done: list[TurnReview], event: Event) -> None:
    """Record the decision ``event`` ends (before it is folded into ``state``)."""
    seat, turn = event.seat, state.turn
    column = state.column_of(seat)
    assert column is not None  # the seat on turn has an open column
    card = state.cards[seat][column]
    if turn.rolls == 0:  # a new turn starts with its first roll
        done.append(TurnReview(seat, len(done) + 1, column))
    review = done[-1]
    payload, auto = event.payload, bool(event.payload.get("auto"))
    if event.type == "roll":
        if payload.get("entered"):  # real dice (docs/rules.md, "Table mode"): the throws
            review.rolls[:] = [tuple(payload["dice"])]  # are unknown, only the box is judged
            return
        if turn.rolls:
            kept = [d for d, held in zip(turn.dice, payload["held"], strict=True) if held]
            review.decisions.append(
                keep_decision(strategy, card, turn.dice, turn.rolls, kept, column, auto))
        review.rolls.append(tuple(payload["dice"]))
        return
    if turn.rolls < MAX_ROLLS and not state.real_dice:
        review.decisions.append(
            keep_decision(strategy, card, turn.dice, turn.rolls, turn.dice, column, auto))
    review.decisions.append(
        box_decision(strategy, card, turn.dice, turn.rolls, payload["box"], column, auto))
    review.box, review.points = payload["box"], int(payload["points"])
