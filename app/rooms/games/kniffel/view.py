"""What a Kniffel-family game shows: the JSON of ``state.json`` and the template context.

Score sheet (docs/rules.md, "Kniffel family"): every seat a column group (one sub-column per
game column), the boxes, the upper subtotal with its progress towards 63, the upper bonus, the
extra bonus, the totals and, with several columns, the running total; the box filled last is
marked.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from app.engines.kniffel import MAX_ROLLS, RULESETS, UPPER_BOXES, Scorecard
from app.rooms.games.base import Part
from app.rooms.games.kniffel.state import KniffelState

_PAR = {box: 3 * face for face, box in enumerate(UPPER_BOXES, start=1)}


def column_summary(card: Scorecard) -> dict[str, Any]:
    """One scorecard's boxes and sums: ``boxes`` {box: points|None}, ``upper_total``,
    ``upper_bonus``, ``upper_done`` (ones..sixes all filled), ``par_diff`` (upper points
    minus three of each filled face: >= 0 is on course for the bonus, rule text 004 "Der
    63er-Bonus"), ``lower_total``, ``extra_yahtzees``, ``extra_bonus``, ``total``,
    ``last_box``, ``complete``."""
    boxes = card.boxes
    par = sum(_PAR[box] for box in UPPER_BOXES if boxes[box] is not None)
    return {
        "boxes": boxes,
        "upper_total": card.upper_total,
        "upper_bonus": card.upper_bonus,
        "upper_done": all(boxes[box] is not None for box in UPPER_BOXES),
        "par_diff": card.upper_total - par,
        "lower_total": card.lower_total,
        "extra_yahtzees": card.extra_yahtzees,
        "extra_bonus": card.extra_bonus,
        "total": card.total,
        "last_box": card.last_box,
        "complete": card.is_complete,
    }


def sheets(state: KniffelState) -> dict[int, list[dict[str, Any]]]:
    """Per seat its columns' summaries, each with ``running``: the total up to that column.
    Computed once per filled box (kept in ``state.summary_cache``): every viewer's page of
    every version until the next score shares them, so they must not be changed."""
    return _summaries(state)[0]


def sheet_keys(state: KniffelState) -> dict[int, tuple[Any, ...]]:
    """Per seat what its columns show (boxes, extra bonus, totals), hashable: part of the
    key of the seat's cells on the sheet. Computed with ``sheets``."""
    return _summaries(state)[1]


def _summaries(state: KniffelState) -> tuple[dict[int, list[dict[str, Any]]],
                                             dict[int, tuple[Any, ...]]]:
    cached = state.summary_cache
    if cached is not None and cached[0] == state.turns:
        return cached[1], cached[2]
    result, keys = {}, {}
    for seat, cards in state.cards.items():
        running, columns = 0, []
        for card in cards:
            summary = column_summary(card)
            running += summary["total"]
            summary["running"] = running
            columns.append(summary)
        result[seat] = columns
        keys[seat] = tuple((tuple(col["boxes"].values()), col["extra_bonus"], col["total"],
                            col["running"]) for col in columns)
    state.summary_cache = (state.turns, result, keys)
    return result, keys


def public(state: KniffelState) -> dict[str, Any]:
    """JSON-ready: rule set, house rules, columns, timer, play order, who is on turn and in
    which column, the dice / holds / roll count of the turn, the points each open box would
    get, every seat's columns and the totals."""
    current = state.current
    return {
        "ruleset": state.ruleset,
        "house_rules": dict(state.house),
        "columns": state.columns,
        "timer": state.timer,
        "order": state.order,
        "active": state.active,
        "current": current,
        "column": state.column_of(current) if current is not None else None,
        "turns": state.turns,
        "turn_no": state.turn_no,
        "dice": list(state.turn.dice),
        "held": list(state.turn.held),
        "rolls": state.turn.rolls,
        "options": state.options(),
        "sheets": {str(s): cols for s, cols in sheets(state).items()},
        "totals": {str(s): state.total(s) for s in state.order},
        "auto": [[s, c, b] for s, c, b in sorted(state.auto)],
        "over": state.over,
        "real_dice": state.real_dice,
    }


def view_group(state: KniffelState, viewer: int | None) -> bool:
    """Whether ``viewer`` is the player on turn: the only difference ``view`` and ``parts``
    make between viewers, so everyone else shares one view per version."""
    return viewer is not None and viewer == state.current and not state.over


def view(state: KniffelState, viewer: int | None) -> dict[str, Any]:
    """Template context for ``templates/rooms/kniffel/game.html`` as seat ``viewer`` (None:
    a spectator) sees it. Only the player on turn gets ``can_roll`` / ``can_hold`` /
    ``can_score``; everyone sees the dice, the holds and the points on offer."""
    ruleset = RULESETS[state.ruleset]
    turn = state.turn
    mine = viewer is not None and viewer == state.current and not state.over
    return {
        "state": state,
        "over": state.over,
        "ruleset": state.ruleset,
        "boxes_upper": [b for b in ruleset.boxes if b in UPPER_BOXES],
        "boxes_lower": [b for b in ruleset.boxes if b not in UPPER_BOXES],
        "threshold": ruleset.upper_bonus_threshold,
        "has_extra_bonus": ruleset.extra_bonus_each > 0 and state.house["extra_bonus"],
        "current": state.current,
        "column": state.column_of(state.current) if state.current is not None else None,
        "dice": list(turn.dice),
        "held": list(turn.held),
        "rolls": turn.rolls,
        "max_rolls": MAX_ROLLS,
        "turn_no": state.turn_no,
        "roll_auto": state.roll_auto,
        "deadline": state.turn_started_at + timedelta(seconds=state.timer)
        if state.timer and state.turn_started_at and not state.over else None,
        "my_turn": mine,
        "hints": state.hints,
        "can_roll": mine and turn.can_roll and not state.real_dice,
        "can_hold": mine and 0 < turn.rolls < MAX_ROLLS and not state.real_dice,
        "real_dice": state.real_dice,
        "can_enter": mine and state.real_dice,
        "entries": state.entries,
        "can_score": mine and turn.rolls > 0,
        "options": state.options(),
        "sheets": sheets(state),
        "sheet_keys": sheet_keys(state),
        "totals": {s: cols[-1]["running"] if cols else 0 for s, cols in sheets(state).items()},
    }


def parts(view: dict[str, Any], viewer: int | None, labels: dict[int, str]) -> list[Part]:
    """The game area's parts as seat ``viewer`` sees it: the turn panel and, with the option
    "hints" on, the hint area (while the game runs), and the score sheet (macros
    ``kniffel_turn``, ``kniffel_hint`` and ``kniffel_sheet``).

    Each key lists what its macro shows, so a hold re-sends only the turn panel; a roll the
    turn panel and the offers (``offers_part``, inside the column of the seat on turn); a
    score the columns of the seat that scored and of the seat the turn passes to (one part
    per seat, ``kniffel_column``, inside the sheet). The whole sheet is only sent to a page
    that has none. Each is rendered once per key and language, so for everyone alike but the
    offers of the player on turn.
    """
    st: KniffelState = view["state"]
    names = tuple(labels.items())
    result = []
    started = view.get("game_started_at")
    if view["deadline"] is None and st.timer and not view["over"] and started is not None:
        # the first turn began with the game (no turn event yet): its clock runs from there,
        # as the timer does (timers.deadline)
        view["deadline"] = started + timedelta(seconds=st.timer)
    if not view["over"]:
        turn_key = ("kniffel-turn", view["current"], tuple(view["dice"]), tuple(view["held"]),
                    view["rolls"], view["turn_no"], view["roll_auto"], view["deadline"],
                    st.timer, st.columns, view["column"], view["my_turn"], view["can_roll"],
                    view["can_hold"], view["can_score"], view["can_enter"], view["entries"],
                    names, view.get("proxy", False))
        result.append(Part("kniffel-turn", turn_key, "kniffel_turn", (view, labels)))
        if view["hints"]:
            result.append(hint_part(view))
    offers = offers_part(view)
    rows = sheet_rows(view)
    columns = []
    for seat in st.order:
        # the boxes themselves, not only the turn count: a rematch in the same room reaches
        # the same turn numbers with other points, and must not be shown the last game's sheet
        on_turn = seat == view["current"] and not view["over"]
        own = ("kniffel-column", seat, st.ruleset, st.columns, rows, labels.get(seat),
               seat in st.left, on_turn, view["column"] if on_turn else None,
               view["sheet_keys"][seat],
               tuple(sorted(a for a in st.auto if a[0] == seat)), st.last.get(seat))
        # a part that holds others has the key (own, *theirs): render_update then sends only
        # what changed inside it when its own key did not change (the offers after a roll)
        key = (own, offers.key) if on_turn else (own,)
        columns.append(Part(f"kniffel-column-{seat}", key, "kniffel_column",
                            (view, labels, seat, rows), within="kniffel-sheet",
                            elements=cell_ids(st, seat, rows)))
    sheet_own = ("kniffel-sheet", st.ruleset, tuple(st.order), st.columns, rows)
    result.append(Part("kniffel-sheet", (sheet_own, *(c.key for c in columns)), "kniffel_sheet",
                       (view, labels)))
    result.extend(columns)
    result.append(offers)
    return result


def cell_ids(st: KniffelState, seat: int, rows: tuple[str, ...]) -> tuple[str, ...]:
    """``column_cells`` of ``seat`` in game ``st``, built once per game, seat and rows (kept in
    ``st.cells_cache``: the same for every version; built per view group and version they
    were 3% of a busy server)."""
    key = (seat, rows, st.columns)
    found = st.cells_cache.get(key)
    if found is None:
        found = st.cells_cache[key] = column_cells(seat, rows, st.columns)
    return found


def column_cells(seat: int, rows: tuple[str, ...], columns: int) -> tuple[str, ...]:
    """The ids of a seat's cells in the sheet, as ``kniffel_column`` renders them: per row
    (``sheet_rows``) one per column, the name and the grand total one for all."""
    return tuple(f"sheet-head-{seat}" if row == "head" else f"cell-{seat}-grand"
                 if row == "grand" else f"cell-{seat}-{c}-{row}"
                 for row in rows for c in range(1 if row in ("head", "grand") else columns))


def sheet_rows(view: dict[str, Any]) -> tuple[str, ...]:
    """The rows of the score sheet that have a cell per seat, top to bottom: ``head`` (the
    name), ``colno`` (with several columns), the upper boxes, ``upper_total``,
    ``upper_bonus``, the lower boxes, ``lower_total``, ``extra_bonus`` (when it is played),
    ``total`` and, with several columns, ``running`` and ``grand``."""
    several = view["state"].columns > 1
    return (("head",) + (("colno",) if several else ()) + tuple(view["boxes_upper"])
            + ("upper_total", "upper_bonus") + tuple(view["boxes_lower"]) + ("lower_total",)
            + (("extra_bonus",) if view["has_extra_bonus"] else ()) + ("total",)
            + (("running", "grand") if several else ()))


def offers_part(view: dict[str, Any]) -> Part:
    """What each open box of the column on turn would score with the dice on the table
    (macro ``kniffel_offers``), inside the sheet: a roll changes only these, so a roll sends
    them and not the whole sheet (a button each for the player on turn, grey figures for
    everyone else)."""
    current, column = view["current"], view["column"]
    open_boxes: tuple[str, ...] = ()
    holder = "kniffel-sheet"  # nobody on turn (the game is over): no offers
    if current is not None and not view["over"]:
        boxes = view["sheets"][current][column]["boxes"]
        open_boxes = tuple(box for box, value in boxes.items() if value is None)
        holder = f"kniffel-column-{current}"  # inside the cells of the seat on turn
    key = ("kniffel-offers", view["ruleset"], current, column, open_boxes,
           tuple(sorted(view["options"].items())), view["can_score"])
    upper_first = [b for b in (*view["boxes_upper"], *view["boxes_lower"]) if b in open_boxes]
    return Part("kniffel-offers", key, "kniffel_offers", (view,), within=holder,
                elements=tuple(f"offer-{current}-{column}-{box}" for box in upper_first)
                or ("kniffel-offers",))


def hint_part(view: dict[str, Any]) -> Part:
    """The hint area: for the player on turn after a roll, a button that fetches the hint for
    exactly these dice (``GET /r/<code>/hint``, app/review/routes.py, computed off the event
    loop); empty for everyone else. Its key holds the turn, the roll count and the dice, so a
    new roll closes a hint that was opened (holding dice keeps it open)."""
    mine = view["my_turn"] and bool(view["rolls"])
    key = (("kniffel-hint", True, view["turn_no"], view["rolls"], tuple(view["dice"]))
           if mine else ("kniffel-hint", False))
    return Part("kniffel-hint", key, "kniffel_hint", (mine, view.get("room_code", ""),
                                                      view["turn_no"], view["rolls"]))
