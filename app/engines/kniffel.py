"""Kniffel family: the Kniffel, KitKniff and Yatzy scorecards, a turn of rolls, an automatic box.

Sources: rule text 004 (Kniffel), rule text 002 (KitKniff) and
docs/rules.md, section "Kniffel family", which settles every point the seeds leave open and stands
where they differ (noted at the rule). Dice come in as arguments: this module never rolls. The
rule sets, box ids and points per roll are in :mod:`app.engines.kniffel_rules` (re-exported).
"""

from collections.abc import Iterable, Mapping
from dataclasses import asdict
from typing import Any

from app.engines.kniffel_rules import (
    DICE,
    FACE_OF,
    FACES,
    JOKER_POINTS,
    KNIFFEL_BOXES,
    MAX_ROLLS,
    ROLLS,
    RULESETS,
    UPPER_BOXES,
    YAHTZEE_POINTS,
    YATZY_BOXES,
    BadDice,
    BoxFilled,
    HouseRules,
    Ruleset,
    ScorecardError,
    Scoring,
    TurnError,
    UnknownBox,
    dice_key,
    joker_table,
    points_table,
)

__all__ = ["DICE", "FACES", "JOKER_POINTS", "KNIFFEL_BOXES", "MAX_ROLLS", "ROLLS", "RULESETS",
           "SCRATCH_ORDER", "UPPER_BOXES", "YAHTZEE_POINTS", "YATZY_BOXES", "BadDice", "BoxFilled",
           "HouseRules", "Ruleset", "Scorecard", "ScorecardError", "Scoring", "Turn", "TurnError",
           "UnknownBox", "auto_box"]


