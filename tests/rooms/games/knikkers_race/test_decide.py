"""``KnikkersRaceGame.decide`` (docs/rules.md, "Knikkers race"): the exact event of a move and
a stop, and the exact refusal, with the reason the player is told, of each other action."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.rooms.games.base import ActionError, Event, Presence
from app.rooms.games.knikkers_race import KnikkersRaceGame, dice_for_seed
from tests.rooms.games.knikkers_race.helpers import SEED, cell, first_move

T0 = datetime(2026, 1, 1, tzinfo=UTC)
GAME = KnikkersRaceGame()
A, B = 11, 12
NO_MARBLE = ("no_marble", "First pick one of your marbles.", 409)
NOT_PLAYING = ("not_playing", "You are not playing in this game.", 409)


def race(seats=(A, B), seeded: bool = True):
    state = GAME.new_state({"variant": 5, "time_limit": 0}, list(seats), 0)
    if seeded:
        faces = dice_for_seed(SEED)
        table = Presence(list(seats), online=frozenset(seats), started_at=T0, watching_since=T0)
        for event in GAME.on_timer(state, table, T0, lambda n: [faces.pop(0) for _ in range(n)]):
            GAME.apply(state, Event(event.type, event.payload, event.seat_id, T0))
    return state


def move_of(state, seat: int) -> dict:
    board = state.boards[seat].game
    src, dst = first_move(board)
    return {"type": "move", "src": cell(src), "dst": cell(dst), "moves": board.moves}


def play(state, seat: int, action: dict) -> list[Event]:
    events = GAME.decide(state, seat, action, None)
    for event in events:
        GAME.apply(state, Event(event.type, event.payload, event.seat_id, T0))
    return events


def refusal(state, seat: int, action: dict) -> tuple[str, str, int]:
    with pytest.raises(ActionError) as err:
        GAME.decide(state, seat, action, None)
    return err.value.code, err.value.msgid, err.value.status


def test_a_move_names_the_marble_and_the_cell() -> None:
    state = race()
    action = move_of(state, A)
    src, dst = first_move(state.boards[A].game)
    assert play(state, A, action) == [Event("move", {"src": list(src), "dst": list(dst)}, A)]
    assert state.boards[A].game.moves == 1 and state.boards[B].game.moves == 0


def test_a_stop_finishes_the_players_board_only() -> None:
    state = race()
    assert play(state, A, {"type": "stop"}) == [Event("stop", {"auto": False}, A)]
    assert refusal(state, A, move_of(state, B)) == (
        "board_done", "Your board is finished.", 409)
    assert refusal(state, A, {"type": "stop"})[0] == "board_done"
    assert play(state, B, move_of(state, B))[0].type == "move"


def test_only_a_seat_still_in_the_race_plays() -> None:
    state = race()
    assert refusal(state, 99, move_of(state, A)) == NOT_PLAYING
    GAME.apply(state, Event("leave", {}, B, T0))
    assert refusal(state, B, {"type": "stop"}) == NOT_PLAYING
    assert play(state, A, {"type": "stop"})[0].type == "stop"


def test_nothing_is_decided_once_the_race_is_over() -> None:
    state = race()
    action = move_of(state, A)
    GAME.apply(state, Event("time_up", {}, None, T0))
    assert refusal(state, A, action) == ("game_over", "The game is over.", 409)
    assert refusal(state, 99, action)[0] == "not_playing"


def test_before_the_marbles_are_set_out_nobody_moves() -> None:
    state = race(seeded=False)
    assert refusal(state, A, {"type": "stop"}) == (
        "not_started", "The marbles are being set out. Try again in a moment.", 409)


@pytest.mark.parametrize("kind", [None, "roll", "place", "MOVE"])
def test_another_action_is_unknown(kind) -> None:
    assert refusal(race(), A, {"type": kind}) == ("unknown_action", "Unknown action.", 409)


@pytest.mark.parametrize("moves", [None, 1, -1, "0", 0.5])
def test_a_move_decided_on_another_board_than_the_players_is_refused(moves) -> None:
    state = race()
    action = {**move_of(state, A), "moves": moves}
    assert refusal(state, A, action) == (
        "stale_board", "Your board changed before your move arrived. Have a look and try again.",
        409)


def test_a_move_must_start_on_a_marble() -> None:
    state = race()
    board = state.boards[A].game
    empty = next((r, c) for r in range(9) for c in range(9) if board.board[r][c] is None)
    _, dst = first_move(board)
    for src in (None, "9,0", "x", cell(empty)):
        assert refusal(state, A, {**move_of(state, A), "src": src}) == NO_MARBLE
    assert refusal(state, A, {**move_of(state, A), "src": "9,0", "dst": "9,9"}) == NO_MARBLE


@pytest.mark.parametrize("dst", [None, "9,0", "0,9", "a,b"])
def test_a_move_must_end_on_a_cell_of_the_board(dst) -> None:
    state = race()
    assert refusal(state, A, {**move_of(state, A), "dst": dst}) == (
        "bad_cell", "That is not a cell of your board.", 409)


def test_a_marble_goes_only_where_a_free_path_leads() -> None:
    state = race()
    board = state.boards[A].game
    src, _ = first_move(board)
    blocked = next((r, c) for r in range(9) for c in range(9)
                   if (r, c) not in board.reachable(src))
    assert refusal(state, A, {**move_of(state, A), "dst": cell(blocked)}) == (
        "unreachable", "That marble cannot get there.", 409)
