"""The 81 cells of a race board as HTML, the hot spot of a live race.

Every move re-renders its player's board for every viewer (each may be shown a different part
of it, see ``view.horizon``), so the cells are built here, memoised per distinct board (and,
for the player's own board, per move count and language), and the templates
(``templates/rooms/knikkers_race/_parts.html``) place them.
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape

from app.i18n import current_language, use_language
from app.rooms.games.knikkers_race.labels import cell_label  # single-player's names too

Cells = tuple[int | None, ...]


def marble(colour: int) -> str:
    """A marble of ``colour`` 0..6: its colour class and symbol (colour-blind friendly)."""
    return (f'<span class="kn-ball kn-c{colour}"><svg viewBox="0 0 20 20" aria-hidden="true" '
            f'focusable="false"><use href="#kn-s{colour}"></use></svg></span>')


@lru_cache(maxsize=8192)
def small_cells(cells: Cells) -> Markup:
    """Another player's board, small and not interactive: 81 cells (``data-cell="r,c"``,
    ``data-colour`` on a marble) from ``cells`` (81 colours or None, row by row)."""
    out = []
    for i, colour in enumerate(cells):
        if colour is None:
            out.append(f'<span class="kn-cell" data-cell="{i // 9},{i % 9}"></span>')
        else:
            out.append(f'<span class="kn-cell" data-cell="{i // 9},{i % 9}" '
                       f'data-colour="{colour}">{marble(colour)}</span>')
    return Markup("".join(out))


def own_cells(cells: Cells, moves: int, can_move: bool) -> Markup:
    """The player's own board in the current language: while it takes moves, a marble is a
    radio button (``name="src"``) in a label and an empty cell a button sending the move
    (``{"type": "move", "dst": "r,c", "moves": moves}``, the picked marble added from the
    form); afterwards plain cells. Every cell carries ``data-cell``, a marble ``data-colour``.
    """
    return _own_cells(cells, moves, can_move, current_language())


@lru_cache(maxsize=1024)
def _own_cells(cells: Cells, moves: int, can_move: bool, lang: str) -> Markup:
    with use_language(lang):
        out = []
        for i, colour in enumerate(cells):
            r, c = divmod(i, 9)
            label = escape(cell_label(r, c, colour))
            if not can_move:
                attrs = f' data-colour="{colour}"' if colour is not None else ""
                inner = marble(colour) if colour is not None else ""
                out.append(f'<div class="kn-cell" data-cell="{r},{c}"{attrs} role="img" '
                           f'aria-label="{label}">{inner}</div>')
            elif colour is not None:
                out.append(f'<label class="kn-cell" data-cell="{r},{c}" data-colour="{colour}">'
                           f'<input type="radio" name="src" value="{r},{c}" '
                           f'aria-label="{label}">{marble(colour)}</label>')
            else:
                out.append(f'<button type="button" class="kn-cell" data-cell="{r},{c}" ws-send '
                           f'hx-vals=\'{{"type": "move", "dst": "{r},{c}", "moves": {moves}}}\' '
                           f'aria-label="{label}"></button>')
        return Markup("".join(out))
