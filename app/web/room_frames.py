"""One render per room version: what every viewer of a room is shown alike reaches all of them
as one frame, the same bytes, rendered once per version and language; each viewer's own
parts (the sheet it fills in, "your turn", its seat) follow in a small frame of its own.

The shared frame is what changed for a viewer without a seat (the spectator, ``spectator``):
the new version marker, the heads and sheets of the others, the dice. A seated player's page
lists the parts it shows as its own in ``#own-parts``; the page's script leaves those alone
when a shared frame (it begins with ``SHARED``) brings the spectator's version of them
(``static/js/app.js``), and the player's own frame brings theirs. Nothing personal is in a
shared frame: it is exactly what a spectator is sent.

The server knows what each page shows (``Delivered``): after the shared frame, the page shows
the spectator's version of every part it does not own, so the own frame holds only what
differs from that. A page whose last delivery was one of the room's latest ``KEPT``
spectator pages is in step: pages that missed a version or two alike (the server fell
behind, so their next delivery jumps) share the frame from where they are, built once. A
page that is not in step (it just came, it is further behind, its layout changed, or the
frame cannot be one message) is sent what it needs on its own (``render_update``), and is
in step again from there. Without the kept pages every page of a room that jumped a version
took that path at once, which costs several times the shared one: a server near its capacity
then fell further behind with every jump (bench/README.md, session 16).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.i18n import use_language
from app.rooms.games.base import Part
from app.rooms.state import RoomState
from app.web.part_cache import Delivered, PartCache, Spectator
from app.web.part_sends import assemble, to_send
from app.web.room_view import (
    PRESENCE_PARTS,
    _layout,
    live_context,
    part_template,
    render_update,
    spectator,
)

SHARED = "<!--shared-->"
"""How a shared frame begins (an HTML comment: htmx swaps nothing for it)."""


KEPT = 4
"""Earlier spectator pages a room's stream keeps: a page that shows one of them (it missed a
version or two while the server was behind, so its next delivery jumps) is still sent the
room's shared frame, built once from that page for all such pages, not an update of its own."""


@dataclass
class Stream:
    """A room's shared frames: the spectator's page now (``current``) with its parts
    (``parts``), the ``KEPT`` spectator pages before it (``recent``, oldest first), and the
    frame from each of those (or from ``current`` itself) to ``current`` per language
    (``frames``, by the page's id and language; None: it cannot be one shared frame) with the
    ids of the parts it swaps (``sent``, by the page's id); ``holders``: the ids of the parts
    inside each part that holds others."""

    current: Delivered | None = None
    parts: list[Part] = field(default_factory=list)
    recent: list[Delivered] = field(default_factory=list)
    frames: dict[tuple[int, str], str | None] = field(default_factory=dict)
    sent: dict[int, dict[str, frozenset[str]]] = field(default_factory=dict)
    holders: dict[str, frozenset[str]] | None = None

    def advance(self, seen: Spectator) -> Delivered | None:
        """Move to the spectator's page ``seen`` (unchanged when it shows the same); returns
        the page pages in step are now in step with (None: the room has no parts)."""
        page = seen.delivered
        if page is None:
            self.current, self.parts, self.recent = None, [], []
            self.frames, self.sent, self.holders = {}, {}, None
            return None
        current = self.current
        if current is page or (current is not None and current.layout == page.layout
                               and current.keys == page.keys):
            return current
        if current is not None:
            self.recent = [*self.recent[1 - KEPT:], current]
        self.current, self.parts = page, seen.parts
        self.frames, self.sent, self.holders = {}, {}, None
        return page

    def knows(self, page: Delivered | None) -> bool:
        """Whether the shared frame can start from spectator page ``page``: it is ``current``
        or one of the ``recent`` ones."""
        return page is not None and self.current is not None and (
            page is self.current or any(p is page for p in self.recent))

    def swapped(self, since: Delivered) -> dict[str, frozenset[str]]:
        """Each part the shared frame from page ``since`` swaps, by id, with the ids of the
        parts inside it."""
        sent = self.sent.get(id(since))
        if sent is None:
            inside = self._inside()
            sent = self.sent[id(since)] = {p.id: inside.get(p.id, frozenset())
                                            for p in to_send(self.parts, since)}
        return sent

    def _inside(self) -> dict[str, frozenset[str]]:
        """The ids of the parts inside each holder of ``parts`` (built once per ``current``)."""
        found = self.holders
        if found is None:
            inside: dict[str, set[str]] = {}
            for part in self.parts:  # a part's holder comes before it
                holder = part.within
                while holder is not None:
                    inside.setdefault(holder, set()).add(part.id)
                    holder = next((p.within for p in self.parts if p.id == holder), None)
            found = self.holders = {pid: frozenset(ids) for pid, ids in inside.items()}
        return found

    def frame(self, since: Delivered, state: RoomState, lang: str,
              cache: PartCache) -> str | None:
        """The shared frame from page ``since`` (``knows``) to ``current`` in ``lang`` ("":
        nothing changed; None: there is none, such pages are sent their own update)."""
        key = (id(since), lang)
        if key in self.frames:
            return self.frames[key]
        frame: str | None = None
        now = self.current
        if now is not None and since.layout == now.layout:
            by_id = {p.id: p for p in self.parts}
            html = [cache.render(state.code, by_id[pid], part_template(state, by_id[pid]))
                    for pid in self.swapped(since)]
            body = assemble(html)
            frame = None if body is None else (SHARED + body if body else "")
        self.frames[key] = frame
        return frame


