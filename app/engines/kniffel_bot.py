"""Kniffel-family bot: the next step of a turn (roll, hold/release one die, or fill a box).

Rules: docs/rules.md, "Kniffel family" and "Bots". Levels:

- "strong": follows the optimal solitaire strategy exactly (``Strategy.best_keep`` after the
  first and second roll, ``Strategy.best_box`` to score).
- "casual": draws among the ``CASUAL_CHOICES`` best keeps (or boxes) with a softmax over their
  expected final total, temperature ``CASUAL_TEMPERATURE`` points: a choice worth that many
  points less than the best is taken e (2.7) times less often. Clearly bad choices are almost
  never taken, close calls often go wrong, as with a person playing by feel (about 20-30
  points a game less than "strong"; measured in bench/README.md, "Bots").

Without a strategy (its table is still being built) both levels play a simple rule: keep the
dice of the most frequent face (the higher on a tie) and fill ``auto_box``.

A turn is played one step at a time (``next_step``), so every hold is its own action that
others can follow. The casual draw must give the same answer for every step of one decision:
callers pass an ``rng`` seeded by the decision (game, turn, roll), see ``decision_rng``.

Pure: no I/O; randomness only from the ``rng`` passed in.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from app.engines.kniffel import DICE, MAX_ROLLS, Scorecard, auto_box
from app.engines.kniffel_optimal import Strategy

LEVELS = ("strong", "casual")
CASUAL_TEMPERATURE = 2.0  # points of expected final total; see the module docstring
CASUAL_CHOICES = 4  # the casual level draws among this many best choices


class Step(NamedTuple):
    """One action of a turn: ``kind`` ``roll``, ``hold`` (``die`` 0..4 to ``held``) or
    ``score`` (``box``)."""

    kind: str
    die: int = -1
    held: bool = False
    box: str = ""


def decision_rng(*parts: object) -> random.Random:
    """A random source fixed by ``parts`` (e.g. game id, turn number, rolls, seat): the same
    decision asked again draws the same casual choice."""
    return random.Random(":".join(str(p) for p in parts))


def _pick(ranked: Sequence[tuple[object, float]], level: str, rng: random.Random | None) -> int:
    """Index into ``ranked`` (best first, with expected totals) the level takes."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    if level == "strong" or len(ranked) == 1:
        return 0
    top = ranked[:CASUAL_CHOICES]
    best = top[0][1]
    weights = [math.exp((value - best) / CASUAL_TEMPERATURE) for _, value in top]
    return (rng or random.Random()).choices(range(len(top)), weights=weights)[0]


def _simple_keep(dice: Sequence[int]) -> tuple[int, ...]:
    """The fallback keep: every die of the most frequent face (the higher face on a tie)."""
    face, count = max(Counter(dice).items(), key=lambda item: (item[1], item[0]))
    return (face,) * count


def choose_keep(card: Scorecard, dice: Sequence[int], rolls_left: int,
                strategy: Strategy | None, level: str = "strong",
                rng: random.Random | None = None) -> tuple[int, ...]:
    """The faces to keep (sorted; all five = roll no more) before a re-roll.

    Args: card, the scorecard being filled; dice, five ints 1..6; rolls_left, 1 or 2;
    strategy, the ``Strategy`` for the card's game and house rules, or None (fallback rule);
    level, "strong" or "casual"; rng, the casual level's draws (see ``decision_rng``).
    Raises ValueError (bad level, rolls_left, other rules), ScorecardError, BadDice.
    """
    if strategy is None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
        return tuple(sorted(_simple_keep(dice)))
    ranked = strategy.rank_keeps(card, dice, rolls_left)
    return ranked[_pick(ranked, level, rng)][0]


def choose_box(card: Scorecard, dice: Sequence[int], strategy: Strategy | None,
               level: str = "strong", rng: random.Random | None = None) -> str:
    """The open box to fill with ``dice`` (arguments as ``choose_keep``). Raises ValueError,
    ScorecardError (complete card), BadDice."""
    if strategy is None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
        return auto_box(card, dice)
    ranked = strategy.rank_boxes(card, dice)
    return ranked[_pick(ranked, level, rng)][0]


def held_for(dice: Sequence[int], held: Sequence[bool], keep: Sequence[int]) -> list[bool]:
    """Which of the five ``dice`` to hold so that the held faces are ``keep`` (a sub-multiset
    of ``dice``): dice held already are kept held first, so as few dice change as possible.
    Raises ValueError when ``keep`` is not among the dice."""
    wanted = Counter(keep)
    target = [False] * len(dice)
    for first_pass in (True, False):
        for i, face in enumerate(dice):
            if not target[i] and wanted[face] > 0 and (held[i] or not first_pass):
                target[i] = True
                wanted[face] -= 1
    if sum(wanted.values()):
        raise ValueError(f"cannot keep {tuple(keep)} from {tuple(dice)}")
    return target


def next_step(card: Scorecard, dice: Sequence[int], held: Sequence[bool], rolls: int,
              strategy: Strategy | None, level: str = "strong",
              rng: random.Random | None = None) -> Step:
    """The bot's next action in its turn.

    Args: card, the scorecard the turn fills; dice, the five faces (empty before the first
    roll); held, five flags; rolls, rolls made this turn (0..3); strategy, level, rng as
    ``choose_keep``. Before the first roll: ``roll``. After the third roll, or when the
    chosen keep is all five dice: ``score``. Otherwise the first die whose hold differs from
    the chosen keep is held or released, and when none differs: ``roll``.
    Raises ValueError (bad rolls, level), ScorecardError (complete card), BadDice.
    """
    if not 0 <= rolls <= MAX_ROLLS:
        raise ValueError(f"rolls is 0..{MAX_ROLLS}, got {rolls!r}")
    if rolls == 0:
        return Step("roll")
    if rolls < MAX_ROLLS:
        keep = choose_keep(card, dice, MAX_ROLLS - rolls, strategy, level, rng)
        if len(keep) < DICE:
            target = held_for(dice, held, keep)
            for die, (now, want) in enumerate(zip(held, target, strict=True)):
                if now != want:
                    return Step("hold", die=die, held=want)
            return Step("roll")
    return Step("score", box=choose_box(card, dice, strategy, level, rng))
