"""Test-only room games (docs/architecture.md, "Adding a game"): each folder holds one game
added by the ``EXTRA_GAMES`` setting (set in tests/conftest.py), never by the registry, with
its templates and its tests; the generic room tests (tests/rooms/test_every_game.py) run for
it as for every built-in game."""
