"""Golden values for Knikkers seeding (knikkers_seed, scheme "v1").

Stored games are replayed from their seed and actions (docs/rules.md, Knikkers: "The same seed and
the same moves give the same game on every machine and every Python version, forever"). These
literals were generated once from the implementation and pasted in; if one of these tests fails,
stored games would change: do not update the literals, restore the behaviour (or add a new version
tag).
"""

from __future__ import annotations

import pytest

from app.engines.knikkers import Game
from app.engines.knikkers_seed import draw, fallback_cell, intended_cell, spawn_colour

Cell = tuple[int, int]

# The first 20 balls of each seed: (intended cell, colour) for spawn index k = 0..19.
# k = 0..4 are the start balls, k = 5..7 the first upcoming ones.
PLAN: dict[int, list[tuple[Cell, int]]] = {
    1: [
        ((7, 5), 5), ((3, 8), 6), ((6, 4), 1), ((5, 2), 5), ((8, 7), 0),
        ((6, 5), 4), ((5, 1), 0), ((3, 8), 1), ((3, 4), 4), ((2, 1), 0),
        ((3, 8), 0), ((4, 1), 4), ((4, 1), 4), ((6, 7), 0), ((2, 5), 3),
        ((2, 1), 6), ((3, 2), 2), ((0, 5), 5), ((4, 0), 0), ((0, 0), 0),
    ],
    42: [
        ((4, 6), 3), ((3, 5), 6), ((4, 2), 5), ((7, 7), 0), ((6, 3), 1),
        ((4, 8), 6), ((6, 7), 5), ((1, 4), 6), ((0, 5), 5), ((6, 2), 4),
        ((0, 0), 2), ((7, 5), 0), ((8, 0), 0), ((7, 1), 2), ((2, 2), 6),
        ((0, 1), 6), ((7, 2), 0), ((4, 7), 1), ((2, 8), 5), ((3, 7), 5),
    ],
    2**40 + 7: [
        ((4, 4), 5), ((5, 8), 2), ((4, 3), 1), ((2, 7), 0), ((2, 4), 2),
        ((7, 8), 5), ((6, 0), 3), ((8, 0), 4), ((4, 3), 6), ((6, 2), 2),
        ((1, 7), 2), ((2, 4), 4), ((4, 7), 6), ((8, 1), 2), ((8, 8), 2),
        ((8, 1), 5), ((1, 4), 5), ((5, 8), 4), ((3, 2), 2), ((4, 4), 4),
    ],
}  # fmt: skip

# Game.new(seed): the 5 start balls as they landed, and the 3 upcoming colours.
START: dict[int, tuple[list[tuple[Cell, int]], tuple[int, int, int]]] = {
    1: ([((3, 8), 6), ((5, 2), 5), ((6, 4), 1), ((7, 5), 5), ((8, 7), 0)], (4, 0, 1)),
    42: ([((3, 5), 6), ((4, 2), 5), ((4, 6), 3), ((6, 3), 1), ((7, 7), 0)], (6, 5, 6)),
    2**40 + 7: ([((2, 4), 2), ((2, 7), 0), ((4, 3), 1), ((4, 4), 5), ((5, 8), 2)], (5, 3, 4)),
}

# Whole games: actions as "rc>rc" moves and "undo"; the state after replaying them. They cover
# fallbacks on a crowded board, lines cleared by moves and by spawned balls, undo, and game over.
GAMES = [
    (
        42,
        5,
        "35>00 00>03 48>13 undo 48>13 03>04 01>03 03>23 14>31 05>27 24>66 08>81 14>70 02>52 "
        "01>40 42>26 16>24 07>11 46>41 undo 46>41 02>53 05>46 01>26 22>01 43>35 01>12 00>01 "
        "11>21 01>11 11>01 47>57 46>47 36>46",
        {"score": 20, "moves": 30, "lines_cleared": 2, "spawn_index": 92, "over": True},
        (6, 2, 4),
        [
            "021004300",
            "252605310",
            "622624560",
            "361511454",
            "330661116",
            "434404613",
            "244166051",
            "020160501",
            "001254120",
        ],
    ),
    (
        2**40 + 7,
        4,
        "24>47 44>67 17>48 undo 17>48 62>57 14>77 28>66 24>45 44>25 43>13 20>23 47>33 48>35 "
        "00>21 38>32 04>53 27>43 17>15 undo 17>15 25>33 08>04 22>20 21>22 15>47 23>46 24>45 "
        "14>07 51>27 13>05 11>45 14>34 12>46 34>47 33>54 55>45 00>01 01>11 02>00 54>53 00>01 "
        "24>17 56>53",
        {"score": 88, "moves": 40, "lines_cleared": 11, "spawn_index": 104, "over": False},
        (5, 2, 5),
        [
            "04..34622",
            "44.10.524",
            "63615.650",
            "566.5.1..",
            "2633.63.2",
            "6.53...22",
            "32.30.551",
            "6..1.4655",
            "4213500.2",
        ],
    ),
]


def parse_actions(text: str) -> list[tuple[str, Cell, Cell] | tuple[str]]:
    """Turn "35>00 undo ..." into ("move", (3, 5), (0, 0)), ("undo",), ..."""
    actions: list[tuple[str, Cell, Cell] | tuple[str]] = []
    for word in text.split():
        if word == "undo":
            actions.append(("undo",))
        else:
            src, dst = word.split(">")
            actions.append(("move", (int(src[0]), int(src[1])), (int(dst[0]), int(dst[1]))))
    return actions


def board_rows(game: Game) -> list[str]:
    return ["".join("." if cell is None else str(cell) for cell in row) for row in game.board]


def test_draw_is_blake2b_of_the_versioned_text() -> None:
    assert draw(0, "colour", 0) == 16769526448986769306
    assert draw(42, "cell", 0) == 16091336832856906299
    assert draw(2**63 - 1, "fallback", 10**6) == 8194678416062953160


@pytest.mark.parametrize("seed", sorted(PLAN))
def test_first_twenty_balls_of_a_seed_are_pinned(seed: int) -> None:
    plan = [(divmod(intended_cell(seed, k), 9), spawn_colour(seed, k)) for k in range(20)]
    assert plan == PLAN[seed]


@pytest.mark.parametrize("seed", sorted(START))
def test_start_position_of_a_seed_is_pinned(seed: int) -> None:
    game = Game.new(seed)
    balls = [((r, c), v) for r, row in enumerate(game.board) for c, v in enumerate(row)]
    assert [ball for ball in balls if ball[1] is not None] == START[seed][0]
    assert game.upcoming == START[seed][1]


def test_fallback_cell_is_pinned() -> None:
    every_fourth_free = [None if i % 4 == 0 else 1 for i in range(81)]
    picks = [fallback_cell(s, k, every_fourth_free) for s, k in ((1, 0), (42, 7), (2**40 + 7, 19))]
    assert picks == [68, 28, 28]


@pytest.mark.parametrize(
    ("seed", "min_line", "actions", "totals", "upcoming", "board"),
    GAMES,
    ids=["seed42-five", "seed2**40+7-four"],
)
def test_replayed_game_is_pinned(
    seed: int,
    min_line: int,
    actions: str,
    totals: dict[str, object],
    upcoming: tuple[int, int, int],
    board: list[str],
) -> None:
    game = Game.replay(seed, min_line, parse_actions(actions))
    state = game.state_dict()
    assert {key: state[key] for key in totals} == totals
    assert game.upcoming == upcoming
    assert board_rows(game) == board
