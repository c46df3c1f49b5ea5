"""The Kniffel family's guided first round (``capabilities.GameGuide``; docs/rules.md, "Guided
first round"): for two turns, roll, then keep and write as the optimal strategy would (its
hint, ``review.KniffelReview``), with feedback on the box written the turn before."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rooms.games.capabilities import GuideInput, GuideStep
from app.rooms.games.kniffel.hints import Hint
from app.rooms.games.kniffel.state import KniffelState

TURNS = 2  # turns of a guided round


@dataclass(frozen=True)
class BoxAdvice:
    """The optimal strategy's ``hint`` for the dice on the table, in ``ruleset`` (for the
    boxes' names)."""

    hint: Hint
    ruleset: str


@dataclass(frozen=True)
class Feedback:
    """How the player's box of the turn before compares with the strong bot's: ``chosen`` box
    (``points`` written), the bot's ``best`` box, and ``cost``: the expected final total the
    player's choice gives away against the bot's (0 when the same, points >= 0); the game's
    ``ruleset`` (for the boxes' names)."""

    chosen: str
    points: int
    best: str
    cost: float
    ruleset: str

    @property
    def same(self) -> bool:
        """True when the player wrote the box the bot would have."""
        return self.chosen == self.best


def box_feedback(state: KniffelState, seat: int, hint: Hint | None) -> Feedback | None:
    """The ``Feedback`` on ``seat``'s last written box, given the ``hint`` shown for the
    dice of its turn (the last one the guide showed); None without a hint, without a box
    written, or when the box's points are not those the hint was for (the player wrote after
    a roll whose hint the page had not fetched)."""
    if hint is None or seat not in state.last:
        return None
    column, box = state.last[seat]
    points = state.cards[seat][column].boxes.get(box)
    offered = {name: (now, cost) for name, now, _total, cost in hint.boxes}
    if points is None or box not in offered or offered[box][0] != points:
        return None
    return Feedback(box, points, hint.box, max(0.0, offered[box][1]), state.ruleset)


class KniffelGuide:
    """The guided round of the Kniffel family (``capabilities.GameGuide``): hints on."""

    room_options: dict[str, Any] = {"hints": "true"}
    template = "rooms/kniffel/_guide.html"

    def wants_hint(self, state: KniffelState, seat_id: int) -> bool:
        """True on ``seat_id``'s own turn once it has rolled."""
        return state.current == seat_id and bool(state.turn.rolls)

    def step(self, given: GuideInput) -> tuple[GuideStep, tuple[int, Any] | None]:
        """The step of ``given.seat``: ``roll`` before the turn's first roll, ``wait`` while
        the hint is being worked out (``given.hint`` None), ``keep`` while a re-roll is
        advised, ``box`` when the dice should be written; ``done`` after two turns (the game
        goes on unguided). Remembers the hint shown at its turn; the feedback compares the
        box written the turn before with the hint then shown."""
        game: KniffelState = given.state
        feedback = None
        before = game.turn_no - 1  # the turn whose box the player wrote last
        if 1 <= before <= TURNS:
            feedback = box_feedback(game, given.seat, given.recall(before))
        if before >= TURNS or game.over or not given.playing:
            return GuideStep("done", TURNS, TURNS, feedback=feedback), None
        number = game.turn_no
        if game.current != given.seat or not game.turn.rolls:
            return GuideStep("roll", number, TURNS, feedback=feedback), None
        hint: Hint | None = given.hint
        if hint is None:
            return GuideStep("wait", number, TURNS), None
        phase = "keep" if hint.keep is not None and len(hint.keep) < 5 else "box"
        return (GuideStep(phase, number, TURNS, advice=BoxAdvice(hint, game.ruleset)),
                (number, hint))
