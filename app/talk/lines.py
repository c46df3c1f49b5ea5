"""What the talk at a table is made of, as plain values: chat lines, the fixed reactions, the
room option that turns the chat off, and the cleaning of typed text (docs/rules.md, "Talk at
the table")."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from app.errors import N_
from app.rooms.games.base import parse_switch
from app.typed import shown_text

MAX_CHARS = 200  # characters of one chat line, after cleaning
SHOWN_LINES = 50  # the newest lines a page shows (a reload or latecomer too)
CHAT_OPTION = "chat"

REACTIONS: dict[str, str] = {
    "nice": N_("nice"),
    "ouch": N_("ouch"),
    "well_played": N_("well played"),
    "hurry_up": N_("hurry up"),
    "lucky": N_("lucky!"),
    "thinking": N_("thinking…"),
}
"""The fixed reactions, id -> the English label (a gettext msgid); their pictures are
``templates/rooms/_talk.html``'s ``reaction_icon``."""


@dataclass(frozen=True)
class ChatLine:
    """One chat line as shown: its stored ``id``, the writer's ``seat_id`` and ``name`` (the
    seat's label when written) and the ``body`` as typed (escaped only when rendered)."""

    id: int
    seat_id: int
    name: str
    body: str


def clean_text(raw: Any) -> str | None:
    """The chat line to store for ``raw`` (the ``text`` field of a message): as others may be
    shown it (``app.typed.shown_text``: NFC, at most two combining marks per character),
    control and format characters dropped, runs of white space as one space, trimmed. None when
    ``raw`` is not a string or nothing is left; the caller checks ``MAX_CHARS``."""
    if not isinstance(raw, str):
        return None
    kept = "".join(" " if ch.isspace() else ch for ch in shown_text(raw)
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    text = " ".join(kept.split())
    return text or None


def chat_on(options: dict[str, Any]) -> bool:
    """Whether the room's chat is on (the option absent: on, the default)."""
    return bool(options.get(CHAT_OPTION, True))


def parse_chat_option(form: dict[str, Any]) -> dict[str, bool]:
    """The lobby form's chat switch as room options: ``{}`` when on (the default, so rooms
    keep their options as before), ``{"chat": False}`` when off. Raises ``OptionError`` for
    another value (``parse_switch``)."""
    return {} if parse_switch(form, CHAT_OPTION) else {CHAT_OPTION: False}
