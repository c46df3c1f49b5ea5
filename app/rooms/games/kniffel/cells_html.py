"""A Kniffel-family score sheet's cells as HTML, built in Python (the ``kniffel_column``,
``kniffel_offers`` and ``kniffel_sheet`` macros of ``templates/rooms/kniffel/_parts.html``
call these).

Every score re-renders the columns of the seat that scored and of the seat the turn passes to,
and every roll the offers of the column on turn: the hottest markup of a Kniffel room. Built
through the template, a column was one macro call per cell (~20 per column, each with its own
context and escaping) and cost ~440 µs; assembled here from the same values it is the same HTML
for a fraction of that (bench/render_parts.py; bench/README.md, "Measured (2026-12-07,
session 17...").

``v`` is the Kniffel view (``view.view``: ``state``, ``sheets``, ``options``, ``current``,
``column``, ``can_score``, ``over``, ``ruleset``, ``threshold``, ``totals``, ...);
``labels``: seat id -> name as shown.
"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup, escape

from app.i18n import format_number
from app.i18n import gettext as _
from app.rooms.games.kniffel.labels import box_label

_PAD = "\n                    "  # the offer button's attribute lines
_CELL_PAD = "\n              "  # a box cell's attribute lines


def _json_attr(value: dict[str, Any]) -> str:
    """``value`` as JSON for a single-quoted attribute, as the templates' ``tojson`` writes
    it (keys sorted; ``<``, ``>``, ``&`` and ``'`` as unicode escapes)."""
    return (json.dumps(value, sort_keys=True).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026").replace("'", "\\u0027"))


def _t(translated: str, **params: Any) -> Markup:
    """A ``translated`` message with its ``params`` escaped into it: what the templates'
    ``_()`` gives (Jinja's i18n extension, newstyle, with autoescape). Callers translate with
    ``_("...")`` themselves, so ``make messages`` finds the message."""
    return Markup(translated) % params


def offer(v: dict[str, Any], seat: int, c: int, box: str) -> Markup:
    """The offer of open box ``box`` in column ``c`` of ``seat`` (the seat on turn): a button
    with what the dice would score for the player on turn, a grey figure for everyone else,
    an empty mark before the first roll."""
    oid = escape(f"offer-{seat}-{c}-{box}")
    options = v["options"]
    if box not in options:
        return Markup(f'<span id="{oid}" class="offer-none"></span>')
    points = options[box]
    zero = "" if points else " zero"
    shown = escape(format_number(points))
    common = (f'id="{oid}" class="%s{zero}" data-box="{escape(box)}" '
              f'data-points="{escape(points)}" data-column="{escape(c)}"')
    if not v["can_score"]:
        return Markup(f'<span {common % "ghost"}>{shown}</span>')
    confirm = ""
    if not points:  # (translated outside the f-string: ``make messages`` looks not inside)
        again = _("Tap again to score 0")
        confirm = f' data-zero-confirm="{_t(again)}"'
    vals = _json_attr({"type": "score", "box": box, "column": c})
    label = _t(_("%(box)s: write %(points)s"), box=box_label(box, v["ruleset"]),
               points=format_number(points))
    return Markup(f'<button {common % "offer-btn"}{confirm}{_PAD}ws-send hx-vals=\'{vals}\''
                  f'{_PAD}aria-label="{label}">{shown}</button>')


def offers(v: dict[str, Any]) -> Markup:
    """The offers of every open box of the column on turn (nothing when nobody is on turn)."""
    current = v["current"]
    if current is None or v["over"]:
        return Markup("")
    column = v["column"]
    boxes = v["sheets"][current][column]["boxes"]
    return Markup("\n" + "".join(offer(v, current, column, box)
                                 for box in (*v["boxes_upper"], *v["boxes_lower"])
                                 if boxes[box] is None) + "\n")


def seat_cell(v: dict[str, Any], labels: dict[int, str], seat: int, c: int, row: str) -> Markup:
    """``seat``'s cell of sheet row ``row`` in column ``c``: ``head`` (the name), ``colno``
    (the column number), a box, a subtotal or total row, or ``grand``. Every cell has an id,
    so one seat's cells can be sent on their own (``column``)."""
    st = v["state"]
    columns = st.columns
    if row == "head":
        on_turn = " on-turn" if seat == v["current"] and not v["over"] else ""
        gone = " gone" if seat in st.left else ""
        return Markup(f'<th id="sheet-head-{seat}" scope="colgroup" colspan="{columns}" '
                      f'data-sheet="{seat}"\n            class="player{on_turn}{gone}">\n'
                      f'          {escape(labels[seat])}</th>')
    cid = escape(f"cell-{seat}-{c}-{row}")
    if row == "colno":
        open_col = " open-col" if seat == v["current"] and c == v["column"] else ""
        return Markup(f'<th id="{cid}" scope="col" class="col-no{open_col}">{c + 1}</th>')
    if row == "grand":
        total = v["totals"][seat]
        return Markup(f'<td id="cell-{seat}-grand" colspan="{columns}" class="seat-end" '
                      f'data-seat-total="{escape(total)}" data-seat="{seat}">'
                      f'{escape(format_number(total))}</td>')
    end = " seat-end" if c == columns - 1 else ""
    col = v["sheets"][seat][c]
    seat_total = (f' data-seat-total="{escape(col["total"])}" data-seat="{seat}"'
                  if row == "total" and columns == 1 else "")
    total_cell = _total_cell(v, col, row, cid, end, seat_total)
    if total_cell is not None:
        return Markup(total_cell)
    value = col["boxes"][row]
    slot = escape(f"{seat}/{c}/{row}")
    if (value is None and seat == v["current"] and c == v["column"] and not v["over"]
            and v["current"] is not None):
        return Markup(f'<td id="{cid}" class="box-cell offer{end}" data-slot="{slot}">'
                      f'{offer(v, seat, c, row)}</td>')
    is_last = st.last.get(seat) == (c, row)
    is_auto = (seat, c, row) in st.auto
    classes = "box-cell" + (" last" if is_last else "") + (" auto" if is_auto else "") + end
    filled = (f'data-filled="{escape(row)}" data-value="{escape(value)}"'
              if value is not None else "")
    last = 'data-last="true"' if is_last else ""
    title = ""
    if is_auto:
        filled_for_you = _("filled automatically")
        title = f'title="{_t(filled_for_you)}"'
    shown = escape(format_number(value)) if value is not None else ""
    return Markup(f'<td id="{cid}" class="{classes}" data-slot="{slot}"{_CELL_PAD}{filled}'
                  f'{_CELL_PAD}{last}{_CELL_PAD}{title}>{shown}</td>')


def _total_cell(v: dict[str, Any], col: dict[str, Any], row: str, cid: str, end: str,
                extra: str = "") -> str | None:
    """The cell of a subtotal or total row (``upper_total``, ``upper_bonus``,
    ``lower_total``, ``extra_bonus``, ``total``, ``running``), ``extra`` attributes after
    its value's; None for a box row."""
    if row == "upper_total":
        upper = col["upper_total"]
        par = ""
        if not col["upper_bonus"] and col["par_diff"]:
            side = "ahead" if col["par_diff"] > 0 else "behind"
            compared = _("compared with three of each face")
            par = (f'<small class="par {side}" title="{_t(compared)}">'
                   f'{escape(format(col["par_diff"], "+d"))}</small>')
        width = min(100, upper * 100 // v["threshold"])
        return (f'<td id="{cid}" class="{end}" data-upper-total="{escape(upper)}">'
                f'{escape(format_number(upper))}\n          {par}\n          '
                '<svg class="progress" viewBox="0 0 100 3" preserveAspectRatio="none" '
                'aria-hidden="true" focusable="false">'
                f'<rect width="{escape(width)}" height="3"/></svg></td>')
    if row == "upper_bonus":
        bonus = col["upper_bonus"]
        shown = escape(format_number(bonus)) if bonus or col["upper_done"] else ""
        return (f'<td id="{cid}" class="{end}{" got" if bonus else ""}" '
                f'data-upper-bonus="{escape(bonus)}">{shown}</td>')
    if row == "extra_bonus":
        bonus = col["extra_bonus"]
        shown = escape(format_number(bonus)) if bonus else ""
        return (f'<td id="{cid}" class="{end}{" got" if bonus else ""}" '
                f'data-extra-bonus="{escape(bonus)}">{shown}</td>')
    attribute = {"lower_total": "data-lower-total", "total": "data-column-total",
                 "running": "data-running-total"}.get(row)
    if attribute is None:
        return None
    value = col[row]
    return (f'<td id="{cid}" class="{end}" {attribute}="{escape(value)}"{extra}>'
            f'{escape(format_number(value))}</td>')


def column(v: dict[str, Any], labels: dict[int, str], seat: int,
           rows: tuple[str, ...]) -> Markup:
    """Every cell of ``seat``'s columns, row by row (``view.sheet_rows``; ``head`` and
    ``grand`` once for all its columns): sent on their own when only that seat changed (a
    score, the turn coming to it or leaving it)."""
    columns = v["state"].columns
    return Markup("".join(seat_cell(v, labels, seat, c, row) for row in rows
                          for c in range(1 if row in ("head", "grand") else columns)))
