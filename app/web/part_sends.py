"""Which parts of a live room a page is sent, and how they make one socket message: only the
parts whose key changed (``to_send``), table cells first (``assemble``), with the page's list
of its own parts when it changed (``own_parts_html``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rooms.games.base import Part


def own_parts_html(own: frozenset[str]) -> str:
    """The out-of-band swap that tells a page which of its elements are its own parts'
    (``#own-parts``: element ids; the room's shared frames leave them alone,
    ``static/js/app.js``)."""
    ids = " ".join(sorted(own))
    return f'<div id="own-parts" hx-swap-oob="true" hidden data-ids="{ids}"></div>'


def assemble(sent: Sequence[str], own: frozenset[str] | None = None) -> str | None:
    """One socket message of parts' HTML ``sent`` (and, when ``own`` is given, the page's
    new ``#own-parts``: element ids), table cells first; None when it cannot be one message (cells
    beside a table or a row: the whole live area must be sent instead, ``table_cells``)."""
    if any(table_cells(h) for h in sent):
        cells = [h for h in sent if table_cells(h)]
        rest = [h for h in sent if not table_cells(h)]
        if any("<table" in h or "<tr" in h for h in rest):  # see table_cells
            return None
        sent = cells + rest
    if own is not None:
        sent = [*sent, own_parts_html(own)]
    return "".join(sent)


def table_cells(html: str) -> bool:
    """True when a part's HTML is table cells (``<td>`` / ``<th>`` elements swapped by id).

    htmx parses a socket message inside a ``<template>``, whose first element decides how the
    rest is parsed: after a ``<div>`` a ``<td>`` is dropped. So cells go first in a message
    (then the ``<div>`` and ``<span>`` parts after them are kept too, by the HTML parsing
    rules for templates), and a message that would also hold a table or table row after them
    (whose cells would be taken out of it) is sent as the whole live area instead."""
    return html.lstrip()[:3] in ("<td", "<th")


def to_send(shown: list[Part], have: Any) -> list[Part]:
    """The parts of ``shown`` a page showing ``have`` must be sent, in order: those whose key
    changed, except that a part holding others (their ``within``; its key is
    ``(own, *theirs)``) whose own key is unchanged is not sent (only the changed parts inside
    it are), and a part inside one that is sent comes with it."""
    by_id = {p.id: p for p in shown}
    holders = {p.within for p in shown if p.within is not None}

    def whole(part: Part) -> bool:
        old = have.keys.get(part.id)
        if old == part.key:
            return False
        new = part.key
        return not (part.id in holders and isinstance(old, tuple) and old
                    and isinstance(new, tuple) and old[0] == new[0])  # only inside changed

    def carried(part: Part) -> bool:
        holder = by_id.get(part.within) if part.within is not None else None
        while holder is not None:
            if whole(holder):
                return True
            holder = by_id.get(holder.within) if holder.within is not None else None
        return False

    return [p for p in shown if whole(p) and not carried(p)]


