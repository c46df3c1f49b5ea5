"""What a move costs in a turn-based room against a live one (issue 27: "a move in a
turn-based room costs no more than in a live room").

``python bench/turn_move_cost.py`` plays whole games through ``RoomService.act`` in process,
on Postgres (``--database-url``; the database ``knobel_bench_moves`` is created and migrated
when missing), alternating a live room and a turn-based room of the same game so both see the
same machine state: Kniffel (2 players: roll, score) and Knister (2 players: roll, place; in
a turn-based room the server rolls with the last placement, so it has no roll actions). It
prints, per game and pace, the milliseconds per action (p50, p99) and per whole game, and
the ratios turns / live; with the machine's speed reference (``turns_scale.speed_reference``)
and the load average. Nobody listens to the rooms (no sockets, no rendering): this is the
decision and the write, where the two paces differ.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rooms_load import ensure_database  # noqa: E402
from bench.turns_scale import speed_reference  # noqa: E402

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/knobel_bench_moves"


async def _no_publish(code: str, version: int, delta: str | None = None) -> None:
    """Nobody listens."""


async def play_game(service, kind: str, pace: str, n: int) -> tuple[list[float], float]:
    """One whole game of ``kind`` at ``pace`` by two players through ``service``; returns the
    milliseconds of each action and of the game."""
    from app.rooms.rules import page_basis

    players = [f"bench-{pace}-{n}-a", f"bench-{pace}-{n}-b"]
    options = {"pace": pace, "turn_deadline_hours": 24}
    code = await service.create_room(players[0], "Anna", kind, options)
    await service.join(code, players[1], "Bram")
    times: list[float] = []

    async def act(player: str, message: dict) -> None:
        state = await service.current(code)
        message = {**page_basis(state), **message}
        started = time.perf_counter()
        await service.act(code, player, message)
        times.append((time.perf_counter() - started) * 1000)

    state = await service.current(code)
    await service.act(code, players[0], {"type": "start", "version": state.version})
    by_seat = {s.id: s.player_id for s in (await service.current(code)).seats}
    game_started = time.perf_counter()
    if kind == "kniffel":
        boxes = ["chance", "ones", "twos", "threes", "fours", "fives", "sixes",
                 "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
                 "large_straight", "yahtzee"]
        used: dict[str, int] = {p: 0 for p in players}
        while True:
            state = await service.current(code)
            seat = state.game_state.current
            if state.status != "playing" or seat is None:
                break
            player = by_seat[seat]
            await act(player, {"type": "roll"})
            await act(player, {"type": "score", "box": boxes[used[player]]})
            used[player] += 1
    else:
        cells = {p: [(r, c) for r in range(5) for c in range(5)] for p in players}
        for _ in range(200):
            state = await service.current(code)
            game = state.game_state
            if state.status != "playing":
                break
            if not game.roll_pending:
                if pace == "turns":  # the first roll comes by the room's timer
                    await asyncio.sleep(0.005)
                    continue
                await act(by_seat[game.roller], {"type": "roll"})
                continue
            for seat in [s for s in game.active if s not in game.placed]:
                r, c = cells[by_seat[seat]].pop(0)
                await act(by_seat[seat], {"type": "place", "cell": f"{r},{c}"})
    return times, (time.perf_counter() - game_started) * 1000


async def main(url: str, games: int) -> None:
    from app.rooms.dice import DiceSource
    from app.rooms.service import RoomService
    from app.store.db import Database

    db = Database(url)
    service = RoomService(db, _no_publish, DiceSource())
    results: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
    try:
        for kind in ("kniffel", "knister"):
            for n in range(games + 1):  # the first pair warms up
                for pace in ("live", "turns") if n % 2 else ("turns", "live"):
                    actions, total = await play_game(service, kind, pace, n)
                    if n:
                        per = results.setdefault((kind, pace), ([], []))
                        per[0].extend(actions)
                        per[1].append(total)
    finally:
        service.close()
        await db.dispose()
    print(f"load average {os.getloadavg()[0]:.2f}; speed reference {speed_reference()}")
    print(f"{'game':8} {'pace':6} {'actions':>8} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'mean ms':>8} {'game ms':>8}")
    for (kind, pace), (actions, totals) in results.items():
        q = statistics.quantiles(actions, n=100)
        print(f"{kind:8} {pace:6} {len(actions):8} {q[49]:8.2f} {q[98]:8.2f} "
              f"{statistics.fmean(actions):8.2f} {statistics.median(totals):8.0f}")
    for kind in ("kniffel", "knister"):
        live, turns = results[(kind, "live")], results[(kind, "turns")]
        print(f"{kind}: turns/live per action (mean) "
              f"{statistics.fmean(turns[0]) / statistics.fmean(live[0]):.2f}, "
              f"per game (median) {statistics.median(turns[1]) / statistics.median(live[1]):.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--games", type=int, default=10, help="games per game and pace")
    args = parser.parse_args()
    asyncio.run(main(ensure_database(args.database_url), args.games))
