"""Knister in a room: one shared roll of two dice, every seat writes the sum at once.

Rules: RULES.md, Knister (rolls pass round the table in seat order; when every seated player
has placed, the next roll may be made; 25 rolls). Events stored per game:

- ``roll``  payload ``{"dice": [a, b], "auto": bool}`` (seat = roller; auto when the server
  rolled for an away roller)
- ``place`` payload ``{"cell": [r, c], "value": a + b, "auto": bool}`` (seat = placer; auto
  when the placement timer ran out)
- ``leave`` payload ``{}`` (seat taken out of the game by the host or by leaving)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from app.engines.knister import (
    CellTaken,
    KnisterRules,
    KnisterSheet,
    PlacementError,
    auto_cell,
    score_grid,
)
from app.rooms.games.base import (
    ActionError,
    Dice,
    Event,
    OptionError,
    Part,
    Table,
    next_in_order,
)

ROLLS_PER_GAME = 25  # RULES.md, Knister: "25 rolls fill every grid"
AWAY_ROLLER_GRACE = timedelta(seconds=15)
AWAY_PLACER_GRACE = timedelta(seconds=30)
TIMER_CHOICES = (0, 30, 60)


@dataclass
class KnisterState:
    """A Knister game folded from its events.

    ``order``: seat ids in table order starting with the start player; ``rolls``: sums so far;
    ``placed``: seats that placed the current roll; ``auto_cells``: (seat, cell) placed by the
    server; ``rolled_at``: time of the latest roll (for the placement timer); ``view_cache``:
    the sheets as every viewer sees them, for the latest state (see ``KnisterGame.view``).
    """

    rules: KnisterRules
    timer: int
    order: list[int]
    sheets: dict[int, KnisterSheet]
    rolls: list[tuple[int, int]] = field(default_factory=list)
    roll_rollers: list[int] = field(default_factory=list)
    placed: set[int] = field(default_factory=set)
    auto_cells: set[tuple[int, tuple[int, int]]] = field(default_factory=set)
    auto_rolls: set[int] = field(default_factory=set)
    left: set[int] = field(default_factory=set)
    rolled_at: datetime | None = None
    ready_at: datetime | None = None
    view_cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def active(self) -> list[int]:
        """Seats still in the game, in table order."""
        return [s for s in self.order if s not in self.left]

    @property
    def roll_pending(self) -> bool:
        """True while some active seat has not placed the latest roll."""
        return bool(self.rolls) and any(s not in self.placed for s in self.active)

    @property
    def roller(self) -> int | None:
        """The seat whose turn it is to roll next: the next seat still in the game after the
        last roller, in table order (the start player for the first roll), whoever left
        since (docs/rules.md, Knister: "the roll passes round the table"). None when the
        game is over or nobody is left."""
        if not self.order or len(self.rolls) >= ROLLS_PER_GAME:
            return None
        if not self.roll_rollers:
            return next_in_order(self.order, self.order[-1], self.left)
        return next_in_order(self.order, self.roll_rollers[-1], self.left)

    @property
    def current_sum(self) -> int | None:
        """The sum every seat must place now, or None."""
        return sum(self.rolls[-1]) if self.roll_pending else None


class KnisterGame:
    """The Knister plug-in (see ``app.rooms.games.base.GamePlugin``)."""

    kind = "knister"
    folder = "knister"
    template = "rooms/knister/game.html"
    parts_template = "rooms/knister/_parts.html"

    def default_options(self) -> dict[str, Any]:
        """Match of 1 game, straight without 7 worth 10 (seed), no placement timer."""
        return {"match": 1, "straight_without_seven": 10, "timer": 0}

    def parse_options(self, form: dict[str, Any]) -> dict[str, Any]:
        """Validate ``{"match": 1|3, "straight_without_seven": 10|12, "timer": 0|30|60}``.

        Values may be strings (form fields). Raises ``OptionError`` naming the bad field.
        """
        options = self.default_options()
        for key, allowed in (
            ("match", (1, 3)),
            ("straight_without_seven", (10, 12)),
            ("timer", TIMER_CHOICES),
        ):
            if key in form:
                try:
                    value = int(form[key])
                except (TypeError, ValueError):
                    raise OptionError(key) from None
                if value not in allowed:
                    raise OptionError(key)
                options[key] = value
        return options

    def new_state(self, options: dict[str, Any], seat_ids: Sequence[int], start: int) -> Any:
        """A fresh game; the start player (index ``start`` of ``seat_ids``) rolls first."""
        order = list(seat_ids[start:]) + list(seat_ids[:start])
        return KnisterState(
            rules=KnisterRules(options.get("straight_without_seven", 10)),
            timer=int(options.get("timer", 0)),
            order=order,
            sheets={s: KnisterSheet() for s in order},
        )

    def apply(self, state: KnisterState, event: Event) -> None:
        """Fold one stored ``roll``, ``place`` or ``leave`` event into ``state``."""
        if event.type == "roll":
            state.rolls.append((event.payload["dice"][0], event.payload["dice"][1]))
            state.roll_rollers.append(event.seat_id)
            if event.payload.get("auto"):
                state.auto_rolls.add(len(state.rolls) - 1)
            state.placed = set()
            state.rolled_at = event.at
        elif event.type == "place":
            r, c = event.payload["cell"]
            state.sheets[event.seat_id].place((r, c), event.payload["value"])
            state.placed.add(event.seat_id)
            if event.payload.get("auto"):
                state.auto_cells.add((event.seat_id, (r, c)))
            if not state.roll_pending:
                state.ready_at = event.at
        elif event.type == "leave":
            state.left.add(event.seat_id)
            if state.rolls and not state.roll_pending:
                state.ready_at = event.at

    def decide(
        self, state: KnisterState, seat_id: int, action: dict[str, Any], dice: Dice
    ) -> list[Event]:
        """Events for a ``roll`` or ``place`` action by ``seat_id``; raises ``ActionError``."""
        if seat_id not in state.active:
            raise ActionError("not_playing", "You are not playing in this game.")
        kind = action.get("type")
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
            if not state.roll_pending:
                raise ActionError("no_roll", "There is no roll to place yet.")
            if seat_id in state.placed:
                raise ActionError("already_placed", "You have already placed this roll.")
            try:
                KnisterSheet.from_grid(state.sheets[seat_id].grid).place(cell, state.current_sum)
            except CellTaken:
                raise ActionError("cell_taken", "That cell is already filled.") from None
            except PlacementError:
                raise ActionError("bad_cell", "That is not a cell of your sheet.") from None
            value = state.current_sum
            return [Event("place", {"cell": list(cell), "value": value, "auto": False}, seat_id)]
        raise ActionError("unknown_action", "Unknown action.")

    def basis(self, state: KnisterState) -> dict[str, int]:
        """What a page's action is decided on: ``roll``, the number of rolls it has seen. A
        placement of an earlier roll (the page was offline, or behind) would write a sum its
        player never saw, and a roll for an earlier turn would roll twice: both are refused
        as stale (docs/rules.md, "Stale actions")."""
        return {"roll": len(state.rolls)}

    def remove_seat(self, state: KnisterState, seat_id: int) -> list[Event]:
        """A ``leave`` event when ``seat_id`` still plays, else nothing."""
        return [Event("leave", {}, seat_id)] if seat_id in state.active else []

    def deadline(self, state: KnisterState, table: Table, now: datetime) -> datetime | None:
        """Placement deadline (timer on) or the away roller's grace end, else None."""
        if self.is_over(state):
            return None
        dues = list(self.away_deadlines(state, table, now).values())
        if state.roll_pending and state.timer and state.rolled_at:
            dues.append(state.rolled_at + timedelta(seconds=state.timer))
        return min(dues) if dues else None

    def away_deadlines(self, state: KnisterState, table: Table,
                       now: datetime) -> dict[int, datetime]:
        """``{seat: when the server acts for it}`` for every away seat (no open socket) the
        table waits for: each away placer of the current roll (``AWAY_PLACER_GRACE``), or
        the away roller (``AWAY_ROLLER_GRACE``). Shown as a countdown on every screen."""
        if self.is_over(state):
            return {}
        if state.roll_pending:
            return {seat: _away_due(state, table, seat, now, AWAY_PLACER_GRACE)
                    for seat in state.active
                    if seat not in state.placed and seat not in table.online}
        roller = state.roller
        if roller is not None and roller not in table.online:
            return {roller: _away_due(state, table, roller, now, AWAY_ROLLER_GRACE)}
        return {}

    def on_timer(
        self, state: KnisterState, table: Table, now: datetime, dice: Dice
    ) -> list[Event]:
        """Automatic placements after the timer, or a roll for an away roller."""
        due = self.deadline(state, table, now)
        if due is None or due > now:
            return []
        if state.roll_pending:
            value = state.current_sum
            timer_due = (state.timer and state.rolled_at and
                         state.rolled_at + timedelta(seconds=state.timer) <= now)
            return [
                Event("place", {"cell": list(auto_cell(state.sheets[s], value)),
                                "value": value, "auto": True}, s)
                for s in state.active
                if s not in state.placed and (
                    timer_due or (s not in table.online and
                                  _away_due(state, table, s, now, AWAY_PLACER_GRACE) <= now))
            ]
        return [Event("roll", {"dice": dice(2), "auto": True}, state.roller)]

    def is_over(self, state: KnisterState) -> bool:
        """True after 25 rolls all placed (or when nobody is left)."""
        if not state.active:
            return True
        return len(state.rolls) >= ROLLS_PER_GAME and not state.roll_pending

    def totals(self, state: KnisterState) -> dict[int, int]:
        """``score_grid`` total per seat (RULES.md, Knister)."""
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

    def view(self, state: KnisterState, viewer_seat_id: int | None) -> dict[str, Any]:
        """Template context: sheets with scored lines, the roll, who placed, whose roll.

        ``sheets[seat]``: ``grid`` (5 tuples of 5 sums or None), ``score`` (KnisterScore),
        ``lines``, ``scoring_cells`` (cells of scoring lines, once the game is over),
        ``auto`` (cells the server placed) and ``cells`` (per row, per cell: its CSS classes,
        value and whether the server placed it).
        """
        over = self.is_over(state)
        # Every viewer of a version shows the same sheets: build them once per version (each
        # event changes the number of rolls, placements or leavers), and keep the entry of a
        # sheet that did not change.
        marker = (len(state.rolls), len(state.placed), len(state.left), over)
        cache = state.view_cache
        if cache.get("marker") == marker:
            sheets = cache["sheets"]
        else:
            before = cache.get("sheets", {})
            sheets = {}
            for seat, sheet in state.sheets.items():
                grid = tuple(map(tuple, sheet.grid))
                auto = frozenset(cell for s, cell in state.auto_cells if s == seat)
                entry = before.get(seat)
                if entry is None or (entry["grid"], entry["auto"], entry["over"]) != (
                        grid, auto, over):
                    score = score_grid(grid, state.rules)
                    scoring = frozenset(_scoring_cells(score)) if over else frozenset()
                    entry = {"grid": grid, "score": score, "lines": tuple(score.lines),
                             "scoring_cells": scoring, "auto": auto, "over": over,
                             "cells": _cells(grid, auto, scoring)}
                sheets[seat] = entry
            cache["marker"], cache["sheets"] = marker, sheets
        active = state.active
        pending = bool(state.rolls) and any(s not in state.placed for s in active)
        can_place = viewer_seat_id in active and pending and viewer_seat_id not in state.placed
        return {
            "state": state,
            "over": over,
            "sheets": sheets,
            "rolls_done": len(state.rolls),
            "rolls_total": ROLLS_PER_GAME,
            "dice": state.rolls[-1] if state.rolls else None,
            "roll_auto": (len(state.rolls) - 1) in state.auto_rolls,
            "current_sum": state.current_sum,
            "roller": state.roller,
            "can_roll": (not over and not pending and state.roller == viewer_seat_id),
            "deadline": (state.rolled_at + timedelta(seconds=state.timer))
            if state.timer and state.rolled_at and pending else None,
            "can_place": can_place,
            "waiting_for": [s for s in active if s not in state.placed] if pending else [],
            "active": frozenset(active),
        }

    def parts(self, view: dict[str, Any], viewer_seat_id: int | None,
              labels: dict[int, str]) -> list[Part]:
        """The game area's parts as ``viewer_seat_id`` sees it: the turn panel (while the game
        runs), then for every sheet, the viewer's own first, its head (name, placed mark,
        total) and its grid (macros in ``parts_template``).

        Each key lists exactly what its macro shows, so a placement re-sends only the placer's
        head and grid and the turn panels whose text changed, and a roll the heads, the turn
        panel and each viewer's own grid.
        """
        st: KnisterState = view["state"]
        current = view["current_sum"]
        parts = []
        if not view["over"]:
            waiting = (tuple(labels[s] for s in view["waiting_for"])
                       if current and not view["can_place"] else None)
            roller = (labels.get(view["roller"]) if view["roller"] and not current
                      and not view["can_roll"] else None)
            dice = tuple(view["dice"]) if view["dice"] else None
            key = ("turn", dice, view["rolls_done"], view["roll_auto"], current,
                   view["can_place"], view["can_roll"], waiting, roller, view["deadline"],
                   st.timer)
            parts.append(Part("knister-turn", key, "knister_turn", (view, st, labels)))
        # Heads and other players' grids are the same for every viewer: built once per version.
        shared_key = (st.view_cache.get("marker"), tuple(labels.items()))
        cached = st.view_cache.get("parts")
        if cached is None or cached[0] != shared_key:
            shared = {seat: self._sheet_parts(seat, False, view, labels) for seat in st.order}
            st.view_cache["parts"] = cached = (shared_key, shared)
        shared = cached[1]
        if viewer_seat_id in shared:
            head, _ = shared[viewer_seat_id]
            parts += [head, self._sheet_parts(viewer_seat_id, True, view, labels)[1]]
        for seat in st.order:
            if seat != viewer_seat_id:
                parts += shared[seat]
        return parts

    @staticmethod
    def _sheet_parts(seat: int, mine: bool, view: dict[str, Any],
                     labels: dict[int, str]) -> tuple[Part, Part]:
        """The head and grid parts of ``seat``'s sheet (``mine``: as its owner sees it)."""
        st: KnisterState = view["state"]
        current, sheet = view["current_sum"], view["sheets"][seat]
        head = Part(f"sheet-head-{seat}",
                    ("head", seat, labels[seat], bool(current) and seat in view["active"],
                     seat in st.placed, sheet["score"].total),
                    "knister_head", (seat, view, st, labels))
        grid = Part(f"sheet-grid-{seat}",
                    ("grid", seat, mine, (current, view["rolls_done"])
                     if mine and view["can_place"] else None, labels[seat], sheet["grid"],
                     sheet["auto"], view["over"], st.rules),
                    "knister_grid", (seat, mine, view, st, labels))
        return head, grid


