"""What the talk at a table looks like to one viewer: its parts (the chat's lines, the
reactions and the chat's input), each rendered once per key and language in the app's
``PartCache``, and the flash of a reaction (docs/rules.md, "Talk at the table")."""

from __future__ import annotations

from collections.abc import Hashable

from markupsafe import Markup

from app.i18n import gettext as _
from app.i18n import use_language
from app.rooms.games.base import Part
from app.rooms.state import RoomState
from app.talk.lines import REACTIONS, ChatLine, chat_on
from app.web.part_cache import PartCache
from app.web.templating import templates

TALK_PARTS = "rooms/_talk.html"


def talk_parts(state: RoomState, lines: tuple[ChatLine, ...],
               player_id: str | None) -> list[Part]:
    """The talk parts of room ``state`` with chat ``lines`` as ``player_id`` sees them: the
    log (remove buttons for the host) and the controls (for seated players); none in a solo
    room (docs/rules.md, "Talk at the table")."""
    if state.options.get("solo"):
        return []
    on, seated, is_host = _viewer(state, player_id)
    ids = tuple(line.id for line in lines)
    return [
        Part("chat-log", ("chat-log", ids, is_host, on), "chat_log", (lines, is_host, on)),
        Part("talk-controls", ("talk-controls", seated, on), "talk_controls",
             (seated, on, _reaction_labels())),
    ]


def _viewer(state: RoomState, player_id: str | None) -> tuple[bool, bool, bool]:
    """``(chat on, seated, hosts)`` for ``player_id`` in ``state``."""
    seated = state.seat_of(player_id) is not None
    return chat_on(state.options), seated, seated and player_id == state.host_player_id


def _reaction_labels() -> tuple[tuple[str, str], ...]:
    """``(reaction, label)`` in the current language, in the fixed order."""
    return tuple((name, _(label)) for name, label in REACTIONS.items())


class TalkRenderer:
    """Renders talk parts and reaction flashes with the app's ``parts`` cache."""

    def __init__(self, parts: PartCache) -> None:
        self.parts = parts
        self._ids: dict[str, tuple[tuple[ChatLine, ...], tuple[int, ...]]] = {}

    def html(self, state: RoomState, lines: tuple[ChatLine, ...], player_id: str | None,
             lang: str) -> list[Markup]:
        """Every talk part's HTML (for the room page as it is served)."""
        with use_language(lang):
            return [self.parts.render(state.code, p, TALK_PARTS)
                    for p in talk_parts(state, lines, player_id)]

    def update(self, state: RoomState, lines: tuple[ChatLine, ...], player_id: str,
               lang: str, have: dict[str, Hashable] | None) -> tuple[str, dict[str, Hashable]]:
        """``(html, keys)``: the talk parts whose key differs from ``have`` (what the page
        shows; None: unknown, all are sent), each swapped by its id, and the keys it shows
        then. Runs after every room update of every page, so the keys are compared first
        (the lines' ids kept per lines tuple) and parts are built only when one changed."""
        keys = self._keys(state, lines, player_id)
        if have == keys:
            return "", keys
        with use_language(lang):
            sent = [self.parts.render(state.code, p, TALK_PARTS)
                    for p in talk_parts(state, lines, player_id)
                    if have is None or have.get(p.id) != p.key]
        return "".join(sent), keys

    def _keys(self, state: RoomState, lines: tuple[ChatLine, ...],
              player_id: str) -> dict[str, Hashable]:
        """The keys of ``talk_parts(state, lines, player_id)``, without building them."""
        if state.options.get("solo"):
            return {}
        held = self._ids.get(state.code)
        if held is None or held[0] is not lines:
            held = self._ids[state.code] = (lines, tuple(line.id for line in lines))
        on, seated, is_host = _viewer(state, player_id)
        return {"chat-log": ("chat-log", held[1], is_host, on),
                "talk-controls": ("talk-controls", seated, on)}

    def forget(self, code: str) -> None:
        """Drop what is kept of room ``code`` (it left memory)."""
        self._ids.pop(code, None)

    def flash(self, state: RoomState, seat_id: int, reaction: str, lang: str) -> str:
        """The reaction ``reaction`` of seat ``seat_id`` in ``lang`` (an out-of-band swap of
        ``#reaction-flash``); "" for an unknown seat or reaction."""
        seat = state.seat(seat_id)
        if seat is None or reaction not in REACTIONS:
            return ""
        with use_language(lang):
            module = templates.env.get_template(TALK_PARTS).module
            return str(getattr(module, "reaction_flash")(  # noqa: B009 (a template macro)
                seat_id, seat.label, reaction, _(REACTIONS[reaction])))

