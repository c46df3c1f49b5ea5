"""A Knister sheet's grid part as HTML, built in Python (``knister_grid`` in
``templates/rooms/knister/_parts.html`` calls it).

Every roll re-renders each player's own grid (its empty cells become buttons for the new sum)
and every placement the placer's: the hottest markup of a live room. Assembled from the
memoised rows (``cells.grid_rows``) and line points (``lines.line_points``), it costs a fifth
of the same markup through a template (bench/README.md, "rooms_load.py").
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from app.i18n import format_number
from app.i18n import gettext as _
from app.rooms.games.knister.cells import grid_rows
from app.rooms.games.knister.labels import combination_name, line_name
from app.rooms.games.knister.lines import line_points


def sheet_grid(seat_id: int, mine: bool, v: dict[str, Any], labels: dict[int, str]) -> Markup:
    """The grid part ``#sheet-grid-<seat_id>`` of ``seat_id``'s sheet in the current language.

    ``mine``: as its owner sees it (cells carry ``data-cell``; empty cells are buttons while
    the owner may place; line points explain themselves); ``v``: the Knister view
    (``view.view``); ``labels``: seat id -> name as shown."""
    sheet = v["sheets"][seat_id]
    open_sum = v["current_sum"] if mine and v["can_place"] else None
    previews = sheet["previews"]
    name = escape(_("Sheet of %(name)s") % {"name": labels[seat_id]})
    out = [f'<div class="sheet-body" id="sheet-grid-{seat_id}">\n'
           f'<div class="grid" role="grid" aria-label="{name}">']
    for r, cells_html in enumerate(grid_rows(sheet["cells"], mine, open_sum, v["rolls_done"])):
        out.append(f'\n<div class="grid-row" role="row">{cells_html}\n'
                   f'{line_points(seat_id, r, previews[r], mine)}</div>')
    out.append('\n<div class="grid-row totals" role="row">')
    out.extend(line_points(seat_id, 5 + c, previews[5 + c], mine) for c in range(5))
    out.append(f'<span class="diag-points" role="gridcell">'
               f'{line_points(seat_id, 10, previews[10], mine)}'
               f'{line_points(seat_id, 11, previews[11], mine)}</span></div>\n</div>')
    if mine and sheet["auto"]:
        legend = escape(_("Underlined numbers were placed for you: your time ran out, or a "
                          "bot played for you while you were away."))
        out.append(f'\n<p class="auto-legend">{legend}</p>')
    if v["over"]:
        out.append('\n<ul class="line-list">')
        out.extend(f"\n<li>{escape(line_name(line))}: "
                   f"{escape(combination_name(line.combination))} · "
                   f"{escape(format_number(line.counted))}</li>"
                   for line in sheet["lines"] if line.points)
        out.append('\n</ul>')
    out.append('\n</div>')
    return Markup("".join(out))