def _cells(grid: tuple[tuple[int | None, ...], ...], auto: frozenset[tuple[int, int]],
           scoring: frozenset[tuple[int, int]]) -> tuple[tuple[Any, ...], ...]:
    """Per row, per cell of a sheet: ``(css classes, value, placed by the server)``."""
    return tuple(
        tuple(("cell" + (" scoring" if (r, c) in scoring else "") + (" auto" if (r, c) in auto
               else "") + (" diag" if r == c or r + c == 4 else ""), value, (r, c) in auto)
              for c, value in enumerate(row))
        for r, row in enumerate(grid))


def _away_due(state: KnisterState, table: Table, seat: int, now: datetime,
              grace: timedelta) -> datetime:
    """When the server acts for away ``seat``: ``grace`` after the latest of: it went away,
    the table became ready for it (the roll, the last placement, or the game's start), and
    this process began watching the room (so players get time to reconnect after a
    restart)."""
    ready = state.rolled_at if state.roll_pending else (state.ready_at or table.started_at)
    moments = [m for m in (ready, table.away_since.get(seat), table.watching_since) if m]
    return (max(moments) if moments else now) + grace


def _parse_cell(raw: object) -> tuple[int, int]:
    """``"r,c"`` or ``[r, c]`` to a cell tuple; ``ActionError`` when malformed."""
    try:
        if isinstance(raw, str):
            parts = raw.split(",")
        elif isinstance(raw, list | tuple):
            parts = list(raw)
        else:
            raise ValueError
        if len(parts) != 2:
            raise ValueError
        r, c = (int(p) for p in parts)
    except (TypeError, ValueError):
        raise ActionError("bad_cell", "That is not a cell of your sheet.") from None
    if not (0 <= r < 5 and 0 <= c < 5):
        raise ActionError("bad_cell", "That is not a cell of your sheet.")
    return r, c


def _scoring_cells(score) -> set[tuple[int, int]]:
    """Cells that lie on a line scoring more than 0 (highlighted on the final screen)."""
    return {cell for line in score.lines if line.points for cell in line.cells}
