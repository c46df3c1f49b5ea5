"""Knikkers race in a room: everyone plays Knikkers on the same seed at once, each on their
own board; the best score wins.

Rules: docs/rules.md, "Knikkers race". Events stored per game:

- ``seed``    payload ``{"seed": n}`` (no seat): the server drew the race's seed from its dice
  right after the start (the first timer of the game); never shown to a browser
- ``move``    payload ``{"src": [r, c], "dst": [r, c]}`` (seat = mover)
- ``stop``    payload ``{"auto": bool}`` (seat): the player finished their board early, or
  the server did for a player away too long (auto)
- ``leave``   payload ``{}`` (seat taken out of the race by the host or by leaving)
- ``time_up`` payload ``{}`` (no seat): the time limit ended the race for everyone
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from app.engines import knikkers as engine
from app.errors import N_
from app.rooms.games.base import (
    ActionError,
    Dice,
    Event,
    GameBot,
    Presence,
    ViewsFromModule,
    parse_cell,
    parse_int_options,
)
from app.rooms.games.capabilities import DiceLog, GameGuide, GameRecords, GameReview
from app.rooms.games.knikkers_race import cells, labels, view
from app.rooms.games.knikkers_race.labels import cell_label, colour_name
from app.rooms.games.knikkers_race.state import RaceBoard, RaceState

VARIANTS = (5, 4)
TIME_LIMITS = (0, 5, 10)  # minutes; 0: no limit
AWAY_GRACE = timedelta(minutes=2)
SEED_DICE = 25  # 6**25 > 2**63: enough dice for every seed


def seed_from_dice(faces: Sequence[int]) -> int:
    """The race's seed from ``SEED_DICE`` faces 1..6 (the server's dice): the faces read as
    the digits (face − 1) of a base-6 number, least significant first, modulo 2**63.
    Raises ``ValueError`` for a face outside 1..6."""
    if any(not 1 <= f <= 6 for f in faces):
        raise ValueError("faces are 1..6")
    return sum((f - 1) * 6 ** i for i, f in enumerate(faces)) % (engine.MAX_SEED + 1)


def dice_for_seed(seed: int) -> list[int]:
    """The ``SEED_DICE`` faces that ``seed_from_dice`` turns into ``seed`` (0..2**63-1): for
    tests, which load them as the room's next dice."""
    faces = []
    for _ in range(SEED_DICE):
        seed, digit = divmod(seed, 6)
        faces.append(digit + 1)
    return faces


