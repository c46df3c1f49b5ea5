"""Kniffel, KitKniff and Yatzy in a room: one package with its plug-in (``plugin``), state
fold (``state``), view (``view``) and labels (``labels``); templates in
``templates/rooms/kniffel/``. Rules: docs/rules.md, "Kniffel family"."""

from app.rooms.games.kniffel.plugin import AWAY_GRACE, TIMER_CHOICES, KniffelGame
from app.rooms.games.kniffel.state import KniffelState

__all__ = ["AWAY_GRACE", "TIMER_CHOICES", "KniffelGame", "KniffelState"]
