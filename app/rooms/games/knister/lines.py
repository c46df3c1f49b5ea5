"""A Knister line's points on the sheet, as HTML: what a line scores, or while it is not full,
what it holds so far (docs/rules.md, "Knister scoring"; ``app.engines.knister_preview``).

On the viewer's own sheet each line's points are a button opening a small explanation (a
popover, so it works by tap, click and keyboard); on the other sheets they are plain text.
Built here, memoised per line, preview and language (not per seat: the seat's id is put into
the cached HTML afterwards, so every sheet of every room shares one small cache), because
every roll re-renders each player's own grid (the hot spot of a live room, like ``cells.py``).
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape

from app.engines.knister_preview import LinePreview
from app.i18n import current_language, ngettext, use_language
from app.i18n import gettext as _
from app.rooms.games.knister.labels import combination_name, grid_titles

ARROWS = {10: "↘", 11: "↙"}  # the two diagonals, lines 10 and 11


def line_points(seat_id: int, line: int, preview: LinePreview, mine: bool) -> Markup:
    """The points of line ``line`` (0..4 rows, 5..9 columns, 10..11 diagonals) of ``seat_id``'s
    sheet, in the current language. A row or column is its own grid cell; a diagonal is a
    piece of the diagonals' cell. ``mine``: the viewer's own sheet (a button and its
    explanation ``#line-pop-<seat>-<line>``); else plain text."""
    html = _line_points(line, preview, mine, current_language())
    # str.replace: the cached HTML is safe and the seat id is a number (Markup.replace would
    # escape its arguments and build two Markup objects per line)
    return Markup(str.replace(html, SEAT, str(seat_id))) if mine else html


SEAT = "\x00seat\x00"  # where the seat's id goes in a cached explanation's ids


def _points(count: int) -> str:
    return ngettext("%(num)s point", "%(num)s points", count) % {"num": count}


@lru_cache(maxsize=8192)
def _line_points(line: int, p: LinePreview, mine: bool, lang: str) -> Markup:
    with use_language(lang):
        titles = grid_titles()
        factor = 2 if line in ARROWS else 1
        name = (titles.rows[line] if line < 5 else titles.cols[line - 5] if line < 10
                else titles.diag[line - 10])
        now = p.now * factor
        arrow = ARROWS.get(line, "")
        shown = str(now) if now or p.full else ("" if arrow else "·")  # a full line says 0
        css = "line-points" + ("" if p.full else " provisional")
        data = (f'data-line="{line}" data-line-now="{now}" data-line-so-far="{p.so_far}"')
        so_far = "" if p.full or p.so_far == "none" else combination_name(p.so_far)
        if not mine:
            title = f"{name}: {so_far}" if so_far else name
            html = (f'<span class="{css}" {data} title="{escape(title)}">{arrow}{shown}</span>')
        else:
            pop = f"line-pop-{SEAT}-{line}"
            small = f'<small class="so-far">{escape(so_far)}</small>' if so_far else ""
            lines = []
            if p.full:
                lines.append(f"{combination_name(p.so_far)}: {_points(p.now)}")
            else:
                lines.append(_("%(what)s so far: %(n)s now") % {
                    "what": combination_name(p.so_far), "n": _points(p.now)}
                    if so_far else _("Nothing so far."))
                lines.append(_("Still possible: %(what)s, %(n)s") % {
                    "what": combination_name(p.best_combination), "n": _points(p.best)}
                    if p.best else _("This line can no longer score."))
                empty = 5 - p.filled
                lines.append(ngettext("Scores when its last cell is filled (%(num)s empty).",
                                      "Scores when its last cells are filled (%(num)s empty).",
                                      empty) % {"num": empty})
            if factor > 1:
                lines.append(_("Diagonals count double: %(n)s in the total.") % {"n": now})
            body = "".join(f"<p>{escape(text)}</p>" for text in lines)
            close = escape(_("Close"))
            html = (f'<button type="button" class="{css}" popovertarget="{pop}" {data}>'
                    f'<span class="visually-hidden">{escape(name)}: </span>'
                    f'{arrow}{shown}{small}</button>'
                    f'<div popover id="{pop}" class="line-pop" role="note">'
                    f'<strong>{escape(name)}</strong>{body}'
                    f'<button type="button" class="link-button" popovertarget="{pop}" '
                    f'popovertargetaction="hide">{close}</button></div>')
        if not arrow:
            html = f'<span role="gridcell" class="line-cell">{html}</span>'
        return Markup(html)
