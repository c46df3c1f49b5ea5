"""Knikkers engine: the rules of docs/rules.md, "Knikkers (Color Lines)", one behaviour per test."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engines.knikkers import Game, IllegalMove, line_points
from app.engines.knikkers_seed import intended_cell, spawn_colour

Board = list[list[int | None]]


def empty_board(balls: dict[tuple[int, int], int] | None = None) -> Board:
    """A 9x9 board, empty except for ``balls`` ({(row, col): colour})."""
    board: Board = [[None] * 9 for _ in range(9)]
    for (r, c), colour in (balls or {}).items():
        board[r][c] = colour
    return board


def full_board() -> Board:
    """A full board of colours 1..6 where no two neighbours (any direction) share a colour."""
    return [[1 + (2 * r + c) % 6 for c in range(9)] for r in range(9)]


def ball_count(game: Game) -> int:
    return sum(cell is not None for row in game.board for cell in row)


def coord(i: int) -> tuple[int, int]:
    return divmod(i, 9)


# ---- points --------------------------------------------------------------------------------------


def test_line_points_five_variant_table() -> None:
    assert [line_points(n, 5) for n in range(10)] == [0, 0, 0, 0, 0, 10, 24, 42, 64, 90]


def test_line_points_four_variant_table() -> None:
    assert [line_points(n, 4) for n in range(10)] == [0, 0, 0, 0, 8, 20, 36, 56, 80, 108]


@pytest.mark.parametrize(("length", "min_line"), [(5, 3), (5, 6), (-1, 5), (5, True)])
def test_line_points_rejects_bad_arguments(length: int, min_line: int) -> None:
    with pytest.raises(ValueError):
        line_points(length, min_line)


# ---- lines through the moved ball ----------------------------------------------------------------


def test_l_shaped_double_line_counts_the_shared_ball_in_both() -> None:
    row = {(4, c): 2 for c in range(4)}
    column = {(r, 4): 2 for r in range(4)}
    game = Game.from_position(empty_board({**row, **column, (8, 8): 2}), (0, 1, 3))
    result = game.move((8, 8), (4, 4))
    assert result.points == 10 + 10
    assert result.lines == [[(4, c) for c in range(5)], [(r, 4) for r in range(5)]]
    assert result.cleared == set(row) | set(column) | {(4, 4)}
    assert result.spawned == []
    assert (game.score, game.lines_cleared, ball_count(game)) == (20, 2, 0)


def test_two_diagonals_crossing_at_the_moved_ball_both_score() -> None:
    down_right = {(2, 2): 5, (3, 3): 5, (5, 5): 5, (6, 6): 5}
    down_left = {(2, 6): 5, (3, 5): 5, (5, 3): 5, (6, 2): 5}
    game = Game.from_position(empty_board({**down_right, **down_left, (0, 4): 5}), (0, 1, 3))
    result = game.move((0, 4), (4, 4))
    assert result.points == 20
    assert result.lines == [
        [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6)],
        [(2, 6), (3, 5), (4, 4), (5, 3), (6, 2)],
    ]
    assert len(result.cleared) == 9


def test_t_shape_of_a_row_and_a_column_through_the_moved_ball_both_score() -> None:
    row = {(4, 2): 1, (4, 3): 1, (4, 5): 1, (4, 6): 1}
    column = {(5, 4): 1, (6, 4): 1, (7, 4): 1, (8, 4): 1}
    game = Game.from_position(empty_board({**row, **column, (0, 0): 1}), (0, 2, 3))
    result = game.move((0, 0), (4, 4))
    assert result.points == 20
    assert result.lines == [[(4, c) for c in range(2, 7)], [(r, 4) for r in range(4, 9)]]


def test_six_in_a_diagonal_scores_24() -> None:
    diagonal = {(i, i): 3 for i in range(5)}
    game = Game.from_position(empty_board({**diagonal, (8, 0): 3}), (0, 1, 2))
    result = game.move((8, 0), (5, 5))
    assert result.points == 24
    assert result.lines == [[(i, i) for i in range(6)]]
    assert game.score == 24


def test_four_variant_four_in_a_row_scores_8() -> None:
    game = Game.from_position(
        empty_board({(0, 0): 4, (0, 1): 4, (0, 2): 4, (8, 8): 4}), (0, 1, 2), min_line=4
    )
    assert game.move((8, 8), (0, 3)).points == 8


def test_four_variant_five_in_a_row_scores_20() -> None:
    balls = {(0, c): 4 for c in (0, 1, 2, 4)}
    game = Game.from_position(empty_board({**balls, (8, 8): 4}), (0, 1, 2), min_line=4)
    result = game.move((8, 8), (0, 3))
    assert result.points == 20
    assert result.lines == [[(0, c) for c in range(5)]]


def test_four_in_a_row_clears_nothing_in_the_five_variant_and_spawns() -> None:
    game = Game.from_position(empty_board({(0, 0): 4, (0, 1): 4, (0, 2): 4, (8, 8): 4}), (0, 1, 2))
    result = game.move((8, 8), (0, 3))
    assert (result.points, result.lines, len(result.spawned)) == (0, [], 3)


def test_a_move_that_clears_a_line_spawns_nothing_and_keeps_the_upcoming() -> None:
    balls = {(0, c): 6 for c in range(4)}
    game = Game.from_position(empty_board({**balls, (8, 8): 6}), (0, 1, 2), seed=5)
    result = game.move((8, 8), (0, 4))
    assert result.spawned == []
    assert (game.upcoming, game.spawn_index, ball_count(game)) == ((0, 1, 2), 0, 0)


# ---- paths and refused moves ---------------------------------------------------------------------


def test_move_path_is_the_shortest_orthogonal_path_in_fixed_order() -> None:
    game = Game.from_position(empty_board({(0, 0): 1, (1, 1): 2}), (0, 1, 2))
    assert game.move((0, 0), (2, 2)).path == [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]


def test_reachable_is_the_empty_region_around_the_ball() -> None:
    walls = {(0, 2): 1, (1, 2): 1, (2, 0): 1, (2, 1): 1}
    game = Game.from_position(empty_board({**walls, (0, 0): 3}), (0, 1, 2))
    assert game.reachable((0, 0)) == {(0, 1), (1, 0), (1, 1)}


def test_path_blocked_diagonally_is_refused_and_changes_nothing() -> None:
    game = Game.from_position(empty_board({(0, 0): 3, (0, 1): 1, (1, 0): 1}), (0, 1, 2))
    before = game.state_dict()
    with pytest.raises(IllegalMove):
        game.move((0, 0), (1, 1))
    assert game.state_dict() == before
    assert game.actions == []


def test_move_onto_a_ball_is_refused() -> None:
    game = Game.from_position(empty_board({(0, 0): 3, (0, 1): 1}), (0, 1, 2))
    before = game.state_dict()
    with pytest.raises(IllegalMove):
        game.move((0, 0), (0, 1))
    assert game.state_dict() == before


def test_move_from_an_empty_cell_is_refused() -> None:
    game = Game.from_position(empty_board({(0, 0): 3}), (0, 1, 2))
    before = game.state_dict()
    with pytest.raises(IllegalMove):
        game.move((5, 5), (5, 6))
    assert game.state_dict() == before


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ((0, 0), (9, 0)),
        ((0, 0), (0, -1)),
        ((-1, 0), (1, 1)),
        ((0, 9), (1, 1)),
        ((0, 0), (1,)),
        ((0, 0), (1.0, 1)),
        ((0, 0), "a1"),
    ],
)
def test_move_out_of_the_board_or_malformed_is_refused(src: object, dst: object) -> None:
    game = Game.from_position(empty_board({(0, 0): 3}), (0, 1, 2))
    before = game.state_dict()
    with pytest.raises(IllegalMove):
        game.move(src, dst)  # type: ignore[arg-type]
    assert game.state_dict() == before


# ---- spawning ------------------------------------------------------------------------------------


def test_new_game_has_five_balls_and_three_upcoming() -> None:
    game = Game.new(1)
    assert ball_count(game) == 5
    assert game.upcoming == tuple(spawn_colour(1, k) for k in (5, 6, 7))
    assert (game.spawn_index, game.score, game.moves, game.over) == (5, 0, 0, False)


def test_a_move_without_line_places_upcoming_on_their_intended_cells() -> None:
    seed = 2  # intended cells of balls 0, 1, 2: 33, 39, 38 (all free below)
    game = Game.from_position(empty_board({(8, 8): 0}), (4, 5, 6), seed=seed)
    result = game.move((8, 8), (8, 7))
    assert result.spawned == [(coord(intended_cell(seed, k)), c) for k, c in enumerate((4, 5, 6))]
    assert game.upcoming == tuple(spawn_colour(seed, k) for k in (3, 4, 5))
    assert game.spawn_index == 3


def test_spawned_balls_completing_a_line_clear_it_score_once_and_the_game_goes_on() -> None:
    board = full_board()
    board[4][0] = board[4][1] = 0
    board[4][3] = board[4][4] = board[3][3] = None
    game = Game.from_position(board, (0, 0, 0), seed=7)
    result = game.move((4, 2), (3, 3))
    assert sorted(cell for cell, _ in result.spawned) == [(4, 2), (4, 3), (4, 4)]
    assert result.lines == [[(4, c) for c in range(5)]]
    assert (result.points, game.score, game.lines_cleared) == (10, 10, 1)
    assert game.over is False
    assert sum(cell is None for row in game.board for cell in row) == 5


def test_fewer_free_cells_than_upcoming_places_fewer_balls() -> None:
    board = full_board()
    board[0][0] = board[8][8] = None
    game = Game.from_position(board, (0, 0, 0), seed=3)
    result = game.move((0, 1), (0, 0))
    assert sorted(cell for cell, _ in result.spawned) == [(0, 1), (8, 8)]
    assert game.spawn_index == 3
    assert game.over is True


def test_game_is_not_over_while_a_cell_is_free() -> None:
    board = full_board()
    board[8][8] = None
    assert Game.from_position(board, (0, 1, 2)).over is False


def test_game_is_over_when_the_board_fills_and_then_refuses_moves() -> None:
    board = full_board()
    board[0][0] = board[4][4] = board[8][8] = None
    game = Game.from_position(board, (0, 0, 0), seed=11)
    result = game.move((0, 1), (0, 0))
    assert (len(result.spawned), result.lines, game.over) == (3, [], True)
    with pytest.raises(IllegalMove):
        game.move((0, 0), (0, 1))


def test_blocking_an_intended_cell_does_not_shift_later_spawns() -> None:
    seed = 2  # balls 0..5 are meant for cells 33, 39, 38, 54, 36, 30
    blocked = coord(intended_cell(seed, 0))
    free = Game.from_position(empty_board({(8, 8): 0}), (4, 5, 6), seed=seed)
    taken = Game.from_position(empty_board({(8, 8): 0, blocked: 1}), (4, 5, 6), seed=seed)
    first_free, first_taken = free.move((8, 8), (8, 7)), taken.move((8, 8), (8, 7))
    assert first_free.spawned[0] == (blocked, 4)
    assert first_taken.spawned[0] == ((1, 1), 4)  # the fallback of ball 0 on this board
    assert first_taken.spawned[1:] == first_free.spawned[1:]
    assert taken.upcoming == free.upcoming
    assert taken.move((8, 7), (8, 6)).spawned == free.move((8, 7), (8, 6)).spawned


# ---- undo ----------------------------------------------------------------------------------------


def test_undo_after_a_clearing_move_brings_every_ball_and_the_score_back() -> None:
    balls = {(0, c): 6 for c in range(4)}
    game = Game.from_position(empty_board({**balls, (8, 8): 6}), (0, 1, 2))
    before = game.state_dict()
    game.move((8, 8), (0, 4))
    game.undo()
    assert game.state_dict() == before
    assert (game.score, game.moves, game.lines_cleared) == (0, 0, 0)


def test_second_undo_in_a_row_is_refused() -> None:
    game = Game.new(42)
    src = next((r, c) for r in range(9) for c in range(9) if game.board[r][c] is not None)
    game.move(src, min(game.reachable(src)))
    game.undo()
    after_undo = game.state_dict()
    with pytest.raises(IllegalMove):
        game.undo()
    assert game.state_dict() == after_undo


def test_undo_with_nothing_to_undo_is_refused() -> None:
    game = Game.new(42)
    assert game.can_undo is False
    with pytest.raises(IllegalMove):
        game.undo()
    assert game.actions == []


def test_same_move_after_undo_gives_the_same_spawns() -> None:
    game = Game.new(42)
    src = next((r, c) for r in range(9) for c in range(9) if game.board[r][c] is not None)
    dst = max(game.reachable(src))
    first = game.move(src, dst)
    after_first = game.state_dict()
    game.undo()
    again = game.move(src, dst)
    assert again == first
    assert game.state_dict() == after_first


def test_undo_after_the_last_move_reopens_the_game() -> None:
    board = full_board()
    board[0][0] = board[4][4] = board[8][8] = None
    game = Game.from_position(board, (0, 0, 0), seed=11)
    game.move((0, 1), (0, 0))
    game.undo()
    assert game.over is False
    assert game.board == board


# ---- construction and replay ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**63, 1.0, "1", True, None])
def test_new_rejects_a_bad_seed(seed: object) -> None:
    with pytest.raises(ValueError):
        Game.new(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("min_line", [3, 6, "5", True])
def test_new_rejects_a_bad_min_line(min_line: object) -> None:
    with pytest.raises(ValueError):
        Game.new(1, min_line)  # type: ignore[arg-type]


def test_new_accepts_the_largest_seed() -> None:
    assert Game.new(2**63 - 1).seed == 2**63 - 1


@pytest.mark.parametrize(
    ("board", "upcoming"),
    [
        ([[None] * 9] * 8, (0, 1, 2)),
        ([[None] * 8] * 9, (0, 1, 2)),
        ([[7] + [None] * 8] + [[None] * 9] * 8, (0, 1, 2)),
        ([[None] * 9] * 9, (0, 1)),
        ([[None] * 9] * 9, (0, 1, -1)),
    ],
)
def test_from_position_rejects_a_malformed_position(board: Board, upcoming: tuple[int]) -> None:
    with pytest.raises(ValueError):
        Game.from_position(board, upcoming)


def test_replay_accepts_tuples_lists_and_dicts() -> None:
    live = Game.new(9)
    src = next((r, c) for r in range(9) for c in range(9) if live.board[r][c] is not None)
    dst = min(live.reachable(src))
    live.move(src, dst)
    live.undo()
    live.move(src, dst)
    as_dicts = [
        {"type": "move", "src": list(src), "dst": list(dst)},
        {"type": "undo"},
        ["move", list(src), list(dst)],
    ]
    assert Game.replay(9, 5, as_dicts) == live
    assert Game.replay(9, 5, json.loads(json.dumps(live.actions))) == live
    assert Game.replay(9, 5, live.actions).actions == live.actions


def test_replay_from_a_position_start() -> None:
    board, upcoming = empty_board({(8, 8): 0, (0, 0): 3}), (1, 2, 3)
    live = Game.from_position(board, upcoming, 4, seed=12)
    live.move((8, 8), (4, 4))
    live.move((0, 0), (0, 8))
    assert Game.replay(12, 4, live.actions, start=(board, upcoming)) == live


@pytest.mark.parametrize(
    "actions",
    [[("undo",)], [("move", (0, 0), (0, 0))], [("jump",)], [{"type": "move", "src": [0, 0]}]],
)
def test_replay_raises_illegal_move_on_a_bad_action(actions: list[object]) -> None:
    with pytest.raises(IllegalMove):
        Game.replay(1, 5, actions)


# ---- properties ----------------------------------------------------------------------------------


def _play(game: Game, data: st.DataObject, steps: int) -> None:
    """Play ``steps`` legal actions chosen by hypothesis: moves to reachable cells, some undos."""
    for _ in range(steps):
        if game.over:
            break
        if game.can_undo and data.draw(st.integers(0, 9)) == 0:
            game.undo()
            continue
        board = game.board
        sources = [
            (r, c)
            for r in range(9)
            for c in range(9)
            if board[r][c] is not None and game.reachable((r, c))
        ]
        src = data.draw(st.sampled_from(sources))
        dst = data.draw(st.sampled_from(sorted(game.reachable(src))))
        before = ball_count(game)
        result = game.move(src, dst)
        assert ball_count(game) == before + len(result.spawned) - len(result.cleared)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), min_line=st.sampled_from([4, 5]), data=st.data())
def test_ball_count_after_a_move_is_before_plus_spawned_minus_cleared(
    seed: int, min_line: int, data: st.DataObject
) -> None:
    _play(Game.new(seed, min_line), data, 40)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), min_line=st.sampled_from([4, 5]), data=st.data())
def test_replay_equals_live_play(seed: int, min_line: int, data: st.DataObject) -> None:
    live = Game.new(seed, min_line)
    _play(live, data, 40)
    replayed = Game.replay(seed, min_line, json.loads(json.dumps(live.actions)))
    assert replayed == live
    assert replayed.state_dict() == live.state_dict()


def test_a_refused_move_changes_nothing() -> None:
    refused = []  # examples whose move was refused: the ones this property is about

    @settings(max_examples=60, deadline=None)
    @given(
        seed=st.integers(0, 2**63 - 1),
        data=st.data(),
        src=st.tuples(st.integers(-1, 9), st.integers(-1, 9)),
        dst=st.tuples(st.integers(-1, 9), st.integers(-1, 9)),
    )
    def check(seed: int, data: st.DataObject, src: tuple[int, int],
              dst: tuple[int, int]) -> None:
        game = Game.new(seed)
        _play(game, data, 15)
        before, actions = game.state_dict(), game.actions
        try:
            game.move(src, dst)
        except IllegalMove:
            assert game.state_dict() == before
            assert game.actions == actions
            refused.append((src, dst))

    check()
    assert len(refused) >= 30  # a random pair of cells is almost never a legal move
