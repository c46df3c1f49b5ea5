"""A page as htmx's ws extension keeps it, on strings: a socket message's top-level elements
are each swapped by id for the element with that id in the page (outerHTML, out of band);
in a shared frame (``app.web.room_frames.SHARED``) not those the page lists in
``#own-parts`` (``static/js/app.js``). Enough for the markup the app renders itself
(well-formed, void elements without closing tags)."""

from __future__ import annotations

import re

TAG = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*?(/?)>", re.S)
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})
ID = re.compile(r'\bid="([^"]+)"')
OWN_IDS = re.compile(r'<div id="own-parts"[^>]*data-ids="([^"]*)"')


def element_end(html: str, start: int) -> int:
    """Where the element whose start tag begins at ``start`` ends (one past its end tag)."""
    depth = 0
    for m in TAG.finditer(html, start):
        if m.group(0).startswith("<!--"):
            continue
        closing, name, self_closing = m.group(1), m.group(2).lower(), m.group(3)
        if closing:
            depth -= 1
        elif name not in VOID and not self_closing:
            depth += 1
        if depth == 0:
            return m.end()
    raise ValueError(f"unclosed element at {start}")


def top_level(fragment: str) -> list[tuple[str, str]]:
    """The top-level elements of ``fragment`` as ``(id, html)`` (comments skipped)."""
    out, pos = [], 0
    while (m := TAG.search(fragment, pos)) is not None:
        if m.group(0).startswith("<!--"):
            pos = m.end()
            continue
        end = element_end(fragment, m.start())
        element = fragment[m.start():end]
        found = ID.search(m.group(0))
        out.append((found.group(1) if found else "", element))
        pos = end
    return out


def own_ids(page: str) -> set[str]:
    """The ids the page lists in ``#own-parts``."""
    m = OWN_IDS.search(page)
    return set(m.group(1).split()) if m else set()


def apply(page: str, frame: str, shared_mark: str) -> str:
    """``page`` after htmx swapped ``frame`` into it (out of band, by id)."""
    shared = frame.startswith(shared_mark)
    own = own_ids(page)
    for element_id, element in top_level(frame):
        if shared and element_id in own:
            continue  # the page keeps its own version
        at = page.find(f'id="{element_id}"')
        assert at >= 0, f"no #{element_id} in the page"
        start = page.rindex("<", 0, at)
        new = element.replace(' hx-swap-oob="true"', "", 1)
        page = page[:start] + new + page[element_end(page, start):]
    return page
