"""The picture of one die as HTML (``die`` in every template), built in Python and memoised.

Every Knister roll and every Kniffel throw re-renders the dice of each viewer's turn panel;
through a template macro one die cost about 45 µs (a dict of pips and a loop per call), so
each distinct die (value, position, held, clickable, extra attributes, language) is built
once here (bench/README.md, "rooms_load.py").
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape

from app.i18n import current_language, use_language
from app.i18n import gettext as _

PIPS: dict[int, tuple[int, ...]] = {1: (5,), 2: (1, 9), 3: (1, 5, 9), 4: (1, 3, 7, 9),
                                    5: (1, 3, 5, 7, 9), 6: (1, 3, 4, 6, 7, 9)}
"""The pips of each face, numbered 1..9 over a 3x3 grid, row by row."""


def die(value: int, index: int | None = None, held: bool | None = None,
        clickable: bool = False, extra: str = "") -> Markup:
    """One die showing ``value`` (1..6) in the current language.

    ``index``: its position among the dice (``data-die``, with ``data-held``), or None;
    ``held``: it is kept for the next roll; ``clickable``: a button (``aria-pressed``) rather
    than a picture; ``extra``: further attributes, already safe HTML (e.g. ``ws-send`` and
    its ``hx-vals``). Raises KeyError for a value outside 1..6.
    """
    return _die(value, index, held, clickable, str(extra), current_language())


@lru_cache(maxsize=2048)
def _die(value: int, index: int | None, held: bool | None, clickable: bool, extra: str,
         lang: str) -> Markup:
    with use_language(lang):
        label = escape(_("Die showing %(n)s") % {"n": value})
        if held:
            label += Markup(" (%s)") % _("held")
    tag = "button" if clickable else "span"
    kind = (f'type="button" aria-pressed="{"true" if held else "false"}"' if clickable
            else 'role="img"')
    data = (f' data-die="{index}" data-held="{"true" if held else "false"}"'
            if index is not None else "")
    more = f" {extra}" if extra else ""
    pips = "".join(f'<circle cx="{7 + (p - 1) % 3 * 8}" cy="{7 + (p - 1) // 3 * 8}" r="2.6"/>'
                   for p in PIPS[value])
    return Markup(
        f'\n<{tag} class="die{" held" if held else ""}" {kind} aria-label="{label}" '
        f'data-value="{value}"{data}{more}><svg viewBox="0 0 30 30" aria-hidden="true">'
        f'<rect x="1" y="1" width="28" height="28" rx="6"/>{pips}</svg></{tag}>')