class RoomRenderer:
    """The hub's renderer (``app.live.delivery.Renderer``): room states as each viewer's
    frames, the shared one rendered once per version and language, each part once per key
    and language, in the app's ``parts``."""

    def __init__(self, parts: PartCache) -> None:
        self.parts = parts

    def _stream(self, state: RoomState, online: frozenset[str]) -> tuple[Stream, Any]:
        stream: Stream | None = self.parts.streams.get(state.code)
        if stream is None:
            stream = self.parts.streams[state.code] = Stream()
        return stream, stream.advance(spectator(state, online, self.parts))

    def update(self, state: RoomState, player_id: str, lang: str, online: frozenset[str],
               have: Delivered | None = None) -> tuple[tuple[str, ...], Delivered | None]:
        """``(frames, delivered)``: what a page showing ``have`` (None: nothing) is sent to
        show ``state`` (the room's shared frame and its own, or one frame of its own), and
        what it shows then."""
        stream, token = self._stream(state, online)
        if have is not None and token is not None and stream.knows(have.stream):
            found = self._in_step(state, player_id, lang, online, have, stream)
            if found is not None:
                found[1].stream = token
                return found
        html, now = render_update(state, player_id, lang, online, have, parts=self.parts)
        if now is not None:
            now.stream = token
        return ((html,) if html else ()), now

    def _in_step(self, state: RoomState, player_id: str, lang: str, online: frozenset[str],
                 have: Delivered, stream: Stream
                 ) -> tuple[tuple[str, ...], Delivered] | None:
        """The shared frame and the page's own for a page in step with the room's shared
        frames; None when it must be sent its update on its own."""
        with use_language(lang):
            context = live_context(state, player_id, online, self.parts)
            layout = _layout(context)
            since: Delivered = have.stream  # type: ignore[assignment]  # stream.knows it
            shared = stream.frame(since, state, lang, self.parts)
            if layout is None or layout != have.layout or shared is None:
                return None
            shown: list[Part] = context["room_parts"] + context["game_parts"]
            keys = {p.id: p.key for p in shown}
            spectator_keys = stream.current.keys if stream.current else {}
            if not spectator_keys.keys() <= keys.keys():
                return None
            shows = dict(have.keys)  # what the page shows once the shared frame is swapped
            for part_id, inside in stream.swapped(since).items():
                if part_id not in have.own:  # the page keeps its own parts
                    for swapped in (part_id, *inside):
                        shows[swapped] = spectator_keys.get(swapped)
            now = Delivered(layout, keys, context["own"],
                            own_elements=context["own_elements"])
            # Every other part shows the spectator's version, as the shared frame left it
            # and as this viewer is to see it: only its own parts, now or before, can differ.
            mine = now.own | have.own
            own = assemble([context["part_html"](p) for p in to_send(
                               [p for p in shown if p.id in mine], Delivered(layout, shows))],
                           now.own_elements if now.own_elements != have.own_elements
                           else None)
            if own is None:
                return None
        return tuple(f for f in (shared, own) if f), now

    def refresh(self, state: RoomState, player_id: str, lang: str, online: frozenset[str],
                own: frozenset[str] = frozenset()) -> tuple[tuple[str, ...], Delivered | None]:
        """What a page that says it shows ``state`` receives when its socket says hello:
        the parts that show presence (``PRESENCE_PARTS``: who is online and the away
        countdowns, its own player coming back included) and its own parts (``own``: those
        it lists in ``#own-parts``, and those it should), or the whole live area where it
        has no separate parts. Returns ``(frames, delivered)`` as ``update``.

        Its own parts are sent again because a page can hold a version's shared frame but
        not its own frame that followed (the connection dropped between the two): it then
        shows its own parts as they were, and lists them as they were."""
        _, shown = render_update(state, player_id, lang, online, None, html=False,
                                 parts=self.parts)
        if shown is not None:
            with use_language(lang):
                context = live_context(state, player_id, online, self.parts)
            listed = frozenset(  # the parts of the elements it lists
                p.id for p in context["room_parts"] + (context["game_parts"] or [])
                if own.intersection(p.element_ids()))
            for part_id in (*PRESENCE_PARTS, *(shown.own | listed)):
                if part_id in shown.keys:
                    shown.keys[part_id] = None
            shown.own, shown.own_elements = listed, own
        return self.update(state, player_id, lang, online, shown)
