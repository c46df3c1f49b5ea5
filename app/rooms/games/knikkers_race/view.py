"""What a Knikkers race shows: the template context, the live parts, the public state and the
boards' replays.

Secrecy (docs/rules.md, "Knikkers race", "Secrecy in a race"): everyone plays the same seed,
so a board further on shows balls that are still to come for a player behind. Each viewer is
shown of the other boards only the balls up to their own horizon (the last of their three
upcoming balls); a spectator, and the public state, only the balls every player still racing
has been shown. The seed itself never leaves the server; once the race is over, every board is
shown whole, with its replay.
"""

from __future__ import annotations

from typing import Any

from app.engines import knikkers as engine
from app.rooms.games.base import Part
from app.rooms.games.knikkers_race.state import RaceBoard, RaceState

Masked = tuple[tuple[int | None, ...], int]
MASK_CACHE = 1024  # masked boards kept per race (12 seats x 13 horizons fit many times)


def horizon(state: RaceState, viewer_seat_id: int | None) -> int | None:
    """How far into the seed ``viewer_seat_id`` may see (draw numbers below it), or None
    for everything (the race is over, or nobody is racing any more). A player in the race
    sees up to their own upcoming balls; a spectator (or a seat that left) only what every
    player still racing has been shown."""
    if state.over:
        return None
    board = state.boards.get(viewer_seat_id) if viewer_seat_id is not None else None
    if board is not None and viewer_seat_id not in state.left:
        return board.horizon
    cache = state.view_cache
    if cache.get("spectator") is None or cache["spectator"][0] != state.events:
        running = state.running
        cache["spectator"] = (state.events, min((state.boards[s].horizon for s in running),
                                                default=None))
    return cache["spectator"][1]


def _masked(state: RaceState, seat: int, limit: int | None) -> Masked:
    """``state.boards[seat].masked(limit)``, computed once per board position and horizon
    (a horizon past every ball on the board shows it whole, like None)."""
    board = state.boards[seat]
    if limit is not None and limit > board.last_drawn:
        limit = None
    cache: dict[tuple[int, int, int | None], Masked] = state.view_cache.setdefault("masked", {})
    key = (seat, board.game.moves, limit)
    if key not in cache:
        if len(cache) > MASK_CACHE:
            cache.clear()
        cache[key] = board.masked(limit)
    return cache[key]


def board_summary(board: RaceBoard) -> dict[str, Any]:
    """A board's numbers: ``score``, ``moves``, ``lines``, ``done``, ``full``, ``stopped``."""
    return {"score": board.game.score, "moves": board.game.moves,
            "lines": board.game.lines_cleared, "done": board.done, "full": board.game.over,
            "stopped": board.stopped}


def view(state: RaceState, viewer_seat_id: int | None) -> dict[str, Any]:
    """Template context as ``viewer_seat_id`` sees it (None: a spectator).

    ``mine``: the viewer's own board (``cells``: 81 colours or None, ``upcoming``: 3
    colours, ``can_move``, and ``board_summary``'s numbers) or None; ``others``: per other
    seat in table order ``(seat, cells, hidden balls, summary)``; ``ends_at``: when the time
    limit ends the race, or None; ``replays`` (once over): per seat its frames.
    """
    limit = horizon(state, viewer_seat_id)
    mine = None
    own = state.boards.get(viewer_seat_id) if viewer_seat_id is not None else None
    if own is not None and viewer_seat_id is not None and viewer_seat_id not in state.left:
        cells, _hidden = _masked(state, viewer_seat_id, None)
        mine = {"cells": cells, "upcoming": own.game.upcoming,
                "can_move": not own.done and not state.over, **board_summary(own)}
    # A spectator, or a seat that left the race, sees every board small (its own too).
    others = [(seat, *_masked(state, seat, limit), board_summary(state.boards[seat]))
              for seat in state.order
              if seat in state.boards and (mine is None or seat != viewer_seat_id)]
    return {
        "state": state,
        "over": state.over,
        "started": state.seed is not None,
        "variant": state.variant,
        "time_limit": state.time_limit,
        "ends_at": state.ends_at if not state.over else None,
        "time_up": state.time_up,
        "running": tuple(state.running),
        "viewer": viewer_seat_id,
        "mine": mine,
        "others": others,
        "left": frozenset(state.left),
        "replays": replays(state) if state.over else {},
    }


