"""The room games, by kind. A new game needs an engine, a plug-in here and a template folder."""

from __future__ import annotations

from app.rooms.games.base import GamePlugin
from app.rooms.games.kniffel import KniffelGame
from app.rooms.games.knikkers_race import KnikkersRaceGame
from app.rooms.games.knister import KnisterGame

GAMES: dict[str, GamePlugin] = {
    "knister": KnisterGame(),
    "kniffel": KniffelGame("kniffel"),
    "kitkniff": KniffelGame("kitkniff"),
    "yatzy": KniffelGame("yatzy"),
    "knikkers_race": KnikkersRaceGame(),
}


def get_game(kind: str) -> GamePlugin:
    """The plug-in for ``kind``; ``KeyError`` for an unknown kind."""
    return GAMES[kind]
