"""Where the server's dice come from: a room game's secret seed and each die's place
(docs/dice.md), a cryptographic RNG for games without one, or a test queue when allowed."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import defaultdict, deque
from typing import Any

from app.engines.fair_dice import SEED_BYTES, face
from app.rooms.games.base import Dice
from app.rooms.games.capabilities import dice_log_of

_rng = secrets.SystemRandom()


def new_seed() -> str:
    """A fresh secret dice seed: 32 bytes from the OS's cryptographic source, as 64 hex
    digits."""
    return secrets.token_hex(SEED_BYTES)


def daily_seed(secret: str, kind: str, day: str) -> str:
    """The seed of the daily challenge of game ``kind`` on ``day`` (``YYYY-MM-DD``, UTC):
    HMAC-SHA256 of the server's ``secret`` over ``knobel-daily:<kind>:<day>``, 64 hex digits
    (the same for every player and process; unknown without the secret)."""
    message = f"knobel-daily:{kind}:{day}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def dice_game(code: str, number: int, options: dict[str, Any] | None = None,
              kind: str = "") -> str:
    """How the dice function names game ``number`` of room ``code`` (docs/dice.md):
    ``<code>-<number>``; a daily challenge's game (``options["daily"]``: its day) is
    ``daily-<kind>-<day>`` in every room, so every player of the day gets the same dice."""
    day = (options or {}).get("daily")
    return f"daily-{kind}-{day}" if day else f"{code}-{number}"


class DiceSource:
    """Draws dice for a room. ``for_room(code)(n)`` returns ``n`` faces 1..6 from the
    cryptographic RNG; ``for_game(state)`` draws a running game's dice from its seed.

    With ``allow_loaded=True`` (test settings only) tests may queue faces per room with
    ``load(code, faces)``; queued faces are used first (such a game's dice do not match its
    seed), then the seed or the cryptographic RNG.
    """

    def __init__(self, allow_loaded: bool = False, secret: str = "") -> None:
        self.allow_loaded = allow_loaded
        self.secret = secret  # keys the daily challenges' seeds (``daily_seed``)
        self._queues: dict[str, deque[int]] = defaultdict(deque)

    def seed_for(self, plugin: Any, options: dict[str, Any]) -> str | None:
        """A new game's dice seed when ``plugin`` (a ``GamePlugin``) draws its dice from one
        with these room ``options`` (its ``DiceLog.seeded``): the day's ``daily_seed`` for a
        daily challenge (``options["daily"]``), else a fresh ``new_seed()``; None for real
        dice or a game without a ``DiceLog``."""
        log = dice_log_of(plugin)
        if log is None or not log.seeded(options):
            return None
        day = options.get("daily")
        return daily_seed(self.secret, plugin.kind, str(day)) if day else new_seed()

    def load(self, code: str, faces: list[int]) -> None:
        """Queue ``faces`` (ints 1..6) for room ``code``; ValueError when not allowed/bad."""
        if not self.allow_loaded:
            raise ValueError("loaded dice are only for tests")
        if not all(isinstance(f, int) and 1 <= f <= 6 for f in faces):
            raise ValueError("faces are ints 1..6")
        self._queues[code].extend(faces)

    def for_room(self, code: str) -> Dice:
        """A ``Dice`` callable for room ``code`` (queued faces, then the RNG)."""

        def draw(n: int) -> list[int]:
            queue = self._queues.get(code)
            return [queue.popleft() if queue else _rng.randint(1, 6) for _ in range(n)]

        return draw

    def for_game(self, state: Any) -> Dice:
        """A ``Dice`` callable for the running game of ``state`` (a ``RoomState``): each die
        is ``fair_dice.face`` of the game's seed and its place, which the plug-in's
        ``DiceLog.next_throw`` names for the game as it is now (so a retried or repeated
        decision draws the same dice, in any process). A game without a seed draws as
        ``for_room``. Queued test faces come first."""
        game, log = state.game, dice_log_of(state.plugin)
        if game is None or game.dice_seed is None or log is None:
            return self.for_room(state.code)
        seed, game_state = game.dice_seed, state.game_state
        name = dice_game(state.code, game.number, game.options, game.kind)

        def draw(n: int) -> list[int]:
            at = log.next_throw(game_state, n)
            queue = self._queues.get(state.code)
            return [queue.popleft() if queue else face(seed, name, at.turn, at.throw, slot)
                    for slot in at.slots]

        return draw
