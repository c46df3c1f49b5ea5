"""Knikkers race in a room: one package with its plug-in (``plugin``), state fold (``state``),
view and live parts (``view``) and labels (``labels``); templates in
``templates/rooms/knikkers_race/``. Rules: docs/rules.md, "Knikkers race"."""

from app.rooms.games.knikkers_race.plugin import (
    AWAY_GRACE,
    SEED_DICE,
    TIME_LIMITS,
    KnikkersRaceGame,
    dice_for_seed,
    seed_from_dice,
)
from app.rooms.games.knikkers_race.state import RaceBoard, RaceState

__all__ = ["AWAY_GRACE", "SEED_DICE", "TIME_LIMITS", "KnikkersRaceGame", "RaceBoard",
           "RaceState", "dice_for_seed", "seed_from_dice"]
