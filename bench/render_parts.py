"""Render cost of one Knister (``--game kniffel``: Kniffel) action for 8 viewers, in-process.

Plays ``--warm`` untimed games (to fill the caches a running server has warm), then
``--games`` games of 8 seats through ``RoomService`` on a fresh SQLite database (Knister:
the first free cell for every placement; Kniffel: roll, hold, roll, the first open box) and,
after every action, times what the live hub does for each of the 8 pages and a spectator:
``RoomRenderer.update`` against what that page shows (app/web/room_frames.py: the room's
shared frame, rendered once per version, and each page's own frame; each part rendered once
per key and language in one ``PartCache``); ``--per-viewer`` times the path without shared
frames instead (``render_update`` per page: each gets only the parts whose key changed for
it, as before issue 28). Prints the mean time per action for all 9 viewers, the bytes a page
is sent per action, and how many distinct frames were built per action; ``--talk`` also
times what the hub does for the talk at the table after each of those updates
(``TalkRenderer.update`` with 50 chat lines shown: the parts' keys compared, nothing sent
when unchanged); times are CPU time (``time.process_time``: steady on a busy machine);
``--spectator-only`` times the spectator alone; ``--profile`` adds cProfile's top functions
(slower). See bench/README.md.

    .venv/bin/python bench/render_parts.py [--games 4] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.talk.lines import ChatLine  # noqa: E402
from app.web.part_cache import PartCache  # noqa: E402
from app.web.room_frames import RoomRenderer  # noqa: E402
from app.web.room_view import render_update  # noqa: E402
from app.web.talk_view import TalkRenderer  # noqa: E402
from tests.support import databases as dbs  # noqa: E402
from tests.support.room_service import service_room  # noqa: E402

SEATS = 8


async def _knister_actions(room):
    """Yield after every action of one 8-seat Knister game (first free cell each time)."""
    for _roll in range(25):
        st = await room.state()
        await room.act(await room.player_of(st.game_state.roller), {"type": "roll"})
        for seat in [None, *st.game_state.active]:
            if seat is not None:
                gs = (await room.state()).game_state
                r, c = next((r, c) for r in range(5) for c in range(5)
                            if gs.sheets[seat].grid[r][c] is None)
                await room.act(await room.player_of(seat),
                               {"type": "place", "cell": f"{r},{c}", "roll": len(gs.rolls)})
            yield "roll" if seat is None else "place"


async def _kniffel_actions(room):
    """Yield after every action of one 8-seat Kniffel game: each turn roll, hold die 0,
    roll, score the first open box (as ``bench/rooms_load.py --game kniffel`` plays)."""
    while True:
        gs = (await room.state()).game_state
        if gs.current is None or gs.over:
            return
        player = await room.player_of(gs.current)
        await room.act(player, {"type": "roll"})
        yield "roll"
        await room.act(player, {"type": "hold", "die": 0, "held": True})
        yield "hold"
        await room.act(player, {"type": "roll"})
        yield "roll"
        card = (await room.state()).game_state.card(gs.current)
        box = next(b for b, v in card.boxes.items() if v is None)
        await room.act(player, {"type": "score", "box": box})
        yield "score"


async def run(url: str, games: int, profile: cProfile.Profile | None, warm: int = 1,
              game: str = "knister", talk: bool = False, per_viewer: bool = False,
              spectator_only: bool = False) -> None:
    names = [f"P{i}" for i in range(SEATS)]
    cache = PartCache()
    renderer = RoomRenderer(cache)

    def update(st, p, have):
        if per_viewer:
            html, now = render_update(st, p, "nl", online, have, parts=cache)
            return ((html,) if html else ()), now
        return renderer.update(st, p, "nl", online, have)

    talker = TalkRenderer(cache) if talk else None
    lines = tuple(ChatLine(n, 1, "P0", f"line {n}") for n in range(50))
    spent, actions, size, pages, distinct = 0.0, 0, 0, 0, 0
    by_kind: dict[str, list[float]] = {}
    play = _knister_actions if game == "knister" else _kniffel_actions
    for game_no in range(games + warm):
        if game_no == warm:  # the warm-up games filled the caches a running server has warm
            spent, actions, size, pages, distinct = 0.0, 0, 0, 0, 0
            by_kind = {}
        async with service_room(url, game, names) as room:
            await room.room_action(room.players[0], "start")
            viewers = ["spectator"] if spectator_only else [*room.players, "spectator"]
            online = frozenset(room.players)
            st = await room.state()
            have = {p: update(st, p, None)[1] for p in viewers}
            talk_have = {p: talker.update(st, lines, p, "nl", None)[1] if talker else None
                         for p in viewers}
            async for kind in play(room):
                st = await room.state()
                st.away_due.clear()  # nobody is away: every page is open
                built: dict[int, str] = {}
                start = time.process_time()
                if profile and game_no >= warm:
                    profile.enable()
                for p in viewers:
                    frames, have[p] = update(st, p, have[p])
                    if talker:  # the hub's after-hook (app/live/talk.py: refresh)
                        said, talk_have[p] = talker.update(st, lines, p, "nl", talk_have[p])
                        frames += (said,) if said else ()
                    for frame in frames:
                        built[id(frame)] = frame
                        size += len(frame)
                    pages += 1
                if profile:
                    profile.disable()
                took = time.process_time() - start
                spent += took
                by_kind.setdefault(kind, []).append(took)
                distinct += len(built)
                actions += 1
    print(f"{game}{' + talk' if talk else ''}"
          f"{' (per viewer, no shared frames)' if per_viewer else ''}"
          f"{' (the spectator alone)' if spectator_only else ''}: {actions} actions: "
          f"{spent / actions * 1000:.3f} ms per action for {len(viewers)} viewers, "
          f"{size / pages / 1024:.2f} KB sent per page per action, "
          f"{distinct / actions:.2f} distinct frames built per action")
    print("  by action: " + ", ".join(f"{kind} {sum(t) / len(t) * 1000:.3f} ms (n={len(t)})"
                                       for kind, t in by_kind.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--game", choices=["knister", "kniffel"], default="knister")
    parser.add_argument("--warm", type=int, default=1, help="untimed games first")
    parser.add_argument("--talk", action="store_true", help="also the talk parts' check")
    parser.add_argument("--per-viewer", action="store_true",
                        help="without shared frames: every page its own update")
    parser.add_argument("--spectator-only", action="store_true",
                        help="time the spectator alone: the one render per version (the "
                             "room's shared frame) that every viewer's frames start from")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="cumtime", help="pstats order with --profile")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="knobel-render-"))
    url = dbs.create_sqlite_database(folder)
    dbs.migrate(url)
    profile = cProfile.Profile() if args.profile else None
    asyncio.run(run(url, args.games, profile, args.warm, args.game, args.talk,
                    args.per_viewer, args.spectator_only))
    if profile:
        pstats.Stats(profile).sort_stats(args.sort).print_stats(25)


if __name__ == "__main__":
    main()
