"""Where the server's dice come from: a cryptographic RNG, or a test queue when allowed."""

from __future__ import annotations

import secrets
from collections import defaultdict, deque

_rng = secrets.SystemRandom()


class DiceSource:
    """Draws dice for a room. ``for_room(code)(n)`` returns ``n`` faces 1..6.

    With ``allow_loaded=True`` (test settings only) tests may queue faces per room with
    ``load(code, faces)``; queued faces are used first, then the cryptographic RNG.
    """

    def __init__(self, allow_loaded: bool = False) -> None:
        self.allow_loaded = allow_loaded
        self._queues: dict[str, deque[int]] = defaultdict(deque)

    def load(self, code: str, faces: list[int]) -> None:
        """Queue ``faces`` (ints 1..6) for room ``code``; ValueError when not allowed/bad."""
        if not self.allow_loaded:
            raise ValueError("loaded dice are only for tests")
        if not all(isinstance(f, int) and 1 <= f <= 6 for f in faces):
            raise ValueError("faces are ints 1..6")
        self._queues[code].extend(faces)

    def for_room(self, code: str):
        """A ``Dice`` callable for room ``code``."""

        def draw(n: int) -> list[int]:
            queue = self._queues.get(code)
            return [queue.popleft() if queue else _rng.randint(1, 6) for _ in range(n)]

        return draw
