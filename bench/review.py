"""Post-game analysis speed: one full 4-player Kniffel game analysed, in ms.

Run: .venv/bin/python bench/review.py [--games 5]

Plays --games 4-player Kniffel games with seeded dice and a plain player (keeps the most
frequent face, writes the box auto_box picks: many different positions, as people make), then
times ``analyse`` (app/rooms/games/kniffel/analysis.py) on each: cold (a fresh Strategy, every
turn solved afresh, as for the first analysis after a start) and warm (the same game again,
turns cached). The strategy table is solved once first (not timed). Results: bench/README.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engines.kniffel import auto_box  # noqa: E402
from app.engines.kniffel_optimal import Strategy, rules_for, solve_table  # noqa: E402
from app.rooms.games.base import Event  # noqa: E402
from app.rooms.games.kniffel import KniffelGame  # noqa: E402
from app.rooms.games.kniffel.analysis import analyse  # noqa: E402
from app.rooms.games.kniffel.state import KniffelState, fold, rolled  # noqa: E402

OPTIONS = KniffelGame("kniffel").default_options()
SEATS = [1, 2, 3, 4]


def play(rng: random.Random) -> list[Event]:
    """One 4-player game of a plain player, as stored events."""
    state = KniffelState.new("kniffel", OPTIONS, SEATS)
    events: list[Event] = []

    def apply(event: Event) -> None:
        fold(state, event)
        events.append(event)

    while not state.over:
        seat = state.current
        assert seat is not None
        apply(Event("roll", {"dice": [rng.randint(1, 6) for _ in range(5)],
                             "held": [False] * 5}, seat))
        while state.turn.rolls < 3 and rng.random() < 0.8:
            face = Counter(state.turn.dice).most_common(1)[0][0]
            for i, die in enumerate(state.turn.dice):
                apply(Event("hold", {"die": i, "held": die == face}, seat))
            if all(state.turn.held):
                break
            free = state.turn.free_count()
            apply(Event("roll", {"dice": rolled(state.turn, [rng.randint(1, 6)
                                                             for _ in range(free)]),
                                 "held": list(state.turn.held)}, seat))
        card = state.card(seat)
        assert card is not None
        box = auto_box(card, state.turn.dice)
        apply(Event("score", {"box": box, "column": 0,
                              "points": card.options(state.turn.dice)[box]}, seat))
    return events


def main() -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    rules = rules_for("kniffel")
    start = time.perf_counter()
    table = solve_table(rules)
    print(f"solved kniffel in {time.perf_counter() - start:.1f} s (not part of the timings)")
    cold, warm, decisions = [], [], []
    for seed in range(args.games):
        events = play(random.Random(seed))
        strategy = Strategy(rules, table)
        start = time.perf_counter()
        done = analyse(strategy, "kniffel", OPTIONS, SEATS, events)
        cold.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        analyse(strategy, "kniffel", OPTIONS, SEATS, events)
        warm.append((time.perf_counter() - start) * 1000)
        decisions.append(sum(s.decisions for s in done.summary.values()))
    print(f"analysis of one 4-player game ({statistics.mean(decisions):.0f} decisions): "
          f"cold {statistics.mean(cold):.0f} ms (max {max(cold):.0f}), "
          f"warm {statistics.mean(warm):.0f} ms, over {args.games} games")


if __name__ == "__main__":
    main()
