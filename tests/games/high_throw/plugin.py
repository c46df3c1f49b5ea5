"""High throw in a room (rules: the package docstring; events: ``state``).

The plug-in implements every member of ``app.rooms.games.base.GamePlugin`` and declares a
trivial bot. Added by the ``EXTRA_GAMES`` setting as
``tests.games.high_throw.plugin:HighThrowGame``; its templates are in ``templates/`` beside
this module (``template_dir``), it loads no styles or scripts of its own.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from app.rooms.games.base import (
    ActionError,
    Dice,
    Event,
    GameBot,
    Part,
    Presence,
    Strategies,
    parse_int_options,
)
from app.rooms.games.capabilities import DiceLog, GameGuide, GameRecords, GameReview
from tests.games.high_throw.state import ThrowState, fold

DICE_CHOICES = (1, 2)
AWAY_GRACE = timedelta(seconds=15)
"""An away thrower is thrown for by the server this long after its turn began."""


class HighThrowBot:
    """The ``GameBot`` of high throw: throws when it is its seat's turn, at every level."""

    def move(self, state: ThrowState, seat: int, level: str, key: str, last_seq: int,
             options: dict[str, Any], strategies: Strategies) -> dict[str, Any] | None:
        """``{"type": "roll"}`` when ``seat`` throws next, else None (``GameBot.move``)."""
        return {"type": "roll"} if state.roller == seat else None


