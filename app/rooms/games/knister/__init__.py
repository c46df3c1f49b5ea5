"""Knister in a room: one package with its plug-in (``plugin``), state fold (``state``), view
and live parts (``view``, ``cells``) and labels (``labels``); templates in
``templates/rooms/knister/``. Rules: docs/rules.md, "Knister"."""

from app.rooms.games.knister.plugin import (
    AWAY_PLACER_GRACE,
    AWAY_ROLLER_GRACE,
    TIMER_CHOICES,
    KnisterGame,
)
from app.rooms.games.knister.state import ROLLS_PER_GAME, KnisterState

__all__ = ["AWAY_PLACER_GRACE", "AWAY_ROLLER_GRACE", "ROLLS_PER_GAME", "TIMER_CHOICES",
           "KnisterGame", "KnisterState"]
