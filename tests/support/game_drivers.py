"""Per-game drivers for live-room tests that run for every room game (restarts, faults, several
processes): how to make a valid move for a seat the game waits for, read from the room's
``state.json`` as a page would see it, and what a page must show for a given state.

A driver knows nothing of sockets or servers. ``DRIVERS`` maps a test's game id to its driver:
``knister`` (people only) and ``kniffel-bot`` (people and a strong bot: the driver moves only
the people's seats; the bot's turns are the server's). Rules:
docs/rules.md, "Knister" and "Kniffel family".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from app.rooms.games.kniffel import KniffelGame
from app.strategy.tables import room_house_rules
from tests.support.strategy import SharedTables


@dataclass(frozen=True)
class Move:
    """One action: ``seat`` (seat id) sends ``{"type": kind, **fields}``; ``last``: it ends the
    game; ``seat_last``: it is the seat's last move of the game; ``mid_turn``: a turn is under
    way when it is sent (dice on the table)."""

    seat: int
    kind: str
    fields: dict[str, Any] = field(default_factory=dict)
    last: bool = False
    seat_last: bool = False
    mid_turn: bool = False


VALUE = re.compile(r'data-value="(\d+)"')


class KnisterDriver:
    """Knister: the roller rolls, then every active seat places the sum (docs/rules.md,
    "Knister"). Cells are chosen deterministically but varied, from the seat's position and
    the roll number, so sheets differ between seats and runs agree."""

    kind = "knister"
    bots: tuple[str, ...] = ()

    def next_move(self, state: dict[str, Any], seats: Collection[int]) -> Move | None:
        """The next move of one of ``seats`` (seat ids) in the running game of ``state``
        (``state.json``): the roll when one of them rolls, else a placement of the first of
        them still to place; None when the game waits for nobody of ``seats``."""
        cur = state["current"]
        order = [s["id"] for s in state["seats"]]
        rolls = len(cur["rolls"])
        if not cur["roll_pending"]:
            if cur["roller"] in seats and rolls < 25:
                return Move(cur["roller"], "roll", {"roll": rolls}, mid_turn=rolls > 0)
            return None
        waiting = [s for s in cur["active"] if s not in cur["placed"]]
        mine = [s for s in waiting if s in seats]
        if not mine:
            return None
        seat = mine[0]
        grid = cur["sheets"][str(seat)]
        empty = [(r, c) for r in range(5) for c in range(5) if grid[r][c] is None]
        r, c = empty[(rolls * 7 + order.index(seat) * 3) % len(empty)]
        return Move(seat, "place", {"cell": f"{r},{c}", "roll": rolls},
                    last=rolls == 25 and len(waiting) == 1, seat_last=rolls == 25,
                    mid_turn=True)

    def assert_played_once(self, events: list[Any], seats: list[int]) -> None:
        """The stored events of a finished game (rows with ``type``, ``seat_id``, ``seq``, in
        order): 25 rolls, and per roll exactly one placement by each of ``seats``; sequence
        numbers unique."""
        rolls = [e for e in events if e.type == "roll"]
        assert len(rolls) == 25
        roll_no, placed = 0, Counter[tuple[int, int]]()
        for event in events:
            if event.type == "roll":
                roll_no += 1
            elif event.type == "place":
                placed[(roll_no, event.seat_id)] += 1
        assert placed == Counter({(r, s): 1 for r in range(1, 26) for s in seats})
        assert len({e.seq for e in events}) == len(events)

    def page_problems(self, elements: dict[str, str], state: dict[str, Any]) -> list[str]:
        """What a page whose elements (id -> latest HTML) are ``elements`` shows wrongly for
        ``state``: each sheet's placed values in reading order and its total."""
        cur = state["current"]
        problems = []
        for seat in cur["active"]:
            grid = cur["sheets"][str(seat)]
            placed = [str(v) for row in grid for v in row if v is not None]
            shown = VALUE.findall(elements.get(f"sheet-grid-{seat}", ""))
            if shown != placed:
                problems.append(f"sheet {seat} shows {shown}, not {placed}")
            total = f'data-total="{cur["totals"][str(seat)]}"'
            if total not in elements.get(f"sheet-head-{seat}", ""):
                problems.append(f"sheet head {seat} lacks {total}")
        return problems