class KnikkersRaceGame(ViewsFromModule):
    """The Knikkers race plug-in (see ``app.rooms.games.base.GamePlugin``)."""

    view_module = view

    kind = "knikkers_race"
    label = N_("Knikkers race")  # translated where shown (app/web/labels.py: game_label)
    tagline = N_("Like Color Lines, as a race: everyone gets the same marbles.")
    picture = "marbles"
    actions = frozenset({"move", "stop"})
    folder = "knikkers_race"
    template = "rooms/knikkers_race/game.html"
    template_dir: Path | None = None  # its templates are in templates/rooms/<folder>/
    parts_template = "rooms/knikkers_race/_parts.html"
    styles: tuple[str, ...] = ("css/knikkers.css", "css/knikkers_race.css")
    scripts: tuple[str, ...] = ("js/games/knikkers_race.js",)
    review: GameReview | None = None  # no analysis: the replays on the result screen show it
    guide: GameGuide | None = None
    records: GameRecords | None = None  # points and places only
    dice_log: DiceLog | None = None  # its seed is hidden until the end in its own way
    solo_practice = False  # single-player Knikkers has its own pages
    pass_and_play = False  # every racer moves on their own board at once
    bot: GameBot | None = None  # bots do not race
    turn_based = False  # a race is played at once

    def awaiting(self, state: RaceState) -> list[int]:
        """Nobody in particular: every board moves at once."""
        return []

    def turn_key(self, state: RaceState) -> int:
        """Always 0: a race has no turns (and is never turn-based)."""
        return 0

    def default_options(self) -> dict[str, Any]:
        """Variant "5 op een rij", no time limit."""
        return {"variant": 5, "time_limit": 0}

    def parse_options(self, form: dict[str, Any]) -> dict[str, Any]:
        """Validate ``{"variant": 5|4, "time_limit": 0|5|10}`` (minutes; form strings too).
        Raises ``OptionError`` naming the bad field."""
        return parse_int_options(form, self.default_options(),
                                 (("variant", VARIANTS), ("time_limit", TIME_LIMITS)))

    def new_state(self, options: dict[str, Any], seat_ids: Sequence[int], start: int) -> Any:
        """A race for ``seat_ids`` (table order from the start player at index ``start``);
        the boards are set out by the ``seed`` event."""
        order = list(seat_ids[start:]) + list(seat_ids[:start])
        return RaceState(variant=int(options.get("variant", 5)),
                         time_limit=int(options.get("time_limit", 0)), order=order)

    def apply(self, state: RaceState, event: Event) -> None:
        """Fold one stored ``seed``, ``move``, ``stop``, ``leave`` or ``time_up`` event."""
        state.events += 1
        if event.type == "seed":
            state.seed = int(event.payload["seed"])
            state.seeded_at = event.at
            state.boards = {s: RaceBoard.new(state.seed, state.variant) for s in state.order}
            for seat in state.left:
                state.boards[seat].stopped = "left"
        elif event.type == "move":
            src, dst = event.payload["src"], event.payload["dst"]
            state.boards[event.seat].move((src[0], src[1]), (dst[0], dst[1]), event.at)
        elif event.type in ("stop", "leave"):
            if event.type == "leave":
                state.left.add(event.seat)
            board = state.boards.get(event.seat)
            if board is not None and board.stopped is None:
                board.stopped = ("left" if event.type == "leave"
                                 else "auto" if event.payload.get("auto") else "stop")
                if board.ended_at is None:
                    board.ended_at = event.at
        elif event.type == "time_up":
            state.time_up = True
        if state.over and state.ended_at is None:
            state.ended_at = event.at

    def decide(self, state: RaceState, seat_id: int, action: dict[str, Any],
               dice: Dice) -> list[Event]:
        """Events for a ``move`` (``src``, ``dst`` as ``"r,c"``, and ``moves``: the number of
        moves the player's page shows) or a ``stop``; raises ``ActionError``."""
        if seat_id not in state.order or seat_id in state.left:
            raise ActionError("not_playing", "You are not playing in this game.")
        if state.over:
            raise ActionError("game_over", "The game is over.")
        board = state.boards.get(seat_id)
        if board is None:
            raise ActionError("not_started", "The marbles are being set out. Try again in a "
                                             "moment.")
        if board.done:
            raise ActionError("board_done", "Your board is finished.")
        kind = action.get("type")
        if kind == "stop":
            return [Event("stop", {"auto": False}, seat_id)]
        if kind != "move":
            raise ActionError("unknown_action", "Unknown action.")
        if action.get("moves") != board.game.moves:
            raise ActionError("stale_board", "Your board changed before your move arrived. "
                                             "Have a look and try again.")
        src, dst = parse_cell(action.get("src"), 9), parse_cell(action.get("dst"), 9)
        if src is None:
            raise ActionError("no_marble", "First pick one of your marbles.")
        if dst is None:
            raise ActionError("bad_cell", "That is not a cell of your board.")
        try:
            reachable = board.game.reachable(src)
        except engine.IllegalMove:
            raise ActionError("no_marble", "First pick one of your marbles.") from None
        if dst not in reachable:
            raise ActionError("unreachable", "That marble cannot get there.")
        return [Event("move", {"src": list(src), "dst": list(dst)}, seat_id)]

    def basis(self, state: RaceState) -> dict[str, int]:
        """Nothing shared: every player moves on their own board at their own pace, so another
        player's move must not make a page stale. A move names instead the number of moves
        its player's board shows (``moves``), checked by ``decide``."""
        return {}

    def remove_seat(self, state: RaceState, seat_id: int) -> list[Event]:
        """A ``leave`` event when ``seat_id`` is still in the race, else nothing."""
        if seat_id in state.order and seat_id not in state.left and not state.over:
            return [Event("leave", {}, seat_id)]
        return []

    def deadline(self, state: RaceState, table: Presence, now: datetime) -> datetime | None:
        """Right away while the seed is not drawn; then the time limit's end and the away
        players' grace ends; None once the race is over."""
        if state.over:
            return None
        if state.seed is None:
            return table.started_at or now
        dues = list(self.away_deadlines(state, table, now).values())
        ends = state.ends_at
        if ends is not None:
            dues.append(ends)
        return min(dues) if dues else None

    def away_deadlines(self, state: RaceState, table: Presence,
                       now: datetime) -> dict[int, datetime]:
        """Without a time limit, per away seat whose board still runs: when the server
        finishes that board (``AWAY_GRACE`` after the latest of: it went away, the boards
        were set out, this process began watching the room). With a limit, nobody: the race
        ends at the limit anyway."""
        if state.over or state.time_limit or state.seed is None:
            return {}
        out = {}
        for seat in state.running:
            if seat in table.online:
                continue
            moments = [m for m in (table.away_since.get(seat), state.seeded_at,
                                   table.watching_since) if m]
            out[seat] = (max(moments) if moments else now) + AWAY_GRACE
        return out

    def on_timer(self, state: RaceState, table: Presence, now: datetime,
                 dice: Dice) -> list[Event]:
        """The seed (drawn from ``SEED_DICE`` dice) right after the start, ``time_up`` at the
        time limit, or ``stop`` (auto) for away players whose grace ran out."""
        if state.over:
            return []
        if state.seed is None:
            return [Event("seed", {"seed": seed_from_dice(dice(SEED_DICE))}, None)]
        ends = state.ends_at
        if ends is not None and ends <= now:
            return [Event("time_up", {}, None)]
        return [Event("stop", {"auto": True}, seat)
                for seat, due in self.away_deadlines(state, table, now).items() if due <= now]

    def is_over(self, state: RaceState) -> bool:
        """True when the time is up or every board is full or finished."""
        return state.over

    def left_game(self, state: RaceState) -> frozenset[int]:
        """Seats that left or were removed during the game (``leave`` events)."""
        return frozenset(state.left)

    def totals(self, state: RaceState) -> dict[int, int]:
        """Every seat's points (0 for a board never set out)."""
        return {s: state.boards[s].game.score if s in state.boards else 0 for s in state.order}

    def public(self, state: RaceState) -> dict[str, Any]:
        """What anybody may see (``state.json``): never the seed, nor any ball a player still
        in the race has not been shown (``view.public``)."""
        return view.public(state)

    def template_globals(self) -> dict[str, Any]:
        """Functions the race templates call (translated names)."""
        return {"race_variant_label": labels.variant_label,
                "race_end_reason": labels.end_reason,
                "race_colour_name": colour_name,
                "race_cell_label": cell_label, "race_marble": cells.marble,
                "race_small_cells": cells.small_cells, "race_own_cells": cells.own_cells}

