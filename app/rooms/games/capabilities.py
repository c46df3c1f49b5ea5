"""Optional capabilities a room game may declare besides its rules (``GamePlugin.review``,
``GamePlugin.guide``): typed members that shared code asks for, never a game's name.

- ``GameReview``: optimal play from a strategy table: a hint for the player on turn and the
  analysis of a finished game (docs/rules.md, "Hints and game analysis"). ``app/review``
  caches and runs them off the event loop.
- ``GameGuide``: a guided first round (docs/rules.md, "Guided first round"): at each step
  what to do and what the strong bot would do; ``app/review/guide_routes.py`` serves it.
- ``GameRecords``: what a group's table and records count of its games beyond points (a
  highest-score record, a feat such as a Kniffel thrown; docs/rules.md, "Groups");
  ``app/groups`` asks for it when it records a game and labels its columns and records.
- ``DiceLog``: where each of a game's server dice sits (turn, throw, slot), so that the dice
  are drawn from the game's secret seed and anyone can check them afterwards (docs/dice.md).

Pure, like the plug-ins: strategies, recalled advice and the seat's bot key come in as
arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

Strategies = Callable[[str, dict[str, Any]], Any]
"""``strategies(ruleset, room options)``: the Kniffel family's optimal strategy
(``app.engines.kniffel_optimal.Strategy``), None while it is being built
(``StrategyTables.for_options``)."""


class GameReview(Protocol):
    """A game whose strategy table gives hints and analyses.

    ``hint_template``: the fragment showing a hint (context: what ``hint_context`` gives, plus
    ``hint``, ``code`` and ``retry_ms``); ``review_template``: a finished game's review page
    (context: ``analysis``, ``room``, ``game``, ``labels``, ``seats``, ``order``, ``player``).
    """

    hint_template: str
    review_template: str

    def on_turn(self, state: Any, seat_id: int) -> bool:
        """True when ``seat_id`` is the player on turn in ``state`` (only they get hints)."""

    def position(self, state: Any, seat_id: int) -> Any | None:
        """What a hint for ``seat_id`` is computed on, as a copy the room may move on from
        (the scorecard, the dice, the holds, the roll); None before the turn's first roll."""

    def hint_context(self, state: Any) -> dict[str, Any]:
        """Template context of ``hint_template`` besides the hint (turn, rolls, ruleset...)."""

    def hint(self, strategy: Any, position: Any) -> Any:
        """The hint for ``position`` (from ``position``) by ``strategy`` (the table
        ``Strategies`` gives for the room's options). CPU-bound: run it off the loop."""

    def analyse(self, strategy: Any, kind: str, options: dict[str, Any],
                seat_ids: Sequence[int], events: Sequence[Any]) -> Any:
        """The analysis of a finished game of ``kind`` from its stored ``events``
        (``base.Event``, in order): an object
        with ``summary`` (seat id -> a value with ``accuracy`` (int 0..100) and
        ``to_json()``). CPU-bound: run it off the loop."""


@dataclass(frozen=True)
class GuideStep:
    """One step of a guided round: ``phase`` (``roll``, ``place``, ``keep``, ``box``,
    ``wait`` while an advice is being worked out, ``done`` after the round), step ``number``
    of ``total``; ``advice``: the game's own value for what its template shows (None when
    the phase needs none); ``feedback``: the game's own value comparing the player's move of
    the step before with the strong bot's (None when there is none)."""

    phase: str
    number: int
    total: int
    advice: Any = None
    feedback: Any = None


@dataclass(frozen=True)
class GuideInput:
    """What a guided step is computed from: the game's ``state``; ``seat`` (seat id) of the
    player; ``playing`` (the room's game is running); ``bot_key`` and ``last_seq`` (seed the
    strong bot's choices as in a room: ``GameBot.move``); the game's ``options``;
    ``strategies``; ``hint``: the ``GameReview`` hint for the dice on the table when the
    guide asked for one (``wants_hint``), else None; ``recall(step)``: the advice this guide
    showed the player at ``step`` (what ``GameGuide.step`` returned to remember), if kept."""

    state: Any
    seat: int
    playing: bool
    bot_key: str
    last_seq: int
    options: dict[str, Any]
    strategies: Strategies
    hint: Any
    recall: Callable[[int], Any]


class GameGuide(Protocol):
    """A game's guided first round. ``room_options``: the options a guided room starts with
    (besides ``guide``); ``template``: a template with the macros ``attributes(step)`` (data
    attributes for the step's element), ``feedback(step)`` and ``body(step)``."""

    room_options: dict[str, Any]
    template: str

    def wants_hint(self, state: Any, seat_id: int) -> bool:
        """True when the step of ``seat_id`` needs the game's ``GameReview`` hint now."""

    def step(self, given: GuideInput) -> tuple[GuideStep, tuple[int, Any] | None]:
        """The current ``GuideStep`` and what to remember as shown at a step
        (``(step, advice)``, recalled by a later step's feedback) or None."""


class GameRecords(Protocol):
    """What a group (docs/rules.md, "Groups") counts of a game beyond its points and places.

    ``high_score``: the gettext msgid of its highest-score record (e.g. "Highest Knister
    score"), None when its points make no record. ``feat``: the msgid of the table column
    counting a feat thrown (e.g. "Kniffels thrown") and ``feat_record`` that of the record of
    the most in one game (e.g. "Most Kniffels in a game"); both None for a game without one
    (``feats`` then returns an empty dict).
    """

    high_score: str | None
    feat: str | None
    feat_record: str | None

    def feats(self, events: Sequence[Any]) -> dict[int, int]:
        """Seat id -> feats thrown in one finished game, from its stored events
        (``base.Event``, in order); seats without any may be left out. Pure."""


class Throw(NamedTuple):
    """Where one throw's dice sit in a game (docs/dice.md): ``turn`` (from 1), ``throw``
    within the turn (from 1) and the ``slots`` thrown (die places from 0, in the order the
    faces are given; held dice are not thrown)."""

    turn: int
    throw: int
    slots: tuple[int, ...]


class LoggedThrow(NamedTuple):
    """A throw as a stored event shows it: where (``at``), by which seat (``seat``, the
    roller; None when the server threw for nobody in particular) and the faces logged, one
    per slot of ``at.slots``."""

    at: Throw
    seat: int | None
    faces: tuple[int, ...]


class DiceLog(Protocol):
    """A game whose server dice come from one secret seed per game (docs/dice.md): the room
    draws each die as ``app.engines.fair_dice.face`` of the seed and its place, which this
    capability names. Pure: states and events come in."""

    def seeded(self, options: dict[str, Any]) -> bool:
        """True when a game with these room ``options`` throws server dice (False with real
        dice: docs/rules.md, "Table mode"; such a game has no seed and no commitment)."""

    def next_throw(self, state: Any, count: int) -> Throw:
        """Where the next ``count`` dice drawn in ``state`` sit: the throw a roll (or an
        automatic roll) decided on ``state`` makes. ``ValueError`` when ``count`` does not
        match the dice the game throws next."""

    def logged(self, state: Any, event: Any) -> LoggedThrow | None:
        """The server throw the stored ``event`` (``base.Event``) records, decided on
        ``state`` (the game before ``event`` is folded); None for any other event (a
        placement, a hold, dice entered by hand)."""


def dice_log_of(plugin: Any) -> DiceLog | None:
    """``plugin``'s ``DiceLog`` (its ``dice_log``), None for a game without one."""
    found: DiceLog | None = getattr(plugin, "dice_log", None)
    return found