class KniffelDriver:
    """Kniffel: the player on turn rolls, holds and fills a box (docs/rules.md, "Kniffel
    family"). On odd turns a person rolls, holds one die of the most frequent face, rolls
    again and scores; on even turns they score after the first roll; the box is the one with
    the most points on offer (the first of equals, in the sheet's order). ``bots``: the
    levels of the bots the room seats (their turns are the server's)."""

    kind = "kniffel"

    def __init__(self, bots: tuple[str, ...] = ()) -> None:
        self.bots = bots

    def next_move(self, state: dict[str, Any], seats: Collection[int]) -> Move | None:
        """The next move of the seat on turn when it is one of ``seats``, else None."""
        cur = state["current"]
        seat = cur["current"]
        if cur["over"] or seat not in seats:
            return None
        rolls, dice, held = cur["rolls"], cur["dice"], cur["held"]
        if rolls == 0:
            return Move(seat, "roll")
        if rolls == 1 and cur["turn_no"] % 2:
            face = Counter(dice).most_common(1)[0][0]
            free = [i for i, d in enumerate(dice) if d == face and not held[i]]
            if free and not any(held):
                return Move(seat, "hold", {"die": free[0], "held": True}, mid_turn=True)
            return Move(seat, "roll", mid_turn=True)
        options = list(cur["options"].items())
        box = max(options, key=lambda item: item[1])[0]  # the first of equals
        open_boxes = {s: sum(v is None for col in cur["sheets"][str(s)]
                             for v in col["boxes"].values()) for s in cur["active"]}
        return Move(seat, "score", {"box": box}, last=sum(open_boxes.values()) == 1,
                    seat_last=open_boxes[seat] == 1, mid_turn=True)

    def assert_played_once(self, events: list[Any], seats: list[int]) -> None:
        """The stored events of a finished game (rows with ``type``, ``seat_id``, ``payload``,
        ``seq``, in order): ``seats`` took their turns in order, each of at most three rolls
        ending with one box filled, and each filled each of its 13 boxes once; sequence
        numbers unique."""
        rolls, scored = 0, Counter[tuple[int, str]]()
        turns = []
        for event in events:
            if event.type == "roll":
                rolls += 1
                assert rolls <= 3, f"a fourth roll in turn {len(turns) + 1}"
            elif event.type == "score":
                assert rolls >= 1, f"a box filled before rolling in turn {len(turns) + 1}"
                scored[(event.seat_id, event.payload["box"])] += 1
                turns.append(event.seat_id)
                rolls = 0
        assert turns == [seats[i % len(seats)] for i in range(13 * len(seats))]
        assert set(scored.values()) == {1}
        assert len({e.seq for e in events}) == len(events)

    def page_problems(self, elements: dict[str, str], state: dict[str, Any]) -> list[str]:
        """What a page whose elements (id -> latest HTML) are ``elements`` shows wrongly for
        ``state``: every box of every seat (its points, or empty), each seat's total, and
        while the game runs who is on turn and the dice."""
        cur = state["current"]
        problems = []
        for seat in cur["order"]:
            for c, column in enumerate(cur["sheets"][str(seat)]):
                for box, value in column["boxes"].items():
                    html = elements.get(f"cell-{seat}-{c}-{box}")
                    if html is None:
                        problems.append(f"box {seat}/{c}/{box} missing")
                        continue
                    shown = VALUE.search(html.split(">", 1)[0])  # the cell's own attributes
                    if (int(shown.group(1)) if shown else None) != value:
                        problems.append(f"box {seat}/{c}/{box} does not show {value}")
            total = f'data-column-total="{cur["totals"][str(seat)]}"'
            if total not in elements.get(f"cell-{seat}-0-total", ""):
                problems.append(f"seat {seat} total lacks {total}")
        if not cur["over"]:
            turn = elements.get("kniffel-turn", "")
            wanted = [f'data-current-seat="{cur["current"]}"', f'data-roll-count="{cur["rolls"]}"']
            if cur["rolls"]:
                wanted.append(f'data-roll="{"".join(map(str, cur["dice"]))}"')
            problems += [f"turn panel lacks {w}" for w in wanted if w not in turn]
        return problems


Driver = KnisterDriver | KniffelDriver

DRIVERS: dict[str, Driver] = {
    "knister": KnisterDriver(),
    "kniffel-bot": KniffelDriver(bots=("strong",)),
}
"""The drivers by test id: Knister between people, Kniffel between people and a strong bot
(one room for both "a Kniffel room" and "a room with a bot")."""
GAMES = tuple(DRIVERS)

BOT_PACE = {"BOT_DELAY_MIN": "0", "BOT_DELAY_MAX": "0.01"}
"""Server settings for quick bots (at most 0.01 s before each move instead of 0.5-1.5 s)."""


def game_settings(driver: Driver, tables: SharedTables) -> dict[str, str]:
    """The server settings (environment) a room of ``driver`` needs: with bots their quick
    pace and a strategy folder holding the solved table of a Kniffel room with default
    options (built once per test run into ``tables``), so no server builds one."""
    if not driver.bots:
        return {}
    tables.ensure(driver.kind, **room_house_rules(driver.kind,
                                                  KniffelGame(driver.kind).default_options()))
    return {**BOT_PACE, "STRATEGY_DIR": str(tables.folder)}
