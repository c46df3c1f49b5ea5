"""Knikkers race fan-out: the CPU time to show one move to every page of a full race.

``python bench/knikkers_race.py`` sets up 12 racers at different stages (racer n has made n
moves on the same seed) and one spectator, then makes 240 moves round the table; after each,
every page's view, parts and part HTML are built as the hub does (``PartCache``: each part
rendered once per key and language). Prints the median, p90 and max CPU time per move.
"""

from __future__ import annotations

import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engines import knikkers as engine  # noqa: E402
from app.i18n import use_language  # noqa: E402
from app.rooms.games import GAMES  # noqa: E402
from app.rooms.games.base import Event, Table  # noqa: E402
from app.rooms.games.knikkers_race import dice_for_seed  # noqa: E402
from app.web.part_cache import PartCache  # noqa: E402

GAME = GAMES["knikkers_race"]
T0 = datetime(2026, 1, 1, tzinfo=UTC)
SEATS = list(range(1, 13))
MOVES = 240


def _first_move(game: engine.Game):
    board = game.board
    for r in range(9):
        for c in range(9):
            if board[r][c] is not None and (reach := game.reachable((r, c))):
                return (r, c), min(reach)
    return None


def _move(state, seat: int) -> None:
    game = state.boards[seat].game
    move = None if game.over else _first_move(game)
    if move is None:
        return
    (r1, c1), (r2, c2) = move
    action = {"type": "move", "src": f"{r1},{c1}", "dst": f"{r2},{c2}", "moves": game.moves}
    for event in GAME.decide(state, seat, action, lambda n: []):
        GAME.apply(state, Event(event.type, event.payload, event.seat_id, T0))


def run() -> dict[str, float]:
    """The measured CPU times (ms per move, all 13 pages)."""
    state = GAME.new_state({"variant": 5, "time_limit": 0}, SEATS, 0)
    faces = dice_for_seed(987654321)
    for event in GAME.on_timer(state, Table(SEATS, started_at=T0), T0,
                               lambda n: [faces.pop(0) for _ in range(n)]):
        GAME.apply(state, Event(event.type, event.payload, event.seat_id, T0))
    for seat in SEATS:
        for _ in range(seat):
            _move(state, seat)
    labels = {seat: f"Player {seat}" for seat in SEATS}
    cache = PartCache()
    times = []
    for i in range(MOVES):
        _move(state, SEATS[i % len(SEATS)])
        started = time.process_time()
        with use_language("nl"):
            for viewer in [*SEATS, None]:
                for part in GAME.parts(GAME.view(state, viewer), viewer, labels):
                    cache.render("BENCH", part, GAME.parts_template)
        times.append((time.process_time() - started) * 1000)
    times.sort()
    return {"median ms per move (13 pages)": statistics.median(times),
            "p90 ms per move (13 pages)": times[int(len(times) * 0.9)],
            "max ms per move (13 pages)": times[-1]}


if __name__ == "__main__":
    print("Knikkers race fan-out, 12 racers + 1 spectator, CPU time")
    for key, value in run().items():
        print(f"  {key:<34} {value:>8.2f}")
