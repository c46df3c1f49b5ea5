"""The room games, by kind: the built-in games, and those the ``EXTRA_GAMES`` setting adds.

A built-in game is a package here, one line in ``BUILT_IN`` and its template folder
(docs/architecture.md, "Adding a game"). A game that lives elsewhere (a test-only game under
``tests/games/``) is named by the setting instead, as ``module.path:ClassName`` or
``module.path:instance``, and added to ``GAMES`` when this module is first imported: the game
lists of the pages and the bots are read from ``GAMES`` at import, so the setting is read from
the environment then (``app.settings.GameSettings``), and ``create_app`` refuses settings that
name a game the registry lacks (``require_registered``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

from app.rooms.games.base import GamePlugin
from app.rooms.games.kniffel import KniffelGame
from app.rooms.games.knikkers_race import KnikkersRaceGame
from app.rooms.games.knister import KnisterGame
from app.settings import GameSettings

BUILT_IN: dict[str, GamePlugin] = {
    "knister": KnisterGame(),
    "kniffel": KniffelGame("kniffel"),
    "kitkniff": KniffelGame("kitkniff"),
    "yatzy": KniffelGame("yatzy"),
    "knikkers_race": KnikkersRaceGame(),
}
"""The games this package holds, in the order pages offer them."""

GAMES: dict[str, GamePlugin] = dict(BUILT_IN)
"""Every room game of this process: ``BUILT_IN``, then the ``EXTRA_GAMES`` in their order."""


def get_game(kind: str) -> GamePlugin:
    """The plug-in for ``kind``; ``KeyError`` for an unknown kind."""
    return GAMES[kind]


def plugin_members() -> frozenset[str]:
    """The names every plug-in has (the attributes and methods ``GamePlugin`` declares)."""
    names = set(GamePlugin.__annotations__)
    names |= {name for name, value in vars(GamePlugin).items()
              if callable(value) and not name.startswith("_")}
    return frozenset(names)


def parse_spec(spec: str) -> list[tuple[str, str]]:
    """The ``(module path, attribute)`` pairs of an ``EXTRA_GAMES`` value (comma-separated
    ``module.path:name``; blanks and empty items ignored). Raises ``ValueError`` for an item
    without exactly one ``:`` or with an empty side."""
    pairs = []
    for item in (part.strip() for part in spec.split(",")):
        if not item:
            continue
        module, sep, name = item.partition(":")
        if not sep or not module.strip() or not name.strip() or ":" in name:
            raise ValueError(f"EXTRA_GAMES: {item!r} is not 'module.path:ClassName' "
                             "or 'module.path:instance'")
        pairs.append((module.strip(), name.strip()))
    return pairs


def load_plugin(module: str, name: str) -> GamePlugin:
    """The plug-in ``name`` of ``module``: a class is instantiated without arguments, any
    other object is taken as it is. Raises ``ImportError`` (no such module),
    ``AttributeError`` (no such name) or ``TypeError`` (the object lacks members of
    ``GamePlugin``, named in the message)."""
    found: Any = getattr(importlib.import_module(module), name)
    plugin = found() if isinstance(found, type) else found
    missing = sorted(member for member in plugin_members() if not hasattr(plugin, member))
    if missing:
        raise TypeError(f"EXTRA_GAMES: {module}:{name} is not a room game plug-in: it lacks "
                        + ", ".join(missing))
    result: GamePlugin = plugin
    return result


def register(plugins: Iterable[GamePlugin], games: dict[str, GamePlugin] = GAMES) -> None:
    """Add ``plugins`` to ``games`` (the registry unless given) under their ``kind``. Raises
    ``ValueError`` when a kind is taken already (a built-in game cannot be replaced) or a
    plug-in's template ``folder`` is another game's."""
    for plugin in plugins:
        if plugin.kind in games:
            raise ValueError(f"EXTRA_GAMES: the game kind {plugin.kind!r} exists already")
        if any(other.folder == plugin.folder for other in games.values()):
            raise ValueError(f"EXTRA_GAMES: the template folder {plugin.folder!r} is "
                             "another game's")
        games[plugin.kind] = plugin


def require_registered(spec: str) -> None:
    """Check that every game ``spec`` (an ``EXTRA_GAMES`` value) names is in the registry:
    the registry read the setting from the environment when it was imported, so settings
    made later that name another game would find it missing. Raises ``RuntimeError``."""
    for module, name in parse_spec(spec):
        found: Any = getattr(importlib.import_module(module), name)
        registered = any(plugin is found or type(plugin) is found for plugin in GAMES.values())
        if not registered:
            raise RuntimeError(f"EXTRA_GAMES names {module}:{name}, which the room games "
                               "registry does not hold: set EXTRA_GAMES in the environment "
                               "before the app is imported")


register(load_plugin(module, name) for module, name in parse_spec(GameSettings().extra_games))
