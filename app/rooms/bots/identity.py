"""Who is a bot: bot players' ids, levels and names (docs/rules.md, "Bots").

A bot is a player like any other (a ``players`` row and a seat), whose id says it is a bot and
at which level: ``bot-s-<16 hex>`` (strong) or ``bot-c-<16 hex>`` (casual). People's ids are
32 hex characters, so the two never meet. A bot's seat is named ``Bot <name>``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable

from app.players.names import name_key
from app.rooms.games import GAMES as ROOM_GAMES

LEVELS = ("strong", "casual")
GAMES = tuple(kind for kind, plugin in ROOM_GAMES.items() if plugin.bot is not None)
"""The room games bots play: those whose plug-in has a ``bot``, in the registry's order."""
PREFIX = "bot-"
_CODES = {"strong": "s", "casual": "c"}
_LEVEL_OF = {code: level for level, code in _CODES.items()}
NAMES = ("Anna", "Bram", "Clara", "Daan", "Eva", "Finn", "Greta", "Hugo", "Ida", "Jonas",
         "Kim", "Lotte")


def new_bot_id(level: str) -> str:
    """A fresh player id for a bot of ``level`` ("strong" | "casual"); ValueError otherwise."""
    if level not in _CODES:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    return f"{PREFIX}{_CODES[level]}-{secrets.token_hex(8)}"


def is_bot(player_id: str | None) -> bool:
    """True for a bot's player id."""
    return bool(player_id) and str(player_id).startswith(PREFIX)


def bot_level(player_id: str | None) -> str | None:
    """The level of a bot's player id ("strong" | "casual"), None for a person."""
    if not is_bot(player_id):
        return None
    return _LEVEL_OF.get(str(player_id)[len(PREFIX):len(PREFIX) + 1])


_BOT_WORD = re.compile(r"^bot[\W_]*")


def _core(name: str) -> str:
    """``name`` as compared for a bot's name: ``name_key`` (case, width and joiners do not
    count) without a leading "Bot" and what separates it: "Bot Anna", "bot-anna" and
    "Anna" are the same."""
    return _BOT_WORD.sub("", name_key(name).strip(), count=1)


def bot_name(taken: Iterable[str]) -> str:
    """``Bot <name>`` with the first of ``NAMES`` that no seat in ``taken`` (seat names) has,
    with or without the "Bot" prefix, in any case (a person called "Anna" or "BOT ANNA" keeps
    "Bot Anna" off the table); after those, ``Bot <n>`` with the first free number from 13."""
    used = {_core(name) for name in taken}
    for name in NAMES:
        if _core(name) not in used:
            return f"Bot {name}"
    number = len(NAMES) + 1
    while str(number) in used:
        number += 1
    return f"Bot {number}"
