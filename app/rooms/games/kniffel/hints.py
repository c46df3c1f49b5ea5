"""Hints for the player on turn in a Kniffel-family room with the option "hints" on
(docs/rules.md, "Hints and game analysis"): the best dice to keep and the best box for the dice
on the table, each with its expected final total, and what every other choice costs.

A hint only describes: it never acts for the player. Pure: the strategy comes in as an argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.engines.kniffel import MAX_ROLLS, Scorecard
from app.engines.kniffel_optimal import Strategy
from app.rooms.games.kniffel.analysis import rank_keeps

SHOWN_KEEPS = 8  # other keeps listed under the best one (there are up to 31 more)


@dataclass(frozen=True)
class Hint:
    """What the optimal strategy would do with the dice on the table.

    ``keep`` (sorted faces; all five = roll no more), ``keep_dice`` (indices of the dice to
    hold for it, held dice first), ``keep_value`` (expected final total): None after the last
    roll. ``keeps``: the best keeps after it as ``(faces, expected total, cost)`` (cost = points
    given away against the best, >= 0). ``box`` / ``box_value``: the best box to write now and
    the expected final total then; ``boxes``: every open box as ``(box, points now, expected
    total, cost)``, best first. ``dice``: the dice it is for.
    """

    rolls: int
    dice: tuple[int, ...]
    keep: tuple[int, ...] | None
    keep_dice: tuple[int, ...]
    keep_value: float | None
    keeps: tuple[tuple[tuple[int, ...], float, float], ...]
    box: str
    box_value: float
    boxes: tuple[tuple[str, int, float, float], ...]


def dice_for(keep: Sequence[int], dice: Sequence[int], held: Sequence[bool]) -> tuple[int, ...]:
    """Indices of ``dice`` showing the faces ``keep`` (a sub-multiset of ``dice``), taking
    dice already ``held`` first, so following the hint moves as few dice as possible."""
    wanted = list(keep)
    order = sorted(range(len(dice)), key=lambda i: (not held[i], i))
    chosen = []
    for i in order:
        if dice[i] in wanted:
            wanted.remove(dice[i])
            chosen.append(i)
    return tuple(sorted(chosen))


def hint(strategy: Strategy, card: Scorecard, dice: Sequence[int], held: Sequence[bool],
         rolls: int) -> Hint:
    """The hint for a player with ``card`` (the column being filled; a copy when the room's
    state may change meanwhile) after roll ``rolls`` (1..3) showing ``dice`` with ``held``.

    Raises ValueError when nothing was rolled yet or the strategy is for other rules,
    ScorecardError for a complete card, BadDice.
    """
    if not 1 <= rolls <= MAX_ROLLS:
        raise ValueError("a hint needs a roll")
    points = card.options(dice)
    boxes = strategy.rank_boxes(card, dice)
    best_box, box_value = boxes[0]
    keep, keep_value = None, None
    keeps: tuple[tuple[tuple[int, ...], float, float], ...] = ()
    keep_dice: tuple[int, ...] = ()
    if rolls < MAX_ROLLS:
        ranked = rank_keeps(strategy, card, dice, MAX_ROLLS - rolls)
        keep, keep_value = ranked[0]
        keeps = tuple((faces, value, keep_value - value) for faces, value
                      in ranked[1:SHOWN_KEEPS + 1])
        keep_dice = dice_for(keep, dice, held)
    return Hint(rolls, tuple(dice), keep, keep_dice, keep_value, keeps, best_box, box_value,
                tuple((box, points[box], value, box_value - value) for box, value in boxes))
