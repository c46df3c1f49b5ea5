"""High throw, a test-only room game: each seat in turn throws the dice once; the highest
throw wins, equal throws share the place. Added by the ``EXTRA_GAMES`` setting
(``tests.games.high_throw.plugin:HighThrowGame``, tests/conftest.py); its plug-in
(``plugin``), state fold (``state``), templates (``templates/rooms/high_throw/``) and tests
live in this folder alone."""
