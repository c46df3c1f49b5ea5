"""The display name of a room game, from the game registry (the only list of games)."""

from __future__ import annotations

from app.i18n import gettext
from app.rooms.games import GAMES


def game_label(kind: str) -> str:
    """The display name of room game ``kind`` (its plug-in's ``label``, translated where the
    catalogs have it, e.g. "Knikkers race"); ``kind`` itself for an unknown one."""
    game = GAMES.get(kind)
    return gettext(game.label) if game is not None else kind
