"""Knister in a room: one shared roll of two dice, every seat writes the sum at once.

Rules: docs/rules.md, "Knister" (rolls pass round the table in seat order; when every seated player
has placed, the next roll may be made; 25 rolls). Events stored per game:

- ``roll``  payload ``{"dice": [a, b], "auto": bool}`` (seat = roller; auto when the server
  rolled for an away roller); with real dice an entered roll (see ``entry``)
- ``place`` payload ``{"cell": [r, c], "value": a + b, "auto": bool}`` (seat = placer; auto
  when the placement timer ran out)
- ``leave`` payload ``{}`` (seat taken out of the game by the host or by leaving)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from app.engines.knister import (
    CellTaken,
    KnisterRules,
    KnisterSheet,
    PlacementError,
    score_grid,
)
from app.errors import N_
from app.rooms.games.base import (
    ActionError,
    Dice,
    Event,
    GameBot,
    Presence,
    ViewsFromModule,
    is_turn_based,
    parse_cell,
    parse_int_options,
)
from app.rooms.games.capabilities import DiceLog, GameGuide, GameRecords, GameReview, GameSheet
from app.rooms.games.knister import labels, timers, view
from app.rooms.games.knister.bot import KnisterBot
from app.rooms.games.knister.cells import grid_rows
from app.rooms.games.knister.entry import decide_entry, entry_basis
from app.rooms.games.knister.grid import sheet_grid
from app.rooms.games.knister.guide import KnisterGuide
from app.rooms.games.knister.lines import line_points
from app.rooms.games.knister.records import KnisterRecords
from app.rooms.games.knister.state import KnisterState, fold
from app.rooms.games.knister.throws import KnisterDice
from app.rooms.games.knister.timers import AWAY_PLACER_GRACE, AWAY_ROLLER_GRACE
from app.rooms.games.real_dice import is_real, parse_dice_mode

TIMER_CHOICES = (0, 30, 60)


class KnisterGame(ViewsFromModule):
    """The Knister plug-in (see ``app.rooms.games.base.GamePlugin``)."""

    view_module = view

    kind = "knister"
    label = "Knister"
    tagline = N_("Like Yahtzee on a grid: two dice, every sum goes into your 5×5 grid, and "
                 "its rows and columns score like poker hands.")
    picture = "grid"
    actions = frozenset({"roll", "place", "enter"})
    folder = "knister"
    review: GameReview | None = None
    solo_practice = False
    pass_and_play = True
    bot: GameBot | None = KnisterBot()
    turn_based = True
    dice_log: DiceLog | None = KnisterDice()  # docs/dice.md
    guide: GameGuide | None = KnisterGuide(KnisterBot())
    records: GameRecords | None = KnisterRecords()
    sheet: GameSheet | None = None  # its grid is drawn by app/daily from the placements
    template = "rooms/knister/game.html"
    template_dir: Path | None = None  # its templates are in templates/rooms/<folder>/
    parts_template = "rooms/knister/_parts.html"
    styles: tuple[str, ...] = ("css/knister.css",)
    scripts: tuple[str, ...] = ("js/games/knister.js",)

    def default_options(self) -> dict[str, Any]:
        """Match of 1 game, straight without 7 worth 10 (seed), no timer, dice on screen."""
        return {"match": 1, "straight_without_seven": 10, "timer": 0, "dice": "screen"}

    def parse_options(self, form: dict[str, Any]) -> dict[str, Any]:
        """Validate ``{"match": 1|3, "straight_without_seven": 10|12, "timer": 0|30|60}``
        and ``dice`` (``table.parse_dice_mode``).

        Values may be strings (form fields). Raises ``OptionError`` naming the bad field.
        """
        options = parse_int_options(form, self.default_options(), (
            ("match", (1, 3)), ("straight_without_seven", (10, 12)), ("timer", TIMER_CHOICES)))
        return parse_dice_mode(form, options)

    def new_state(self, options: dict[str, Any], seat_ids: Sequence[int], start: int) -> Any:
        """A fresh game; the start player (index ``start`` of ``seat_ids``) rolls first."""
        order = list(seat_ids[start:]) + list(seat_ids[:start])
        return KnisterState(
            rules=KnisterRules(options.get("straight_without_seven", 10)),
            timer=int(options.get("timer", 0)),
            order=order,
            sheets={s: KnisterSheet() for s in order},
            real_dice=is_real(options),
            auto_roll=is_turn_based(options),
        )

    def apply(self, state: KnisterState, event: Event) -> None:
        """Fold one stored ``roll``, ``place`` or ``leave`` event into ``state`` (``fold``)."""
        fold(state, event)

    def decide(
        self, state: KnisterState, seat_id: int, action: dict[str, Any], dice: Dice
    ) -> list[Event]:
        """Events for a ``roll``, ``enter`` (``decide_entry``) or ``place`` by ``seat_id``."""
        if seat_id not in state.active:
            raise ActionError("not_playing", "You are not playing in this game.")
        kind = action.get("type")
        if kind == "enter" or kind == "roll" and state.real_dice:
            return decide_entry(state, seat_id, action, self.is_over(state))
        if kind == "roll":
            if self.is_over(state):
                raise ActionError("game_over", "The game is over.")
            if state.roll_pending:
                raise ActionError("waiting", "Not everyone has placed the last roll yet.")
            if state.roller != seat_id:
                raise ActionError("not_your_turn", "It is not your turn to roll.")
            return [Event("roll", {"dice": dice(2), "auto": False}, seat_id)]
        if kind == "place":
            cell = _parse_cell(action.get("cell"))
            # ``placed`` holds the latest roll's seats until the next roll, also once everyone
            # placed it: a second tab's placement of it is told so, not "no roll yet"
            if seat_id in state.placed:
                raise ActionError("already_placed", "You have already placed this roll.")
            if not state.roll_pending:
                raise ActionError("no_roll", "There is no roll to place yet.")
            value = state.current_sum
            assert value is not None  # a roll is pending
            try:
                KnisterSheet.from_grid(state.sheets[seat_id].grid).place(cell, value)
            except CellTaken:
                raise ActionError("cell_taken", "That cell is already filled.") from None
            except PlacementError:
                raise ActionError("bad_cell", "That is not a cell of your sheet.") from None
            placed = Event("place", {"cell": list(cell), "value": value, "auto": False}, seat_id)
            return [placed, *timers.next_roll_after(state, seat_id, dice)]
        raise ActionError("unknown_action", "Unknown action.")

    def basis(self, state: KnisterState) -> dict[str, int]:
        """What a page's action is decided on: ``roll``, the number of rolls it has seen. A
        placement of an earlier roll (the page was offline, or behind) would write a sum its
        player never saw, and a roll for an earlier turn would roll twice: both are refused
        as stale (docs/rules.md, "Stale actions"); with real dice also ``entry``."""
        return entry_basis(state)

    def remove_seat(self, state: KnisterState, seat_id: int) -> list[Event]:
        """A ``leave`` event when ``seat_id`` still plays, else nothing."""
        return [Event("leave", {}, seat_id)] if seat_id in state.active else []

    def deadline(self, state: KnisterState, table: Presence, now: datetime) -> datetime | None:
        """Placement deadline (timer on) or the away roller's grace end, else None
        (``timers.deadline``)."""
        return timers.deadline(state, table, now)

    def away_deadlines(self, state: KnisterState, table: Presence,
                       now: datetime) -> dict[int, datetime]:
        """``{seat: when the server acts for it}`` for every away seat the table waits for
        (``timers.away_deadlines``)."""
        return timers.away_deadlines(state, table, now)

    def on_timer(
        self, state: KnisterState, table: Presence, now: datetime, dice: Dice
    ) -> list[Event]:
        """Automatic placements after the timer, or a roll for an away roller
        (``timers.on_timer``)."""
        return timers.on_timer(state, table, now, dice)

    awaiting = staticmethod(view.awaiting)  # the seats the game waits for now

    def turn_key(self, state: KnisterState) -> int:
        """The number of rolls so far: each roll is a new turn for everyone."""
        return len(state.rolls)
    def is_over(self, state: KnisterState) -> bool:
        """True after 25 rolls all placed (or when nobody is left)."""
        return view.is_over(state)

    def left_game(self, state: KnisterState) -> frozenset[int]:
        """Seats that left or were removed during the game (``leave`` events)."""
        return frozenset(state.left)

    def totals(self, state: KnisterState) -> dict[int, int]:
        """``score_grid`` total per seat (docs/rules.md, Knister)."""
        return {s: score_grid(sheet.grid, state.rules).total for s, sheet in state.sheets.items()}

    def public(self, state: KnisterState) -> dict[str, Any]:
        """Rolls, every sheet, who placed, whose roll, totals: for ``state.json``."""
        return {
            "order": state.order,
            "active": state.active,
            "rolls": [list(r) for r in state.rolls],
            "roll_pending": state.roll_pending,
            "current_sum": state.current_sum,
            "roller": state.roller,
            "placed": sorted(state.placed),
            "sheets": {str(s): sheet.grid for s, sheet in state.sheets.items()},
            "totals": {str(s): t for s, t in self.totals(state).items()},
            "over": self.is_over(state),
        }

    def template_globals(self) -> dict[str, Any]:
        """Functions the Knister templates call (translated names, grid cells)."""
        return {"combination_name": labels.combination_name, "line_name": labels.line_name,
                "grid_titles": labels.grid_titles, "grid_rows": grid_rows,
                "line_points": line_points, "sheet_grid": sheet_grid}


def _parse_cell(raw: object) -> tuple[int, int]:
    """``"r,c"`` or ``[r, c]`` to a cell of a 5x5 sheet; ``ActionError`` when malformed."""
    cell = parse_cell(raw, 5)
    if cell is None:
        raise ActionError("bad_cell", "That is not a cell of your sheet.")
    return cell


__all__ = ["AWAY_PLACER_GRACE", "AWAY_ROLLER_GRACE", "TIMER_CHOICES", "KnisterGame"]
