"""What the live hub keeps between renders: what one page shows (``Delivered``), the room as
a spectator sees it (``Spectator``), what every viewer of a room version shares
(``Shared``, ``SharedViews``) and the rendered parts (``PartCache``)."""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from app.i18n import current_language
from app.rooms.games.base import Part
from app.rooms.state import RoomState
from app.web.templating import templates

_MODULES: dict[str, Any] = {}  # parts templates' macros (compiled templates), loaded once


@dataclass
class Delivered:
    """What one connection's page shows: the ``layout`` (the live area's static frame and its
    part ids), the key of each part (``keys``: part id -> ``Part.key``), which parts it
    shows as its own (``own``: part ids; ``own_elements``: the ids of their elements, listed
    in its ``#own-parts``, which the room's shared frames do not replace:
    ``app.web.room_frames``), and the spectator's page (``stream``) that its other parts
    show."""

    layout: Hashable
    keys: dict[str, Hashable]
    own: frozenset[str] = frozenset()
    stream: Delivered | None = None
    own_elements: frozenset[str] = frozenset()


@dataclass
class Spectator:
    """The room as a viewer without a seat sees it at one version and presence: what it
    shows (``delivered``) and its parts (``parts``), all of them the same for every viewer."""

    delivered: Delivered | None
    parts: list[Part]


@dataclass
class Shared:
    """What every viewer of one room state at one ``version`` is shown alike, built once:
    the frame (``frame``: its key and context, ``_frame``) and the game's view and parts per
    view group (``games``, ``_game_view``). ``state``: the state it was built from."""

    state: weakref.ref[RoomState]
    version: int
    frame: tuple[Hashable, dict[str, Any]] | None = None
    games: dict[Hashable, tuple[dict[str, Any], list[Part]]] = field(default_factory=dict)
    spectators: dict[frozenset[str], Spectator] = field(default_factory=dict)


class SharedViews:
    """``Shared`` by room code: one entry per room, for the latest room state and version
    rendered (a new version or another state of the room replaces it), released with
    ``forget`` when the room leaves memory. An entry is reused only for the very state
    object it was built from at the same version: a state whose write failed is dropped
    with the events it applied (``GameActions.append``), so what was built from it must not
    be shown for the version it is reloaded at."""

    def __init__(self) -> None:
        self._rooms: dict[str, Shared] = {}

    def of(self, state: RoomState) -> Shared:
        """The shared views of ``state`` at its version (empty when not built yet)."""
        shared = self._rooms.get(state.code)
        if shared is None or shared.version != state.version or shared.state() is not state:
            shared = self._rooms[state.code] = Shared(weakref.ref(state), state.version)
        return shared

    def forget(self, code: str) -> None:
        """Drop what was built for room ``code``."""
        self._rooms.pop(code, None)

    def __len__(self) -> int:
        return len(self._rooms)


class PartCache:
    """Rendered parts, by room, language, part id and key (an LRU of at most ``size``), and
    what all viewers of a room's version share (``views``: ``SharedViews``); one per app
    (``app.state.parts``), released per room when the room leaves memory."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._html: OrderedDict[tuple[Any, ...], Markup] = OrderedDict()
        self.views = SharedViews()
        self.streams: dict[str, Any] = {}  # room code -> its shared frames (room_frames.Stream)

    def render(self, code: str, part: Part, template: str) -> Markup:
        """The HTML of ``part`` (a macro of ``template``) in the current language: rendered
        once per room, part id, key and language, then reused for every viewer and version
        that has the same key (e.g. other players' sheets)."""
        cache_key = (code, current_language(), part.id, part.key)
        html = self._html.get(cache_key)
        if html is None:
            module = _MODULES.get(template)
            if module is None:
                module = _MODULES[template] = templates.env.get_template(template).module
            html = self._html[cache_key] = Markup(getattr(module, part.macro)(*part.args))
            if len(self._html) > self.size:
                self._html.popitem(last=False)
        else:
            self._html.move_to_end(cache_key)
        return html

    def forget(self, code: str) -> None:
        """Drop every part of room ``code`` and its shared views."""
        for key in [k for k in self._html if k[0] == code]:
            del self._html[key]
        self.views.forget(code)
        self.streams.pop(code, None)

    def __len__(self) -> int:
        return len(self._html)
