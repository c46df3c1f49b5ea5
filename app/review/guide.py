"""A first game that teaches (docs/rules.md, "Guided first round"): a solo room with the
``guide`` option shows, at each step of its first rolls or turns, what the strong bot would do
and why. The steps are the game's own (``GamePlugin.guide``, ``capabilities.GameGuide``); this
module keeps what each guide showed, for the next step's feedback.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

Shown = TypeVar("Shown")


class ShownAdvice(Generic[Shown]):
    """The last advice the guide showed each seat at each step, per room (``(code, seat,
    step)`` -> advice: a Kniffel ``Hint`` per turn, a Knister ``CellAdvice`` per roll; the
    newest ``size`` kept, in this process): what the next step's feedback compares the
    player's move with."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._shown: OrderedDict[tuple[str, int, int], Shown] = OrderedDict()

    def remember(self, code: str, seat: int, step: int, advice: Shown) -> None:
        """Keep ``advice`` as the one shown to ``seat`` at ``step`` of room ``code``."""
        key = (code, seat, step)
        self._shown[key] = advice
        self._shown.move_to_end(key)
        while len(self._shown) > self.size:
            self._shown.popitem(last=False)

    def recall(self, code: str, seat: int, step: int) -> Shown | None:
        """The advice last shown to ``seat`` at ``step`` of room ``code``, if kept."""
        return self._shown.get((code, seat, step))