class HighThrowGame:
    """The high throw plug-in (see ``app.rooms.games.base.GamePlugin``)."""

    kind = "high_throw"
    label = "High throw"  # test-only: not in the catalogs, shown as it is
    tagline = "One throw each: the highest throw wins."
    picture = "dice"
    actions = frozenset({"roll"})
    folder = "high_throw"
    template = "rooms/high_throw/game.html"
    parts_template = "rooms/high_throw/_parts.html"
    template_dir: Path | None = Path(__file__).resolve().parent / "templates"
    styles: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    review: GameReview | None = None  # no hints or analysis
    guide: GameGuide | None = None  # no guided first round
    records: GameRecords | None = None  # points and places only
    dice_log: DiceLog | None = None  # its dice are not drawn from a committed seed
    solo_practice = False
    pass_and_play = False
    bot: GameBot | None = HighThrowBot()
    turn_based = True

    def default_options(self) -> dict[str, Any]:
        """Two dice per throw."""
        return {"dice_count": 2}

    def parse_options(self, form: dict[str, Any]) -> dict[str, Any]:
        """Validate ``{"dice_count": 1|2}`` (form strings too); raises ``OptionError``."""
        return parse_int_options(form, self.default_options(), (("dice_count", DICE_CHOICES),))

    def new_state(self, options: dict[str, Any], seat_ids: Sequence[int], start: int) -> Any:
        """A game for ``seat_ids`` (table order); the seat at index ``start`` throws first."""
        order = list(seat_ids[start:]) + list(seat_ids[:start])
        return ThrowState(dice=int(options.get("dice_count", 2)), order=order)

    def apply(self, state: ThrowState, event: Event) -> None:
        """Fold one stored ``roll`` or ``leave`` event (``state.fold``)."""
        fold(state, event)

    def decide(self, state: ThrowState, seat_id: int, action: dict[str, Any],
               dice: Dice) -> list[Event]:
        """The ``roll`` event of the seat whose turn it is; raises ``ActionError``
        (``not_playing``, ``game_over``, ``not_your_turn``, ``unknown_action``)."""
        if seat_id not in state.active:
            raise ActionError("not_playing", "You are not playing in this game.")
        if action.get("type") != "roll":
            raise ActionError("unknown_action", "Unknown action.")
        if state.over:
            raise ActionError("game_over", "The game is over.")
        if state.roller != seat_id:
            raise ActionError("not_your_turn", "It is not your turn to roll.")
        return [Event("roll", {"dice": dice(state.dice), "auto": False}, seat_id)]

    def basis(self, state: ThrowState) -> dict[str, int]:
        """``throws``: how many throws the page has seen (a throw sent for an earlier turn is
        refused as stale)."""
        return {"throws": len(state.throws)}

    def awaiting(self, state: ThrowState) -> list[int]:
        """The seat that throws next; none once the game is over."""
        return [] if state.roller is None else [state.roller]

    def turn_key(self, state: ThrowState) -> int:
        """The number of throws: each throw ends a turn."""
        return len(state.throws)

    def remove_seat(self, state: ThrowState, seat_id: int) -> list[Event]:
        """A ``leave`` event while ``seat_id`` is still in a running game, else nothing."""
        if seat_id in state.active and not state.over:
            return [Event("leave", {}, seat_id)]
        return []

    def deadline(self, state: ThrowState, table: Presence, now: datetime) -> datetime | None:
        """When the server throws for an away thrower, or None."""
        return min(self.away_deadlines(state, table, now).values(), default=None)

    def away_deadlines(self, state: ThrowState, table: Presence,
                       now: datetime) -> dict[int, datetime]:
        """``{thrower: when the server throws for it}`` while the thrower is away:
        ``AWAY_GRACE`` after the latest of its turn's start, its going away and this process
        starting to watch the room."""
        roller = state.roller
        if roller is None or roller in table.online:
            return {}
        moments = [m for m in (state.ready_at or table.started_at, table.away_since.get(roller),
                               table.watching_since) if m]
        return {roller: (max(moments) if moments else now) + AWAY_GRACE}

    def on_timer(self, state: ThrowState, table: Presence, now: datetime,
                 dice: Dice) -> list[Event]:
        """The throw of an away thrower whose grace ran out (``auto``), else nothing."""
        return [Event("roll", {"dice": dice(state.dice), "auto": True}, seat)
                for seat, due in self.away_deadlines(state, table, now).items() if due <= now]

    def is_over(self, state: ThrowState) -> bool:
        """True when every seat still in the game has thrown."""
        return state.over

    def totals(self, state: ThrowState) -> dict[int, int]:
        """Each seat's throw (0 for one that never threw)."""
        return {seat: state.total(seat) for seat in state.order}

    def left_game(self, state: ThrowState) -> frozenset[int]:
        """Seats taken out before the end (``leave`` events)."""
        return frozenset(state.left)

    def public(self, state: ThrowState) -> dict[str, Any]:
        """Everything (nothing is secret): order, who is in, the throws, who throws next."""
        return {"order": state.order, "active": state.active, "dice": state.dice,
                "throws": {str(s): list(faces) for s, faces in state.throws.items()},
                "auto": sorted(state.auto), "roller": state.roller,
                "totals": {str(s): t for s, t in self.totals(state).items()},
                "over": state.over}

    def view(self, state: ThrowState, viewer_seat_id: int | None) -> dict[str, Any]:
        """Template context: ``state``, ``over``, ``roller``, ``throws_done``, ``throws_total``
        (the throws made and those still to come) and whether the viewer may throw now
        (``can_roll``)."""
        to_come = sum(seat not in state.throws for seat in state.active)
        return {"state": state, "over": state.over, "roller": state.roller,
                "throws_done": len(state.throws), "throws_total": len(state.throws) + to_come,
                "can_roll": not state.over and state.roller == viewer_seat_id}

    def view_group(self, state: ThrowState, viewer_seat_id: int | None) -> Hashable:
        """The thrower sees its Roll button; everyone else sees the same."""
        return "roller" if viewer_seat_id == state.roller else "others"

    def template_globals(self) -> dict[str, Any]:
        """None: its templates use the room's helpers only (``die``, ``number``)."""
        return {}

    def parts(self, view: dict[str, Any], viewer_seat_id: int | None,
              labels: dict[int, str]) -> list[Part]:
        """The turn panel while the game runs, then one part per seat (its throw)."""
        st: ThrowState = view["state"]
        parts = []
        if not view["over"]:
            roller = view["roller"]
            parts.append(Part("throw-turn", ("turn", view["throws_done"], view["throws_total"],
                                             roller, labels.get(roller), view["can_roll"]),
                              "throw_turn", (view, labels)))
        for seat in st.order:
            parts.append(Part(f"throw-seat-{seat}",
                              ("seat", seat, labels[seat], st.throws.get(seat),
                               seat in st.auto, seat in st.left, seat == st.roller),
                              "throw_seat", (seat, view, labels)))
        return parts