class Scorecard:
    """One player's card for one game (docs/rules.md, Kniffel family).

    Args: ruleset, a Ruleset or a RULESETS name; house-rule keywords joker (True),
    five_alike_full_house (False), extra_bonus (True), see HouseRules. An unknown ruleset name
    raises ValueError, an unknown keyword TypeError.
    """

    def __init__(
        self,
        ruleset: Ruleset | str,
        *,
        joker: bool = True,
        five_alike_full_house: bool = False,
        extra_bonus: bool = True,
    ) -> None:
        if isinstance(ruleset, str):
            if ruleset not in RULESETS:
                raise ValueError(f"unknown ruleset {ruleset!r}; one of {sorted(RULESETS)}")
            ruleset = RULESETS[ruleset]
        if not isinstance(ruleset, Ruleset):
            raise ValueError(f"a ruleset is a Ruleset or one of {sorted(RULESETS)}")
        self._ruleset = ruleset
        self._house_rules = HouseRules(joker, five_alike_full_house, extra_bonus)
        self._boxes: dict[str, int | None] = dict.fromkeys(ruleset.boxes)
        self._extra_yahtzees = 0
        self._last_box: str | None = None
        self._rows = points_table(ruleset.scoring, five_alike_full_house)
        self._joker_rows = joker_table(ruleset.scoring, five_alike_full_house)
        self._joker = ruleset.joker and joker

    def _row(self, key: tuple[int, ...]) -> dict[str, int]:
        """Points per box for the sorted dice, with the joker applied when it applies.

        Joker (docs/rules.md): five alike while the yahtzee box is filled (50 or 0) let full_house
        and the straights score 25/30/40 in any open box. The rule texts limit where the joker
        may go (004: matching upper box or lower block; 002: lower block); docs/rules.md
        allows any open box and stands.
        """
        if self._joker and key in self._joker_rows and self._boxes["yahtzee"] is not None:
            return self._joker_rows[key]
        return self._rows[key]

    def options(self, dice: Iterable[int]) -> dict[str, int]:
        """Points each OPEN box would get for these dice, in card order.

        Args: five ints 1..6 in any order. Returns {box: points}; empty when the card is complete.
        Raises BadDice. Every open box may be filled, with 0 when the dice don't fit
        (docs/rules.md).
        """
        row = self._row(dice_key(dice))
        return {box: row[box] for box, points in self._boxes.items() if points is None}

    def fill(self, box: str, dice: Iterable[int]) -> int:
        """Write the dice into an open box; returns the points written (as options promised).

        Also counts an extra yahtzee when the dice are five alike and the yahtzee box holds 50
        (docs/rules.md, extra bonus; rule text 004 "Zweiter Kniffel"; rule text 002 "Weitere
        KitKniff-Würfe").
        Raises UnknownBox, BoxFilled or BadDice; the card is then unchanged.
        """
        if not isinstance(box, str) or box not in self._boxes:
            raise UnknownBox(f"{box!r} is not a box of {self.ruleset.name}")
        if self._boxes[box] is not None:
            raise BoxFilled(f"{box} already holds {self._boxes[box]}")
        key = dice_key(dice)
        points = self._row(key)[box]
        if key[0] == key[-1] and self._boxes["yahtzee"] == YAHTZEE_POINTS:
            self._extra_yahtzees += 1
        self._boxes[box] = points
        self._last_box = box
        return points

    @property
    def ruleset(self) -> Ruleset:
        """The game this card is for."""
        return self._ruleset

    @property
    def house_rules(self) -> HouseRules:
        """The room's house rules for this card."""
        return self._house_rules

    @property
    def boxes(self) -> dict[str, int | None]:
        """A copy: box -> points, None while open, in card order."""
        return dict(self._boxes)

    @property
    def last_box(self) -> str | None:
        """The box filled most recently, None on a fresh card."""
        return self._last_box

    @property
    def is_complete(self) -> bool:
        """True when every box is filled: the game is over (docs/rules.md)."""
        return None not in self._boxes.values()

    @property
    def upper_total(self) -> int:
        """Sum of ones..sixes filled so far."""
        return sum(self._boxes[box] or 0 for box in UPPER_BOXES)

    @property
    def upper_bonus(self) -> int:
        """The ruleset's bonus once ones..sixes reach 63 (docs/rules.md; rule text 004 "Der
        63er-Bonus")."""
        reached = self.upper_total >= self.ruleset.upper_bonus_threshold
        return self.ruleset.upper_bonus if reached else 0

    @property
    def lower_total(self) -> int:
        """Sum of the filled boxes below the upper block."""
        return sum(v or 0 for box, v in self._boxes.items() if box not in FACE_OF)

    @property
    def extra_yahtzees(self) -> int:
        """How many further five-alikes were written while the yahtzee box held 50."""
        return self._extra_yahtzees

    @property
    def extra_bonus(self) -> int:
        """Extra-bonus points: Kniffel 50 each uncapped; KitKniff 100 each up to 900 and only with
        the extra_bonus house rule on; Yatzy none (docs/rules.md, extra bonus; rule text 002)."""
        if not self.house_rules.extra_bonus:
            return 0
        points = self._extra_yahtzees * self.ruleset.extra_bonus_each
        cap = self.ruleset.extra_bonus_cap
        return points if cap is None else min(points, cap)

    @property
    def total(self) -> int:
        """upper_total + upper_bonus + lower_total + extra_bonus."""
        return self.upper_total + self.upper_bonus + self.lower_total + self.extra_bonus

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready state: ruleset name, house rules, boxes, extra_yahtzees, last_box."""
        return {
            "ruleset": self.ruleset.name,
            "house_rules": asdict(self.house_rules),
            "boxes": dict(self._boxes),
            "extra_yahtzees": self._extra_yahtzees,
            "last_box": self._last_box,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Scorecard":
        """The card to_dict described; ValueError when the data does not describe a valid card."""
        try:
            card = cls(data["ruleset"], **data["house_rules"])
            boxes, extra, last = data["boxes"], data["extra_yahtzees"], data["last_box"]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a scorecard: {exc!r}") from exc
        if not _valid_card(card.ruleset, boxes, extra, last):
            raise ValueError(f"not a {card.ruleset.name} card: {data!r}")
        card._boxes = {box: boxes[box] for box in card.ruleset.boxes}
        card._extra_yahtzees, card._last_box = extra, last
        return card

    def copy(self) -> "Scorecard":
        """An independent copy of this card."""
        return Scorecard.from_dict(self.to_dict())


def _valid_card(ruleset: Ruleset, boxes: Any, extra: Any, last: Any) -> bool:
    """True when ``boxes`` (box -> points or None, exactly the ruleset's boxes), ``extra``
    (extra yahtzees, an int >= 0) and ``last`` (a filled box or None) describe a card."""
    boxes_ok = (
        isinstance(boxes, Mapping)
        and set(boxes) == set(ruleset.boxes)
        and all(v is None or (type(v) is int and v >= 0) for v in boxes.values())
    )
    last_ok = last is None or (isinstance(last, str) and boxes_ok and boxes.get(last) is not None)
    return boxes_ok and last_ok and type(extra) is int and extra >= 0


class Turn:
    """One player's turn of up to three rolls (docs/rules.md, Kniffel family; rule text 002
    "Das Spiel").

    The first roll sets all five dice; later rolls replace the dice that are not held. Held dice
    may be released before any re-roll. Refused actions raise TurnError and change nothing.
    """

    def __init__(self) -> None:
        self._dice: tuple[int, ...] = ()
        self._held = [False] * DICE
        self._rolls = 0

    @property
    def dice(self) -> tuple[int, ...]:
        """The five faces, or () before the first roll."""
        return self._dice

    @property
    def held(self) -> tuple[bool, ...]:
        """Five flags: True for a die kept out of the next roll."""
        return tuple(self._held)

    @property
    def rolls(self) -> int:
        """Rolls made so far, 0..3."""
        return self._rolls

    @property
    def can_roll(self) -> bool:
        """A roll is left and at least one die is free (rule text 002: at most 4 dice stay)."""
        return self._rolls < MAX_ROLLS and not all(self._held)

    def free_count(self) -> int:
        """How many values the next roll takes: 5 for the first roll, else the un-held dice."""
        return self._held.count(False)

    def roll(self, values: Iterable[int]) -> tuple[int, ...]:
        """Apply a roll: values are the new faces (ints 1..6) for the un-held dice, left to right.

        Returns the five dice. Raises TurnError after three rolls, with all dice held, or when the
        number of values differs from free_count() or a value is not 1..6.
        """
        if not self.can_roll:
            raise TurnError("no roll left" if self._rolls >= MAX_ROLLS else "all dice are held")
        try:
            faces = tuple(values)
        except TypeError as exc:
            raise TurnError(f"a roll is a sequence of faces, got {values!r}") from exc
        if len(faces) != self.free_count():
            raise TurnError(f"{self.free_count()} dice are rolled, got {len(faces)} values")
        if not all(type(v) is int and 1 <= v <= 6 for v in faces):
            raise TurnError(f"faces are 1..6, got {faces!r}")
        new = iter(faces)
        previous = self._dice or (0,) * DICE
        self._dice = tuple(
            d if keep else next(new) for d, keep in zip(previous, self._held, strict=True)
        )
        self._rolls += 1
        return self._dice

    def _checked(self, index: int) -> int:
        """index itself; TurnError before the first roll or unless an int 0..4."""
        if not self._dice:
            raise TurnError("no dice to hold before the first roll")
        if type(index) is not int or not 0 <= index < DICE:
            raise TurnError(f"a die index is 0..4, got {index!r}")
        return index

    def hold(self, index: int) -> None:
        """Keep die index (0..4) out of the next roll."""
        self._held[self._checked(index)] = True

    def release(self, index: int) -> None:
        """Put die index back in the cup (rule text 004: dice put aside may be taken back)."""
        self._held[self._checked(index)] = False

    def toggle(self, index: int) -> None:
        """Hold a free die or release a held one (rule text 002: click a die to hold or release)."""
        i = self._checked(index)
        self._held[i] = not self._held[i]

    def set_held(self, indices: Iterable[int]) -> None:
        """Hold exactly the dice at these indices (each 0..4), release the others."""
        chosen = {self._checked(i) for i in indices}
        if not self._dice:
            raise TurnError("no dice to hold before the first roll")
        self._held = [i in chosen for i in range(DICE)]


# Which box to give up first when nothing scores (rule text 004, "Taktik: Was man wann streicht":
# ones, then yahtzee, then twos ...; the large straight last).
SCRATCH_ORDER: tuple[str, ...] = (
    "ones",
    "yahtzee",
    "twos",
    "threes",
    "one_pair",
    "two_pairs",
    "four_of_a_kind",
    "three_of_a_kind",
    "full_house",
    "small_straight",
    "fours",
    "fives",
    "sixes",
    "chance",
    "large_straight",
)


def auto_box(scorecard: Scorecard, dice: Iterable[int]) -> str:
    """The box to fill for a player whose time ran out: simple and deterministic.

    1. the open box other than chance with the most points (ties: card order);
    2. if none scores, chance (kept as the reserve for a bad roll, rule text 004 "Taktik");
    3. if nothing scores, the first open box in SCRATCH_ORDER (rule text 004 "Taktik").
    Raises BadDice, or ScorecardError when the card is complete.
    """
    options = scorecard.options(dice)
    if not options:
        raise ScorecardError("the scorecard is complete")
    scoring = {box: points for box, points in options.items() if points and box != "chance"}
    if scoring:
        return max(scoring, key=scoring.__getitem__)
    if options.get("chance"):
        return "chance"
    return min(options, key=SCRATCH_ORDER.index)
