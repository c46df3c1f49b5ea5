"""Kniffel, KitKniff and Yatzy in a room: one player at a time rolls, holds and fills a box.

Rules: docs/rules.md, "Kniffel family"; rule texts 004 (Kniffel) and 002
(KitKniff). One plug-in class serves the three rule sets
(``KniffelGame("kniffel")`` ...). The state and its events are in ``kniffel_state``, the
template context in ``view``.

Timers (the turn timer, away players): ``timers``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from app.engines.kniffel import DICE, RULESETS
from app.rooms.games.base import ActionError, Dice, Event, GameBot, Presence, ViewsFromModule
from app.rooms.games.capabilities import DiceLog, GameGuide, GameRecords, GameReview, GameSheet
from app.rooms.games.kniffel import cells_html, entry, labels, timers
from app.rooms.games.kniffel import view as kniffel_view
from app.rooms.games.kniffel.bot import KniffelBot
from app.rooms.games.kniffel.entry import decide_entry
from app.rooms.games.kniffel.guide import KniffelGuide
from app.rooms.games.kniffel.options import TIMER_CHOICES, default_options, parse_options
from app.rooms.games.kniffel.records import KniffelRecords
from app.rooms.games.kniffel.review import KniffelReview
from app.rooms.games.kniffel.sheet import KniffelSheet
from app.rooms.games.kniffel.state import KniffelState, fold, rolled
from app.rooms.games.kniffel.throws import KniffelDice
from app.rooms.games.kniffel.timers import AWAY_GRACE


class KniffelGame(ViewsFromModule):
    """The Kniffel-family plug-in for one rule set (see ``base.GamePlugin``)."""

    view_module = kniffel_view

    folder = "kniffel"
    review: GameReview | None = KniffelReview()
    solo_practice = True
    pass_and_play = True
    bot: GameBot | None = KniffelBot()
    turn_based = True
    dice_log: DiceLog | None = KniffelDice()  # docs/dice.md
    guide: GameGuide | None = KniffelGuide()
    picture = "dice"
    actions = frozenset({"roll", "hold", "score", "enter"})
    template = "rooms/kniffel/game.html"
    template_dir: Path | None = None  # its templates are in templates/rooms/<folder>/
    parts_template = "rooms/kniffel/_parts.html"
    styles: tuple[str, ...] = ("css/kniffel.css",)
    scripts: tuple[str, ...] = ("js/games/kniffel.js",)

    def __init__(self, ruleset: str) -> None:
        if ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {ruleset!r}")
        self.kind = ruleset
        self.label = labels.GAME_NAMES[ruleset]
        self.tagline = labels.TAGLINES[ruleset]
        self.records: GameRecords | None = KniffelRecords(ruleset)
        self.sheet: GameSheet | None = KniffelSheet(ruleset)

    # ----- options ---------------------------------------------------------------------------

    def default_options(self) -> dict[str, Any]:
        """One column, no turn timer, joker on, five alike not a full house, extra bonus on
        (docs/rules.md, Kniffel family: house rules off), hints off ("Hints and game
        analysis"), dice on screen ("Table mode"); ``options.default_options``."""
        return default_options()

    def parse_options(self, form: dict[str, Any]) -> dict[str, Any]:
        """Validate the lobby form: ``columns`` 1..6, ``timer`` 0|60|120, and the switches
        ``joker`` (off = the house rule "no joker"; not in Yatzy), ``five_alike_full_house``,
        ``extra_bonus`` (KitKniff only), ``hints`` (the player on turn may ask for the best
        keep and box), ``dice`` ``screen``|``real``. Absent fields keep their default; a
        switch may come as a list (hidden "false" + checked "true"), the last value counts.
        Values may be strings. Raises ``OptionError`` naming the bad field.
        """
        return parse_options(self.kind, form)

    def new_state(self, options: dict[str, Any], seat_ids: Sequence[int], start: int) -> Any:
        """A fresh game; seat ``seat_ids[start]`` takes the first turn."""
        order = list(seat_ids[start:]) + list(seat_ids[:start])
        return KniffelState.new(self.kind, {**self.default_options(), **options}, order)

    # ----- events ----------------------------------------------------------------------------

    def apply(self, state: KniffelState, event: Event) -> None:
        """Fold one stored ``roll``, ``hold``, ``score`` or ``leave`` event into ``state``."""
        fold(state, event)

    def decide(
        self, state: KniffelState, seat_id: int, action: dict[str, Any], dice: Dice
    ) -> list[Event]:
        """Events for ``{"type": "roll"}``, ``{"type": "hold", "die": 0..4, "held": bool}``
        (the state the page wants: a repeated hold changes nothing) or ``{"type": "score",
        "box": id, "column"?: n}`` by ``seat_id``. The turn and roll the action was decided
        on (``basis``) are checked by the room service before this. Raises ``ActionError``
        (nothing changes) when the seat is not playing or not on turn, the game is over, no
        roll is left, no die is free, there are no dice yet, ``held`` is missing, the die or
        box is unknown, the box is filled, or the column is not open.
        """
        if seat_id not in state.active:
            raise ActionError("not_playing", "You are not playing in this game.")
        if state.over:
            raise ActionError("game_over", "The game is over.")
        kind = action.get("type")
        if kind not in self.actions:
            raise ActionError("unknown_action", "Unknown action.")
        if state.current != seat_id:
            raise ActionError("not_your_turn", "It is not your turn.")
        if kind == "enter" or state.real_dice and kind != "score":
            return decide_entry(state, seat_id, action)  # docs/rules.md, "Table mode"
        turn = state.turn
        if kind == "roll":
            if turn.rolls >= 3:
                raise ActionError("no_rolls_left", "You have rolled three times: choose a box.")
            if not turn.can_roll:
                raise ActionError("all_held", "All dice are held: release one to roll again.")
            faces = rolled(turn, dice(turn.free_count()))
            return [Event("roll", {"dice": faces, "held": list(turn.held), "auto": False},
                          seat_id)]
        if not turn.rolls:
            if kind == "hold":
                raise ActionError("no_dice", "Roll first: there are no dice to hold yet.")
            raise ActionError("no_roll", "Roll the dice before choosing a box.")
        if kind == "hold":
            die = _die(action.get("die"))
            if turn.rolls >= 3:
                raise ActionError("no_rolls_left", "You have rolled three times: choose a box.")
            held = action.get("held")
            if not isinstance(held, bool):  # the state wanted, so a repeat cannot flip it back
                raise ActionError("bad_message", "The message is malformed.")
            return [Event("hold", {"die": die, "held": held}, seat_id)]
        box, column = _box_and_column(state, seat_id, action)
        card = state.cards[seat_id][column]
        points = card.options(turn.dice)[box]
        return [Event("score", {"box": box, "column": column, "points": points,
                                "auto": False}, seat_id)]

    def remove_seat(self, state: KniffelState, seat_id: int) -> list[Event]:
        """A ``leave`` event when ``seat_id`` still plays, else nothing."""
        return [Event("leave", {}, seat_id)] if seat_id in state.active else []

    # What a page's action is decided on (docs/rules.md, "Stale actions"): ``turn``, ``rolls``
    # and, with real dice, ``entry`` (``entry.basis``).
    basis = staticmethod(entry.basis)

    # ----- timers (``timers``) ----------------------------------------------------------------

    def deadline(self, state: KniffelState, table: Presence, now: datetime) -> datetime | None:
        """When the current turn must be finished for its player (``timers.deadline``)."""
        return timers.deadline(state, table, now)

    def away_deadlines(self, state: KniffelState, table: Presence,
                       now: datetime) -> dict[int, datetime]:
        """``{seat: when the server finishes its turn}`` for the away player on turn
        (``timers.away_deadlines``)."""
        return timers.away_deadlines(state, table, now)

    def on_timer(
        self, state: KniffelState, table: Presence, now: datetime, dice: Dice
    ) -> list[Event]:
        """The automatic end of the current turn when it is due (``timers.on_timer``)."""
        return timers.on_timer(state, table, now, dice)

    # ----- reading ---------------------------------------------------------------------------

    awaiting = staticmethod(entry.awaiting)  # the seats the game waits for now

    def turn_key(self, state: KniffelState) -> int:
        """The current turn's number (``turn_no``): rolls and holds stay within it."""
        return state.turn_no

    def is_over(self, state: KniffelState) -> bool:
        """True when every column of every active seat is full (or nobody is left)."""
        return state.over

    def left_game(self, state: KniffelState) -> frozenset[int]:
        """Seats that left or were removed during the game (``leave`` events)."""
        return frozenset(state.left)

    def totals(self, state: KniffelState) -> dict[int, int]:
        """Points per seat: the sum of its columns' ``Scorecard.total`` (docs/rules.md)."""
        return {s: state.total(s) for s in state.order}

    def public(self, state: KniffelState) -> dict[str, Any]:
        """The game as JSON for ``state.json`` (see ``view.public``)."""
        return kniffel_view.public(state)

    def template_globals(self) -> dict[str, Any]:
        """Functions the Kniffel-family templates call (translated box names, the score
        sheet's cells)."""
        return {"box_label": labels.box_label, "kniffel_cell": cells_html.seat_cell,
                "kniffel_column_html": cells_html.column, "kniffel_offers_html": cells_html.offers}


def _die(raw: Any) -> int:
    """A die index 0..4 from an int or a digit string; ``ActionError`` otherwise."""
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw)
    if type(raw) is not int or not 0 <= raw < DICE:
        raise ActionError("bad_die", "That die is not on the table.")
    return raw


def _box_and_column(state: KniffelState, seat: int, action: dict[str, Any]) -> tuple[str, int]:
    """The ``box`` and ``column`` a ``score`` action names, checked: the box is on this rule
    set's card and open, the column (default: the seat's current one) is the one being filled.
    """
    box = action.get("box")
    if not isinstance(box, str) or box not in RULESETS[state.ruleset].boxes:
        raise ActionError("unknown_box", "That box is not on the score sheet.")
    current = state.column_of(seat)
    assert current is not None
    raw = action.get("column", current)
    try:
        column = int(raw)
    except (TypeError, ValueError):
        raise ActionError("bad_column", "That column is not open.") from None
    if not 0 <= column < state.columns:
        raise ActionError("bad_column", "That column is not open.")
    if state.cards[seat][column].boxes[box] is not None:
        raise ActionError("box_filled", "That box is already filled.")
    if column != current:
        raise ActionError("bad_column", "That column is not open.")
    return box, column


__all__ = ["AWAY_GRACE", "TIMER_CHOICES", "KniffelGame"]
