"""The Knikkers race plug-in as pure rules: options, the seed from the dice, moves on one seed
for all, stopping, leaving, the time limit, away players, the ranking, and what the public
state and each viewer may see of a race still running (no I/O)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engines import knikkers as engine
from app.rooms.games.base import ActionError, Event, OptionError, Presence
from app.rooms.games.knikkers_race import (
    AWAY_GRACE,
    SEED_DICE,
    KnikkersRaceGame,
    dice_for_seed,
    seed_from_dice,
)
from app.rooms.games.knikkers_race.view import horizon
from app.web.room_view import ranking
from tests.rooms.games.knikkers_race.helpers import SEED, cell, first_move, moves_to_the_end

T0 = datetime(2026, 1, 1, tzinfo=UTC)
GAME = KnikkersRaceGame()
A, B, C = 11, 12, 13


def _apply(state, events, at=T0):
    for e in events:
        GAME.apply(state, Event(e.type, e.payload, e.seat_id, at))


def _dice(seed):
    faces = dice_for_seed(seed)
    return lambda n: [faces.pop(0) for _ in range(n)]


def _race(seats=(A, B), seed=SEED, variant=5, time_limit=0, online=None):
    """A race whose boards are out (the first timer drew ``seed`` from loaded dice)."""
    state = GAME.new_state({"variant": variant, "time_limit": time_limit}, list(seats), 0)
    table = Presence(list(seats), online=frozenset(seats if online is None else online),
                  started_at=T0, watching_since=T0)
    assert GAME.deadline(state, table, T0) == T0  # the seed is due at once
    _apply(state, GAME.on_timer(state, table, T0, _dice(seed)))
    return state, table


def _move(state, seat, at=T0):
    board = state.boards[seat].game
    src, dst = first_move(board)
    events = GAME.decide(state, seat, {"type": "move", "src": cell(src), "dst": cell(dst),
                                       "moves": board.moves}, None)
    _apply(state, events, at)
    return src, dst


def test_options_are_variant_and_time_limit():
    assert GAME.default_options() == {"variant": 5, "time_limit": 0}
    assert GAME.parse_options({"variant": "4", "time_limit": "10"}) == {"variant": 4,
                                                                        "time_limit": 10}
    assert GAME.parse_options({"time_limit": "5"}) == {"variant": 5, "time_limit": 5}
    for bad in ({"variant": "6"}, {"variant": "x"}, {"time_limit": "7"}, {"time_limit": None}):
        with pytest.raises(OptionError) as err:
            GAME.parse_options(bad)
        assert err.value.field == next(iter(bad))


@given(st.integers(min_value=0, max_value=engine.MAX_SEED))
@settings(max_examples=200, deadline=None)
def test_the_seed_comes_from_25_dice_and_back(seed):
    faces = dice_for_seed(seed)
    assert len(faces) == SEED_DICE and all(1 <= f <= 6 for f in faces)
    assert seed_from_dice(faces) == seed


def test_seed_from_dice_exact_values_and_range():
    assert seed_from_dice([1] * 25) == 0
    assert seed_from_dice([2] + [1] * 24) == 1
    assert seed_from_dice([1, 2] + [1] * 23) == 6
    assert seed_from_dice([6] * 25) == (6 ** 25 - 1) % 2 ** 63
    with pytest.raises(ValueError):
        seed_from_dice([0] * 25)


def test_everyone_starts_from_the_same_seed():
    state, _table = _race(seats=(A, B, C))
    expected = engine.Game.new(SEED, 5)
    assert state.seed == SEED
    for seat in (A, B, C):
        assert state.boards[seat].game == expected
    assert GAME.totals(state) == {A: 0, B: 0, C: 0}
    assert not GAME.is_over(state)


def test_no_move_before_the_boards_are_out():
    state = GAME.new_state({}, [A, B], 0)
    with pytest.raises(ActionError) as err:
        GAME.decide(state, A, {"type": "move", "src": "0,0", "dst": "0,1", "moves": 0}, None)
    assert err.value.code == "not_started"


def test_a_move_changes_only_its_players_board_and_follows_the_engine():
    state, _ = _race()
    src, dst = _move(state, A)
    expected = engine.Game.new(SEED, 5)
    expected.move(src, dst)
    assert state.boards[A].game == expected
    assert state.boards[B].game == engine.Game.new(SEED, 5)
    assert state.boards[A].log == [(src, dst)]
    # Draw numbers follow the balls: the moved ball keeps its number, new ones get 5, 6, 7.
    ids = state.boards[A].ids
    assert ids[src[0] * 9 + src[1]] is None and ids[dst[0] * 9 + dst[1]] is not None
    assert sorted(k for k in ids if k is not None) == [0, 1, 2, 3, 4, 5, 6, 7]


@pytest.mark.parametrize(("action", "code"), [
    ({"type": "move", "src": "0,0", "dst": "0,1", "moves": 1}, "stale_board"),
    ({"type": "move", "src": "0,0", "dst": "0,1"}, "stale_board"),
    ({"type": "move", "src": "9,0", "dst": "0,1", "moves": 0}, "no_marble"),
    ({"type": "move", "dst": "0,1", "moves": 0}, "no_marble"),
    ({"type": "move", "src": "0,0", "dst": "zz", "moves": 0}, "bad_cell"),
    ({"type": "roll"}, "unknown_action"),
])
def test_bad_moves_are_refused(action, code):
    state, _ = _race()
    with pytest.raises(ActionError) as err:
        GAME.decide(state, A, action, None)
    assert err.value.code == code


def test_an_empty_source_or_an_unreachable_target_is_refused():
    state, _ = _race()
    board = state.boards[A].game.board
    empty = next((r, c) for r in range(9) for c in range(9) if board[r][c] is None)
    ball = next((r, c) for r in range(9) for c in range(9) if board[r][c] is not None)
    with pytest.raises(ActionError) as err:
        GAME.decide(state, A, {"type": "move", "src": cell(empty), "dst": cell(empty),
                               "moves": 0}, None)
    assert err.value.code == "no_marble"
    with pytest.raises(ActionError) as err:
        GAME.decide(state, A, {"type": "move", "src": cell(ball), "dst": cell(ball),
                               "moves": 0}, None)
    assert err.value.code == "unreachable"


def test_outsiders_and_leavers_cannot_move():
    state, _ = _race()
    with pytest.raises(ActionError) as err:
        GAME.decide(state, 99, {"type": "stop"}, None)
    assert err.value.code == "not_playing"
    _apply(state, GAME.remove_seat(state, B))
    assert state.boards[B].stopped == "left"
    with pytest.raises(ActionError) as err:
        GAME.decide(state, B, {"type": "stop"}, None)
    assert err.value.code == "not_playing"
    assert GAME.remove_seat(state, B) == []


def test_a_full_board_is_done_and_the_race_ends_with_the_last_board():
    state, _ = _race()
    moves = moves_to_the_end(SEED)
    for n, (src, dst) in enumerate(moves):
        _apply(state, GAME.decide(state, A, {"type": "move", "src": list(src),
                                             "dst": list(dst), "moves": n}, None))
    assert state.boards[A].done and state.boards[A].game.over
    assert not GAME.is_over(state)
    with pytest.raises(ActionError) as err:
        GAME.decide(state, A, {"type": "stop"}, None)
    assert err.value.code == "board_done"
    _move(state, B)
    _apply(state, GAME.decide(state, B, {"type": "stop"}, None), T0 + timedelta(seconds=9))
    assert state.boards[B].stopped == "stop"
    assert GAME.is_over(state) and state.ended_at == T0 + timedelta(seconds=9)
    final = engine.Game.replay(SEED, 5, [("move", s, d) for s, d in moves])
    assert GAME.totals(state) == {A: final.score, B: state.boards[B].game.score}
    with pytest.raises(ActionError) as err:
        GAME.decide(state, B, {"type": "stop"}, None)
    assert err.value.code == "game_over"


# Seed 110 in "4 op een rij": after moving the ball on (8, 8) to (4, 2), the three new balls
# complete a line of four with it, which vanishes and scores.
LINE_SEED, LINE_MOVE = 110, ((8, 8), (4, 2))


def test_ranking_by_points_equal_points_share_a_rank():
    state, _ = _race(seats=(A, B, C), seed=LINE_SEED, variant=4)
    src, dst = LINE_MOVE
    for seat in (A, B):
        _apply(state, GAME.decide(state, seat, {"type": "move", "src": cell(src),
                                                "dst": cell(dst), "moves": 0}, None))
    _move(state, C)
    assert state.boards[A].game.lines_cleared == 1
    assert GAME.totals(state) == {A: 8, B: 8, C: 0}  # a line of 4 in "4 op een rij": 8
    assert ranking(GAME.totals(state)) == [(1, A, 8), (1, B, 8), (3, C, 0)]
    # The draw numbers follow the board: the cleared cells lost theirs, ball 7 (the third new
    # one) stayed on (6, 1).
    ids = state.boards[A].ids
    assert [(i // 9, i % 9, k) for i, k in enumerate(ids) if k is not None] == [
        (1, 3, 2), (6, 1, 7), (6, 8, 1), (7, 1, 3)]


def test_time_limit_ends_the_race_for_everyone():
    state, table = _race(time_limit=5)
    _move(state, A)
    ends = T0 + timedelta(minutes=5)
    assert state.ends_at == ends
    assert GAME.deadline(state, table, T0) == ends
    assert GAME.on_timer(state, table, ends - timedelta(seconds=1), None) == []
    events = GAME.on_timer(state, table, ends, None)
    assert [(e.type, e.seat_id) for e in events] == [("time_up", None)]
    _apply(state, events, ends)
    assert GAME.is_over(state) and state.time_up and state.running == []
    assert GAME.deadline(state, table, ends) is None
    with pytest.raises(ActionError) as err:
        GAME.decide(state, B, {"type": "stop"}, None)
    assert err.value.code == "game_over"


def test_without_a_limit_an_away_player_is_stopped_after_the_grace():
    state, table = _race(online=(A,))
    table.away_since = {B: T0 + timedelta(seconds=30)}
    due = T0 + timedelta(seconds=30) + AWAY_GRACE
    assert GAME.away_deadlines(state, table, T0) == {B: due}
    assert GAME.deadline(state, table, T0) == due
    assert GAME.on_timer(state, table, due - timedelta(seconds=1), None) == []
    events = GAME.on_timer(state, table, due, None)
    assert [(e.type, e.seat_id, e.payload) for e in events] == [("stop", B, {"auto": True})]
    _apply(state, events, due)
    assert state.boards[B].stopped == "auto" and not GAME.is_over(state)
    assert GAME.away_deadlines(state, table, due) == {}
    # With a time limit nobody is stopped for being away: the limit ends the race anyway.
    limited, table = _race(online=(A,), time_limit=10)
    assert GAME.away_deadlines(limited, table, T0) == {}


def test_everyone_leaving_ends_the_race_even_before_the_seed():
    state = GAME.new_state({}, [A, B], 0)
    _apply(state, GAME.remove_seat(state, A) + GAME.remove_seat(state, B))
    assert GAME.is_over(state) and GAME.totals(state) == {A: 0, B: 0}


def _play(state, seat, n):
    for _ in range(n):
        _move(state, seat)


def test_public_state_never_shows_the_seed_or_a_future_spawn():
    state, _ = _race(seats=(A, B))
    _play(state, A, 10)  # A is 10 spawns ahead of B: 30 balls B has not been shown
    public = GAME.public(state)
    text = json.dumps(public)
    assert str(SEED) not in text
    assert "seed" not in text and "upcoming" not in text and "spawn" not in text
    # Spectators see only what every racer has been shown: B's horizon (balls 0..7).
    assert horizon(state, None) == state.boards[B].horizon == 8
    a_public = public["boards"][str(A)]
    ids = state.boards[A].ids
    shown = {(i // 9, i % 9) for i, k in enumerate(ids) if k is not None and k < 8}
    for r in range(9):
        for c in range(9):
            colour = a_public["board"][r][c]
            if (r, c) in shown:
                assert colour == state.boards[A].game.board[r][c]
            else:
                assert colour is None
    assert a_public["hidden"] == sum(1 for k in ids if k is not None and k >= 8) > 0
    assert a_public["score"] == state.boards[A].game.score
    # Once the race is over everything is shown (still without the seed).
    _apply(state, [Event("time_up", {}, None)])
    over = GAME.public(state)
    assert over["boards"][str(A)]["board"] == state.boards[A].game.board
    assert over["boards"][str(A)]["hidden"] == 0 and str(SEED) not in json.dumps(over)


@given(st.integers(min_value=0, max_value=2**40), st.integers(0, 12), st.integers(0, 12))
@settings(max_examples=25, deadline=None)
def test_a_viewer_never_sees_a_ball_beyond_their_own_horizon(seed, ahead, behind):
    state, _ = _race(seats=(A, B, C), seed=seed)
    _play(state, A, ahead)
    _play(state, B, behind)
    for viewer in (A, B, C, None):
        context = GAME.view(state, viewer)
        limit = horizon(state, viewer)
        for seat, cells, hidden, _summary in context["others"]:
            board = state.boards[seat]
            for i, k in enumerate(board.ids):
                flat = board.game.board[i // 9][i % 9]
                assert cells[i] == (flat if k is not None and k < limit else None)
            assert hidden == sum(1 for k in board.ids if k is not None and k >= limit)
        if viewer is not None:
            mine = context["mine"]
            assert mine["upcoming"] == state.boards[viewer].game.upcoming
            assert {seat for seat, *_ in context["others"]} == {A, B, C} - {viewer}


def test_parts_send_another_board_again_only_when_what_the_viewer_sees_changed():
    state, _ = _race(seats=(A, B, C))
    labels = {A: "Anna", B: "Bram", C: "Carl"}
    _play(state, A, 3)
    before = {p.id: p.key for p in GAME.parts(GAME.view(state, B), B, labels)}
    assert set(before) == {"race-status", "race-mine", f"race-board-{A}", f"race-board-{C}"}
    _play(state, C, 1)
    after = {p.id: p.key for p in GAME.parts(GAME.view(state, B), B, labels)}
    changed = {k for k in after if after[k] != before[k]}
    assert changed == {f"race-board-{C}"}
    # Anna ahead moves again: Bram is shown nothing new of her future balls, only her move.
    assert before[f"race-board-{A}"] != () and "race-mine" not in changed


def test_replays_rebuild_every_board_from_the_seed_once_over():
    state, _ = _race()
    moves = [_move(state, A) for _ in range(4)]
    assert GAME.view(state, A)["replays"] == {}
    _apply(state, [Event("time_up", {}, None)])
    replays = GAME.view(state, None)["replays"]
    frames = replays[A]["frames"].split("|")
    assert replays[A]["steps"] == 4 and len(frames) == 5
    game = engine.Game.new(SEED, 5)
    for frame, move in zip(frames[1:], moves, strict=True):
        game.move(*move)
        assert frame == "".join("." if c is None else str(c) for row in game.board for c in row)
    assert replays[A]["scores"].split(",")[-1] == str(game.score)
    assert replays[B]["steps"] == 0


@given(st.integers(min_value=0, max_value=2**40), st.integers(1, 40), st.sampled_from((4, 5)))
@settings(max_examples=30, deadline=None)
def test_draw_numbers_always_match_the_balls_on_the_board(seed, moves, variant):
    state, _ = _race(seats=(A,), seed=seed, variant=variant)
    board = state.boards[A]
    for _ in range(moves):
        if board.done:
            break
        _move(state, A)
        flat = [c for row in board.game.board for c in row]
        assert [k is not None for k in board.ids] == [c is not None for c in flat]
        numbers = [k for k in board.ids if k is not None]
        assert len(set(numbers)) == len(numbers) and max(numbers) < board.horizon


def test_folding_the_stored_events_again_gives_the_same_race():
    """What a restarted server does (``load_room``): a fresh state with every stored event."""
    state, table = _race(seats=(A, B, C), time_limit=10)
    log = [Event("seed", {"seed": SEED}, None, T0)]
    for seat, n in ((A, 5), (B, 2), (A, 1)):
        for _ in range(n):
            board = state.boards[seat].game
            src, dst = first_move(board)
            event = GAME.decide(state, seat, {"type": "move", "src": cell(src), "dst": cell(dst),
                                              "moves": board.moves}, None)[0]
            log.append(Event(event.type, event.payload, event.seat_id, T0))
            GAME.apply(state, log[-1])
    for event in GAME.remove_seat(state, C):
        log.append(Event(event.type, event.payload, event.seat_id, T0))
        GAME.apply(state, log[-1])
    again = GAME.new_state({"variant": 5, "time_limit": 10}, [A, B, C], 0)
    for event in log:
        GAME.apply(again, event)
    assert GAME.public(again) == GAME.public(state)
    for seat in (A, B, C):
        assert again.boards[seat].game == state.boards[seat].game
        assert again.boards[seat].ids == state.boards[seat].ids
    assert again.ends_at == state.ends_at == T0 + timedelta(minutes=10)
    assert GAME.deadline(again, table, T0) == GAME.deadline(state, table, T0)
