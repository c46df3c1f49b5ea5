"""What the Knikkers templates show: colour and symbol names and cell labels (the board's, from
the race's package: ``knikkers_race.labels``), the move animation's data, durations. Pure
functions over engine values; visible words go through gettext.

Colour-blind friendly (docs/rules.md, Knikkers, "Colours and symbols"): colour k always has
symbol k (circle, triangle, square, diamond, star, cross, heart) on top of an Okabe-Ito palette
colour (static/css/knikkers.css).
"""

from __future__ import annotations

from app.engines import knikkers as engine
from app.rooms.games.knikkers_race.labels import cell_label as cell_label
from app.rooms.games.knikkers_race.labels import colour_name as colour_name


def duration(seconds: int) -> str:
    """``m:ss`` (or ``h:mm:ss`` from an hour on) for a number of seconds."""
    minutes, secs = divmod(max(0, int(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def cells_attr(cells: list[tuple[int, int]]) -> str:
    """``"r,c r,c ..."`` for a data attribute (the board's ``data-cell`` form)."""
    return " ".join(f"{r},{c}" for r, c in cells)


def animation(
    result: engine.MoveResult | None, before: list[list[int | None]] | None
) -> dict[str, str]:
    """The data attributes that let static/js/knikkers.js animate the move just made.

    ``path`` (cells walked, src first), ``cleared`` (``r,c,colour`` of every ball that vanished),
    ``spawned`` (cells of the balls placed), ``points`` (scored by the move). Empty for no move.
    """
    if result is None or before is None:
        return {}
    colours = {(r, c): before[r][c] for r in range(9) for c in range(9)}
    src, dst = result.path[0], result.path[-1]
    colours[dst], colours[src] = colours[src], None
    for cell, colour in result.spawned:
        colours[cell] = colour
    cleared = sorted(result.cleared)
    return {
        "path": cells_attr(result.path),
        "cleared": " ".join(f"{r},{c},{colours[(r, c)]}" for r, c in cleared),
        "spawned": cells_attr([cell for cell, _colour in result.spawned]),
        "points": str(result.points),
    }