def parts(view: dict[str, Any], viewer_seat_id: int | None,
          labels: dict[int, str]) -> list[Part]:
    """The race's parts as ``viewer_seat_id`` sees it: the status line, the viewer's own
    board (a seated player), then every other board, small. Keys hold exactly what each
    macro shows, so a move re-sends its player's board and each other viewer's small copy
    of it only when what that viewer may see of it changed."""
    ends = view["ends_at"]
    status_key = ("status", view["started"], view["over"], view["variant"],
                  ends.isoformat() if ends else None, len(view["running"]),
                  view["mine"]["done"] if view["mine"] else None, view["time_up"])
    out = [Part("race-status", status_key, "race_status", (view,))]
    mine = view["mine"]
    if mine is not None and viewer_seat_id is not None:
        seat = viewer_seat_id
        mine_key = ("mine", seat, labels.get(seat), mine["cells"], mine["upcoming"],
                    mine["score"], mine["moves"], mine["lines"], mine["done"], mine["stopped"],
                    mine["can_move"])
        out.append(Part("race-mine", mine_key, "race_mine", (seat, mine, labels)))
    for other, cells, hidden, summary in view["others"]:
        key = ("board", other, labels.get(other), cells, hidden,
               tuple(sorted(summary.items())), other in view["left"])
        out.append(Part(f"race-board-{other}", key, "race_board",
                        (other, cells, hidden, summary, labels)))
    return out


def public(state: RaceState) -> dict[str, Any]:
    """The race as JSON anyone may see (``/r/<code>/state.json``): options, seats, and per
    board its numbers and its cells as a spectator sees them (``horizon(state, None)``);
    no seed, no upcoming balls, no draw numbers."""
    limit = horizon(state, None)
    boards = {}
    for seat, board in state.boards.items():
        cells, hidden = _masked(state, seat, limit)
        boards[str(seat)] = {"board": [list(cells[r * 9:(r + 1) * 9]) for r in range(9)],
                             "hidden": hidden, **board_summary(board)}
    return {
        "variant": state.variant,
        "time_limit": state.time_limit,
        "order": state.order,
        "left": sorted(state.left),
        "started": state.seed is not None,
        "running": state.running,
        "time_up": state.time_up,
        "boards": boards,
        "totals": {str(s): (state.boards[s].game.score if s in state.boards else 0)
                   for s in state.order},
        "over": state.over,
    }


def replays(state: RaceState) -> dict[int, dict[str, Any]]:
    """Per seat, its board move by move (only for a race that is over): ``frames``, one
    81-character string per position (a colour digit or ``.``; the start position first),
    joined by ``|``; ``scores``: the points after each, comma-separated; ``steps``: the
    number of moves. Built once per race by replaying each board's moves from the seed."""
    cached = state.view_cache.get("replays")
    if cached is not None:
        return cached
    out: dict[int, dict[str, Any]] = {}
    if state.seed is not None:
        for seat, board in state.boards.items():
            game = engine.Game.new(state.seed, state.variant)
            frames, scores = [_frame(game)], [0]
            for src, dst in board.log:
                game.move(src, dst)
                frames.append(_frame(game))
                scores.append(game.score)
            out[seat] = {"frames": "|".join(frames),
                         "scores": ",".join(map(str, scores)), "steps": len(board.log)}
    state.view_cache["replays"] = out  # a race that is over changes no more
    return out


def _frame(game: engine.Game) -> str:
    return "".join("." if c is None else str(c) for row in game.board for c in row)
