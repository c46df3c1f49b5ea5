"""The 25 cells of a Knister sheet as HTML, the hot spot of a live room.

Every placement re-renders the placer's grid for everyone, and every roll each player's own
grid; markup for one cell costs a template several escapes, so the cells are built here once
per distinct grid, viewer kind and language (memoised) and the template
(``templates/rooms/knister/_parts.html``, ``knister_grid``) places the rows.
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape

from app.i18n import current_language, use_language
from app.i18n import gettext as _

Cells = tuple[tuple[tuple[str, int | None, bool], ...], ...]


def grid_rows(cells: Cells, mine: bool, open_sum: int | None,
              roll: int = 0) -> tuple[Markup, ...]:
    """The HTML of each row's five cells, in the current language.

    ``cells``: per row, per cell ``(css classes, value or None, placed by the server)`` (the
    Knister view's ``cells``); ``mine``: the viewer's own sheet (cells carry ``data-cell``);
    ``open_sum``: the sum the viewer may place now (empty cells become buttons), or None;
    ``roll``: the number of that roll (1..25), sent with a placement so that a tap on an
    outdated page is refused (KnisterGame.decide).
    """
    return _rows(cells, mine, open_sum, roll, current_language())


@lru_cache(maxsize=4096)
def _rows(cells: Cells, mine: bool, open_sum: int | None, roll: int,
          lang: str) -> tuple[Markup, ...]:
    with use_language(lang):
        auto_title = escape(_("placed automatically"))
        rows = []
        for r, row in enumerate(cells):
            out = []
            for c, (cls, value, auto) in enumerate(row):
                if open_sum is not None and value is None:
                    label = escape(_("Row %(r)s, column %(c)s: place %(sum)s")
                                   % {"r": r + 1, "c": c + 1, "sum": open_sum})
                    out.append(
                        f'<button class="{cls} open" role="gridcell" data-cell="{r},{c}" '
                        f'ws-send hx-vals=\'{{"type": "place", "cell": "{r},{c}", '
                        f'"roll": {roll}}}\' '
                        f'aria-label="{label}"></button>')
                else:
                    attrs = f' data-cell="{r},{c}"' if mine else ""
                    if value is not None:
                        attrs += f' data-value="{value}"'
                    if auto:
                        attrs += f' title="{auto_title}"'
                    text = "" if value is None else str(value)
                    out.append(f'<span class="{cls}" role="gridcell"{attrs}>{text}</span>')
            rows.append(Markup("".join(out)))
        return tuple(rows)
