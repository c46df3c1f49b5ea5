"""The display name, one-line description and picture of a room game, from the game registry
(the only list of games)."""

from __future__ import annotations

from app.i18n import gettext
from app.rooms.games import GAMES


def game_label(kind: str) -> str:
    """The display name of room game ``kind`` (its plug-in's ``label``, translated where the
    catalogs have it, e.g. "Knikkers race"); ``kind`` itself for an unknown one."""
    game = GAMES.get(kind)
    return gettext(game.label) if game is not None else kind


def game_tagline(kind: str) -> str:
    """Room game ``kind`` in one line for a newcomer (its plug-in's ``tagline``, translated);
    "" for an unknown one."""
    game = GAMES.get(kind)
    return gettext(game.tagline) if game is not None else ""


def game_picture_of(kind: str) -> str:
    """The name of room game ``kind``'s small picture (its plug-in's ``picture``)."""
    game = GAMES.get(kind)
    return game.picture if game is not None else ""
