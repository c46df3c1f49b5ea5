"""Optimal solitaire Kniffel, KitKniff and Yatzy: the solver's rules and its value table.

Backward induction over turn states (docs/rules.md, Kniffel family; the method and the two
documented simplifications are described in :mod:`app.engines.kniffel_optimal`, which answers
strategy queries from the table built here). :func:`rules_for` reads the points per box from
Scorecard itself; :func:`solve_table` fills the value table, thousands of states per numpy pass
(app/engines/_kniffel_turn.py). Pure: no I/O, no randomness.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from functools import lru_cache

import numpy as np

from app.engines import _kniffel_turn as turn
from app.engines.kniffel import (
    RULESETS,
    UPPER_BOXES,
    YAHTZEE_POINTS,
    HouseRules,
    Ruleset,
    Scorecard,
)

# Bump when the solver's method or table layout changes: cached tables are then rebuilt.
SOLVER_VERSION = 1
# States solved together in one numpy pass: large enough to amortise Python's call overhead,
# small enough that the work arrays stay in the CPU cache and need no fresh pages (measured:
# 128-256 are best on this machine, 2048 is 3x slower).
CHUNK = 192
_SCRATCH = (1, 2, 3, 4, 6)  # not five alike: fills the yahtzee box with 0




@dataclass(frozen=True, eq=False)
class Rules:
    """Everything the solver's values depend on, read from Scorecard (docs/rules.md).

    name: label ("kniffel", "yatzy, five_alike_full_house" ...). boxes: the card's box ids.
    threshold / upper_bonus: the upper bonus (63 / 35 or 50). extra_each: extra bonus per
    further five-alike while the yahtzee box holds 50 (0 = none; the KitKniff cap is ignored).
    points: int array (252, len(boxes)), points of each roll (turn.ROLLS order) in each box while
    the yahtzee box is open; joker_points: the same once the yahtzee box is filled (the joker's
    rows differ where the joker applies). digest: hex id of all of this plus SOLVER_VERSION;
    equal digests mean interchangeable tables.
    """

    name: str
    boxes: tuple[str, ...]
    threshold: int
    upper_bonus: int
    extra_each: int
    points: np.ndarray
    joker_points: np.ndarray
    digest: str

    @property
    def flags(self) -> int:
        """Size of the "yahtzee box holds 50" axis: 2 with an extra bonus, else 1."""
        return 2 if self.extra_each else 1

    @property
    def shape(self) -> tuple[int, int, int]:
        """Shape of the value table: (2^boxes open-box masks, threshold + 1 upper totals,
        flags). Bit i of a mask is boxes[i] open."""
        return (1 << len(self.boxes), self.threshold + 1, self.flags)


def _label(ruleset: Ruleset, house: dict[str, bool]) -> str:
    """'kitkniff' or 'kitkniff, no joker, five_alike_full_house' (non-default house rules)."""
    defaults = asdict(HouseRules())
    changed = [key if value else f"no {key}" for key, value in house.items()
               if value != defaults[key]]
    return ", ".join([ruleset.name, *changed])


@lru_cache(maxsize=64)
def cached_rules(
    ruleset: Ruleset, joker: bool, five_alike_full_house: bool, extra_bonus: bool
) -> Rules:
    """rules_for, cached per (hashable) arguments. Raises RuntimeError when Scorecard no longer
    scores the way the state model assumes (upper boxes: the sum of their face; yahtzee box:
    50 for five alike only)."""
    house = {"joker": joker, "five_alike_full_house": five_alike_full_house,
             "extra_bonus": extra_bonus}
    fresh = Scorecard(ruleset, **house)
    filled = Scorecard(ruleset, **house)
    filled.fill("yahtzee", _SCRATCH)
    boxes = ruleset.boxes
    points = np.array([[fresh.options(roll)[box] for box in boxes] for roll in turn.ROLLS])
    joker_points = points.copy()
    for r, roll in enumerate(turn.ROLLS):
        for box, value in filled.options(roll).items():
            joker_points[r, boxes.index(box)] = value
    bonus_card = Scorecard(ruleset, **house)
    bonus_card.fill("yahtzee", (6,) * turn.DICE)
    bonus_card.fill("chance", (6,) * turn.DICE)
    extra_each = bonus_card.extra_bonus
    for face, box in enumerate(UPPER_BOXES, start=1):
        b = boxes.index(box)
        if not (points[:, b] == joker_points[:, b]).all() or \
                not (points[:, b] == face * turn.FACE_COUNT[:, face]).all():
            raise RuntimeError(f"{box} no longer scores the sum of its face: update the solver")
    stamp = hashlib.sha256(repr((SOLVER_VERSION, boxes, ruleset.upper_bonus_threshold,
                                 ruleset.upper_bonus, extra_each)).encode())
    stamp.update(points.tobytes() + joker_points.tobytes())
    return Rules(_label(ruleset, house), boxes, ruleset.upper_bonus_threshold, ruleset.upper_bonus,
                 extra_each, points, joker_points, stamp.hexdigest()[:16])


def rules_for(ruleset: str | Ruleset, **house_rules: bool) -> Rules:
    """The solver's view of a game: a RULESETS name (or Ruleset) and Scorecard's house-rule
    keywords (joker, five_alike_full_house, extra_bonus; defaults as Scorecard's).

    Raises ValueError for an unknown ruleset or a non-bool house rule, TypeError for an unknown
    keyword (as Scorecard does).
    """
    if isinstance(ruleset, str):
        if ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {ruleset!r}; one of {sorted(RULESETS)}")
        ruleset = RULESETS[ruleset]
    house = asdict(Scorecard(ruleset, **house_rules).house_rules)
    return cached_rules(ruleset, **house)


# --- the value table ----------------------------------------------------------------------


def _upper_positions(rules: Rules) -> list[tuple[int, int]]:
    """(box index, face) of ones..sixes on this card."""
    return [(rules.boxes.index(box), face) for face, box in enumerate(UPPER_BOXES, start=1)]


def _upper_open(rules: Rules, masks: np.ndarray) -> np.ndarray:
    """6-bit masks (bit face-1) of the upper boxes open in each open-box mask."""
    result = np.zeros_like(masks)
    for b, face in _upper_positions(rules):
        result |= ((masks >> b) & 1) << (face - 1)
    return result


@lru_cache(maxsize=8)
def _upper_classes(threshold: int) -> tuple[np.ndarray, np.ndarray]:
    """For each 6-bit mask of OPEN upper boxes m: (reachable[m], representative[m]).

    reachable: bool (64, threshold + 1): upper totals (capped) the filled upper boxes can sum to.
    representative: int (64, threshold + 1): a total with the same future as u. The future only
    depends on u while the bonus is still open and within reach; otherwise every u is alike
    (represented by 0, or by the threshold once it is reached).
    """
    size = threshold + 1
    reachable = np.zeros((64, size), dtype=bool)
    representative = np.zeros((64, size), dtype=np.intp)
    for m in range(64):
        sums = {0}
        for face in range(1, 7):
            if not m >> (face - 1) & 1:
                sums = {min(threshold, s + face * c) for s in sums for c in range(turn.DICE + 1)}
        reachable[m, sorted(sums)] = True
        most = sum(5 * face for face in range(1, 7) if m >> (face - 1) & 1)
        for u in range(size):
            alike = m == 0 or u + most < threshold
            representative[m, u] = 0 if alike else u
    return reachable, representative


def _level_states(rules: Rules, masks: np.ndarray) -> tuple[np.ndarray, ...]:
    """The states to solve for these open-box masks: (mask, u, flag) arrays of equal length, one
    per reachable class of upper totals, flag 1 only where the yahtzee box is filled."""
    reachable, representative = _upper_classes(rules.threshold)
    classes = [np.unique(representative[m][reachable[m]]) for m in range(64)]
    yahtzee_bit = 1 << rules.boxes.index("yahtzee")
    parts: list[tuple[np.ndarray, ...]] = []
    for mask, upper in zip(masks.tolist(), _upper_open(rules, masks).tolist(), strict=True):
        us = classes[upper]
        flags = (0, 1) if rules.flags == 2 and not mask & yahtzee_bit else (0,)
        for flag in flags:
            parts.append((np.full(len(us), mask), us, np.full(len(us), flag)))
    return tuple(np.concatenate(column) for column in zip(*parts, strict=True))


@dataclass(frozen=True, eq=False)
class _Layout:
    """Static arrays that say what each box (b) makes of each roll (r), for one Rules.

    The final total of writing roll r in box b is points[b, r] + follow[b, outcome[b, r]],
    where follow (from follow_values) holds the value of the state the box leads to:
    - ones..sixes: points 0, outcome = how many dice show the face (follow adds the points and
      the upper bonus they may complete);
    - yahtzee: points as scored, outcome 1 for five alike (the box then holds 50), else 0;
    - every other box: points as scored, outcome 0.
    points / joker_points: float (B, 252), while the yahtzee box is open / once it is filled.
    gain: (B, 6) upper points of each outcome. rows: per box, the rolls whose total differs from
    writing 0 there (index array, or slice(None) for all rolls).
    """

    points: np.ndarray
    joker_points: np.ndarray
    outcome: np.ndarray
    gain: np.ndarray
    rows: tuple[np.ndarray | slice, ...]


OUTCOMES = turn.DICE + 1  # 0..5 dice of a face


@lru_cache(maxsize=64)
def layout_of(rules: Rules) -> _Layout:
    """The _Layout of these rules. Raises RuntimeError when the yahtzee box scores anything but
    0 or 50 for five alike only (the flag model would be wrong)."""
    boxes = len(rules.boxes)
    points = rules.points.T.astype(float)
    joker_points = rules.joker_points.T.astype(float)
    outcome = np.zeros((boxes, len(turn.ROLLS)), dtype=np.intp)
    gain = np.zeros((boxes, OUTCOMES), dtype=np.intp)
    for b, face in _upper_positions(rules):
        points[b] = joker_points[b] = 0
        outcome[b] = turn.FACE_COUNT[:, face]
        gain[b] = face * np.arange(OUTCOMES)
    yahtzee = rules.boxes.index("yahtzee")
    five_alike = np.zeros(len(turn.ROLLS), dtype=bool)
    five_alike[turn.FIVE_ALIKE] = True
    if not (points[yahtzee] == np.where(five_alike, YAHTZEE_POINTS, 0)).all():
        raise RuntimeError("the yahtzee box scores other than 50 for five alike: update the solver")
    outcome[yahtzee] = five_alike
    rows = []
    for b in range(boxes):
        scoring = np.flatnonzero((points[b] != 0) | (joker_points[b] != 0) | (outcome[b] != 0))
        rows.append(slice(None) if scoring.size == len(turn.ROLLS) else scoring)
    return _Layout(points, joker_points, outcome, gain, tuple(rows))


def follow_values(
    rules: Rules, table: np.ndarray, mask: np.ndarray, u: np.ndarray, flag: np.ndarray
) -> np.ndarray:
    """follow (B, 6, S): for each box and outcome (see _Layout), the upper points and bonus won
    plus the value of the state reached, for S states; -inf where the box is not open.

    Args: the value table (filled for states with one box fewer) and int arrays (S,) of
    open-box masks, capped upper totals and flags (see Rules.shape).
    """
    layout = layout_of(rules)
    bits = (1 << np.arange(len(rules.boxes)))[:, None, None]
    is_open = (mask & bits) != 0  # (B, 1, S)
    raised = u + layout.gain[:, :, None]  # (B, 6, S)
    bonus = np.where((u < rules.threshold) & (raised >= rules.threshold), rules.upper_bonus, 0)
    flags = np.broadcast_to(flag, raised.shape).copy()
    flags[rules.boxes.index("yahtzee"), 1:] = rules.flags - 1  # five alike in the yahtzee box
    after = table[mask & ~bits, np.minimum(raised, rules.threshold), flags]
    return np.where(is_open, layout.gain[:, :, None] + bonus + after, -np.inf)


def extra_bonus_paid(rules: Rules, flag: np.ndarray) -> np.ndarray:
    """Extra bonus (S,) paid for five alike in any box: extra_each where the yahtzee box holds
    50 (flag 1), else 0 (docs/rules.md, extra bonus; the KitKniff cap is ignored)."""
    return np.where(flag == 1, float(rules.extra_each), 0.0)


def joker_applies(rules: Rules, mask: np.ndarray) -> np.ndarray:
    """(S,) True where the yahtzee box is filled: joker_points apply (docs/rules.md, joker)."""
    return (mask >> rules.boxes.index("yahtzee")) & 1 == 0


def _final_values(
    rules: Rules, table: np.ndarray, mask: np.ndarray, u: np.ndarray, flag: np.ndarray
) -> np.ndarray:
    """Value of every final roll (252, S) with the best box chosen, for S states: every roll is
    worth at least the best box to write 0 in; each box then raises the rolls that score there.
    """
    layout = layout_of(rules)
    follow = follow_values(rules, table, mask, u, flag)
    final = np.empty((len(turn.ROLLS), mask.size))
    final[:] = follow[:, 0].max(axis=0)
    joker = joker_applies(rules, mask)
    for b, rows in enumerate(layout.rows):
        if not np.isfinite(follow[b, 0]).any():
            continue  # box filled everywhere
        values = follow[b][layout.outcome[b, rows]]
        values += layout.points[b, rows, None]
        change = layout.joker_points[b, rows] - layout.points[b, rows]
        if change.any():
            values += change[:, None] * joker
        if isinstance(rows, slice):
            np.maximum(final, values, out=final)
        else:
            final[rows] = np.maximum(final[rows], values, out=values)
    final[turn.FIVE_ALIKE] += extra_bonus_paid(rules, flag)
    return final


def _turn_start_values(
    rules: Rules,
    table: np.ndarray,
    mask: np.ndarray,
    u: np.ndarray,
    flag: np.ndarray,
    work: np.ndarray | None = None,
) -> np.ndarray:
    """Expected points still to come from the start of a turn, shape (S,), for S states.

    work: an optional float array (462, S) to compute in (reused across calls by the solver)."""
    work = np.empty((len(turn.KEEPS), mask.size)) if work is None else work
    final = _final_values(rules, table, mask, u, flag)
    second = turn.best_roll_values(turn.keep_values(final, out=work), out=work)
    first = turn.best_roll_values(turn.keep_values(second, out=work), out=work)
    return turn.ROLL_PROB @ first


def solve_table(rules: Rules, scope: int | None = None) -> np.ndarray:
    """The value table: float64 array of rules.shape, [mask, u, flag] = expected points still
    to come from the start of a turn (upper bonus and extra bonuses included).

    scope: open-box mask of the largest card to solve (default: all boxes); only its subsets are
    filled, the other entries stay 0. One rule set takes about 10-40 s on one core (see
    bench/README.md); memory about 100 MB.
    """
    full = (1 << len(rules.boxes)) - 1
    scope = full if scope is None else scope
    table = np.zeros(rules.shape)
    masks = np.arange(full + 1)
    masks = masks[(masks & ~scope) == 0]
    sizes = np.array([bin(m).count("1") for m in masks.tolist()])
    _, representative = _upper_classes(rules.threshold)
    work = np.empty((len(turn.KEEPS), CHUNK))
    for size in range(1, bin(scope).count("1") + 1):
        level = masks[sizes == size]
        mask, u, flag = _level_states(rules, level)
        for start in range(0, mask.size, CHUNK):
            part = slice(start, start + CHUNK)
            size = min(CHUNK, mask.size - start)
            table[mask[part], u[part], flag[part]] = _turn_start_values(
                rules, table, mask[part], u[part], flag[part], work[:, :size])
        # every upper total takes its representative's value
        table[level] = table[level[:, None], representative[_upper_open(rules, level)]]
    return table
