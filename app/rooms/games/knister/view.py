"""What a Knister game shows: the template context and the live parts of the game area.

Every viewer of a version sees the same sheets, so they are built once per version; the
parts (turn panel, each sheet's head and grid) carry keys holding exactly what their HTML
depends on, so a viewer is sent only what changed (docs/architecture.md, "Live updates").
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from app.engines.knister import score_grid
from app.engines.knister_preview import preview_grid, total_so_far
from app.rooms.games.base import Part
from app.rooms.games.knister.state import ROLLS_PER_GAME, KnisterState


def is_over(state: KnisterState) -> bool:
    """True after 25 rolls all placed (or when nobody is left)."""
    if not state.active:
        return True
    return len(state.rolls) >= ROLLS_PER_GAME and not state.roll_pending


def awaiting(state: KnisterState) -> list[int]:
    """The seats the game waits for now: those still to place the current roll, in table
    order, but its roller first while they may still correct their entry; else the roller;
    none when the game is over."""
    if is_over(state):
        return []
    if state.roll_pending:
        waiting = [s for s in state.active if s not in state.placed]
        roller = state.roll_rollers[-1]
        if not state.placed and state.last_entered and roller in waiting:
            waiting.remove(roller)
            waiting.insert(0, roller)
        return waiting
    return [state.roller] if state.roller is not None else []


def can_enter(state: KnisterState, seat: int | None, over: bool) -> bool:
    """True when ``seat`` may enter real dice now: the next roll is theirs, or they entered
    the latest roll and nobody has placed it yet (a correction; docs/rules.md, "Table mode")."""
    if not state.real_dice or over or seat is None or seat not in state.active:
        return False
    if state.roll_pending:
        return (state.roll_rollers[-1] == seat and not state.placed
                and state.last_entered)
    return state.roller == seat


def view(state: KnisterState, viewer_seat_id: int | None) -> dict[str, Any]:
    """Template context: sheets with scored lines, the roll, who placed, whose roll.

    ``sheets[seat]``: ``grid`` (5 tuples of 5 sums or None), ``score`` (KnisterScore),
    ``lines``, ``previews`` (a ``LinePreview`` per line, what it holds so far),
    ``so_far`` (the provisional total: ``total_so_far`` of the previews),
    ``scoring_cells`` (cells of scoring lines, once the game is over),
    ``auto`` (cells the server placed) and ``cells`` (per row, per cell: its CSS classes,
    value and whether the server placed it). Only ``can_roll``, ``can_enter`` and
    ``can_place`` depend on the viewer: the rest is built once per state (``_shared``).
    """
    shared = _shared(state)
    seat = viewer_seat_id
    pending, over = shared["pending"], shared["over"]
    return {
        **shared,
        "can_roll": (not over and not pending and state.roller == seat
                     and not state.real_dice),
        "can_enter": can_enter(state, seat, over),
        "can_place": seat in shared["active"] and pending and seat not in state.placed,
    }


def _shared(state: KnisterState) -> dict[str, Any]:
    """What every viewer of ``state`` sees alike, built once per folded event."""
    cache = state.view_cache
    if cache.get("folds") == state.folds and "shared" in cache:
        shared: dict[str, Any] = cache["shared"]
        return shared
    over = is_over(state)
    active = state.active
    pending = bool(state.rolls) and any(s not in state.placed for s in active)
    shared = {
        "state": state,
        "over": over,
        "pending": pending,
        "sheets": _sheets(state, over),
        "rolls_done": len(state.rolls),
        "rolls_total": ROLLS_PER_GAME,
        "dice": state.rolls[-1] if state.rolls else None,
        "roll_auto": (len(state.rolls) - 1) in state.auto_rolls,
        "current_sum": state.current_sum,
        "roller": state.roller,
        "real_dice": state.real_dice,
        "sum_only": (len(state.rolls) - 1) in state.sum_only,
        "deadline": (state.rolled_at + timedelta(seconds=state.timer))
        if state.timer and state.rolled_at and pending else None,
        "waiting_for": [s for s in active if s not in state.placed] if pending else [],
        "active": frozenset(active),
    }
    cache["folds"], cache["shared"] = state.folds, shared
    return shared


def _sheets(state: KnisterState, over: bool) -> dict[int, dict[str, Any]]:
    """Every sheet as every viewer sees it. Each event changes the number of rolls,
    placements or leavers: the entry of a sheet that did not change is kept."""
    marker = (len(state.rolls), len(state.placed), len(state.left), over)
    cache = state.view_cache
    if cache.get("marker") == marker:
        sheets: dict[int, dict[str, Any]] = cache["sheets"]
        return sheets
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
            previous = (entry["grid"], entry["previews"]) if entry else None
            previews = preview_grid(grid, state.rules, previous)
            entry = {"grid": grid, "score": score, "lines": tuple(score.lines),
                     "previews": previews, "so_far": total_so_far(previews),
                     "scoring_cells": scoring, "auto": auto, "over": over,
                     "cells": _cells(grid, auto, scoring)}
        sheets[seat] = entry
    cache["marker"], cache["sheets"] = marker, sheets
    return sheets


def parts(view: dict[str, Any], viewer_seat_id: int | None,
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
               st.timer, view["real_dice"], view["can_enter"], view["sum_only"], st.entries)
        parts.append(Part("knister-turn", key, "knister_turn", (view, st, labels)))
    # Heads and other players' grids are the same for every viewer: built once per version.
    shared_key = (st.view_cache.get("marker"), tuple(labels.items()))
    cached = st.view_cache.get("parts")
    if cached is None or cached[0] != shared_key:
        shared = {seat: _sheet_parts(seat, False, view, labels) for seat in st.order}
        st.view_cache["parts"] = cached = (shared_key, shared)
    shared = cached[1]
    if viewer_seat_id is not None and viewer_seat_id in shared:
        head, _ = shared[viewer_seat_id]
        parts += [head, _sheet_parts(viewer_seat_id, True, view, labels)[1]]
    for seat in st.order:
        if seat != viewer_seat_id:
            parts += shared[seat]
    return parts

def _sheet_parts(seat: int, mine: bool, view: dict[str, Any],
             labels: dict[int, str]) -> tuple[Part, Part]:
    """The head and grid parts of ``seat``'s sheet (``mine``: as its owner sees it)."""
    st: KnisterState = view["state"]
    current, sheet = view["current_sum"], view["sheets"][seat]
    head = Part(f"sheet-head-{seat}",
                ("head", seat, labels[seat], bool(current) and seat in view["active"],
                 seat in st.placed, sheet["score"].total, sheet["so_far"], view["over"]),
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


def _scoring_cells(score) -> set[tuple[int, int]]:
    """Cells that lie on a line scoring more than 0 (highlighted on the final screen)."""
    return {cell for line in score.lines if line.points for cell in line.cells}
