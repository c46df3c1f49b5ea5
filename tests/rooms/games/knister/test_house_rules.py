"""Knister room options: a straight without a 7 worth 12 (the NSV edition) instead of the
seed's 10, and a match of three games with the totals summed (docs/rules.md, Knister). On the
plug-in, and through the room service with loaded dice.

Two sheets built from the same 25 rolls, scored by hand (S = points of a straight without 7):

GRID_A: rows 2-6, 8-12, 6-2 and 12-8 are straights (4 S), the row of five 7s scores 10;
columns {2,8,6,12,7}, {3,9,5,11,7}, {5,11,3,9,7}, {6,12,2,8,7} score 0 and 4,10,4,10,7 is two
pairs (3); both diagonals (2,9,4,9,7 and 6,11,4,11,7) are a pair: 1 each, counted twice.
Total 4 S + 10 + 3 + 4 = 65 with S = 12, 57 with S = 10.

GRID_B: every row is two pairs (5 x 3); columns 2-6, 2-6, 8-12, 8-12 are straights (4 S) and
the column of 7s scores 10; the diagonals 2,3,10,11,7 and 7,9,10,5,6 score 0.
Total 15 + 4 S + 10 = 73 with S = 12, 65 with S = 10.
"""

from __future__ import annotations

import pytest

from app.rooms.games.base import Event
from app.rooms.games.knister import KnisterGame
from app.web.room_view import live_context
from tests.support.room_service import ServiceRoom, service_room

GRID_A = [
    [2, 3, 4, 5, 6],
    [8, 9, 10, 11, 12],
    [6, 5, 4, 3, 2],
    [12, 11, 10, 9, 8],
    [7, 7, 7, 7, 7],
]
GRID_B = [
    [2, 2, 8, 8, 7],
    [3, 3, 9, 9, 7],
    [4, 4, 10, 10, 7],
    [5, 5, 11, 11, 7],
    [6, 6, 12, 12, 7],
]
TOTALS = {12: (65, 73), 10: (57, 65)}  # straight without 7 -> (GRID_A, GRID_B), by hand


def _plan() -> list[tuple[int, tuple[int, int], tuple[int, int]]]:
    """(sum, cell on GRID_A, cell on GRID_B) per roll: GRID_A row by row, each sum written
    on GRID_B in its first free cell holding that number."""
    free_b = [(r, c) for r in range(5) for c in range(5)]
    plan = []
    for r in range(5):
        for c in range(5):
            value = GRID_A[r][c]
            cell_b = next(cell for cell in free_b if GRID_B[cell[0]][cell[1]] == value)
            free_b.remove(cell_b)
            plan.append((value, (r, c), cell_b))
    return plan


PLAN = _plan()


def dice_for(total: int) -> list[int]:
    """Two faces adding up to ``total`` (2..12)."""
    low = max(1, total - 6)
    return [low, total - low]


def test_the_plan_fills_both_grids_with_the_same_rolls() -> None:
    assert len(PLAN) == 25
    assert sorted(cell for _, cell, _ in PLAN) == sorted(cell for _, _, cell in PLAN)
    assert all(GRID_B[b[0]][b[1]] == value for value, _, b in PLAN)
    assert all(sum(dice_for(value)) == value and {*dice_for(value)} <= {1, 2, 3, 4, 5, 6}
               for value, _, _ in PLAN)


# ----- on the plug-in --------------------------------------------------------------------------

def _apply(game: KnisterGame, state, events) -> None:
    for e in events:
        game.apply(state, Event(e.type, e.payload, e.seat_id, None))


@pytest.mark.parametrize("straight", [12, 10])
def test_a_straight_without_seven_scores_the_rooms_option(straight) -> None:
    game = KnisterGame()
    a, b = 1, 2
    state = game.new_state(game.parse_options({"straight_without_seven": str(straight)}),
                           [a, b], 0)
    for value, cell_a, cell_b in PLAN:
        faces = dice_for(value)
        roll = {"type": "roll", "roll": len(state.rolls)}
        _apply(game, state, game.decide(state, state.roller, roll, lambda n, f=faces: f[:n]))
        for seat, (r, c) in ((a, cell_a), (b, cell_b)):
            place = {"type": "place", "cell": f"{r},{c}", "roll": len(state.rolls)}
            _apply(game, state, game.decide(state, seat, place, lambda n: []))
    assert game.is_over(state)
    assert state.sheets[a].grid == GRID_A and state.sheets[b].grid == GRID_B
    assert game.totals(state) == {a: TOTALS[straight][0], b: TOTALS[straight][1]}


# ----- a match of three through the room service -----------------------------------------------

async def play_game(room: ServiceRoom, seat_a: int, seat_b: int) -> None:
    """The 25 rolls of PLAN: the roller on turn rolls the loaded dice, both seats place."""
    for value, cell_a, cell_b in PLAN:
        game_state = (await room.state()).game_state
        room.load(dice_for(value))
        roller = await room.player_of(game_state.roller)
        await room.act(roller, {"type": "roll", "roll": len(game_state.rolls)})
        for seat, (r, c) in ((seat_a, cell_a), (seat_b, cell_b)):
            seen = len((await room.state()).game_state.rolls)
            await room.act(await room.player_of(seat),
                           {"type": "place", "cell": f"{r},{c}", "roll": seen})


async def test_a_match_of_three_sums_the_games_with_straights_worth_12(settings) -> None:
    options = {"match": "3", "straight_without_seven": "12"}
    async with service_room(settings.database_url, "knister", ["Anna", "Bram"],
                            options) as room:
        anna, bram = room.players
        state = await room.state()
        assert state.options == {"match": 3, "straight_without_seven": 12, "timer": 0,
                                 "dice": "screen", "bot_takeover": True, "pace": "live",
                                 "turn_deadline_hours": 24}
        seat_a, seat_b = (s.id for s in state.seats)
        await room.room_action(anna, "start")
        for number in (1, 2, 3):
            await play_game(room, seat_a, seat_b)
            state = await room.state(fresh=True)
            game = state.game
            assert (game.number, game.status, state.status) == (number, "finished", "finished")
            assert (game.options["match_no"], game.options["match_game"]) == (1, number)
            assert game.totals == {seat_a: 65, seat_b: 73}
            context = live_context(state, anna, frozenset())
            if number < 3:
                assert context["match_done"] is False
                await room.room_action(anna, "next_game")  # the host starts the next one
        assert context["match_done"] is True
        assert context["match_ranking"] == [(1, seat_b, 3 * 73), (2, seat_a, 3 * 65)]
        assert [g.totals for g in state.match_games()] == [{seat_a: 65, seat_b: 73}] * 3

        # after the match: the rematch goes back to the lobby, the host starts a new match
        await room.room_action(anna, "rematch")
        assert (await room.state()).status == "lobby"
        await room.room_action(anna, "start")
        game = (await room.state(fresh=True)).game
        assert (game.number, game.options["match_no"], game.options["match_game"]) == (4, 2, 1)
        assert game.options["straight_without_seven"] == 12
