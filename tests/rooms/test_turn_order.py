"""Turn order after the table changes (issue 11, part 2; docs/rules.md "Turn order").

Whatever joined, left or was removed, and whoever was the start player, the next Knister
roller and the next Kniffel player is the next remaining seat after the last one who rolled or
played, in seat order; the same from the event log alone (after a restart); nobody acts twice
in a row unless alone; every game ends.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rooms.games.base import Event
from app.rooms.games.kniffel import KniffelGame
from app.rooms.games.knister import ROLLS_PER_GAME, KnisterGame

T0 = datetime(2026, 1, 1, tzinfo=UTC)
KNISTER = KnisterGame()
KNIFFEL = KniffelGame("kniffel")
MAX_STEPS = 2000  # far above any game: 25 rolls x 8 placements, or 13 x 8 turns x 4 actions


def expected_next(order: list[int], last: int | None, gone: set[int]) -> int | None:
    """Worked out from the rule as written: walk round the table from the seat after
    ``last`` (from the first seat when nobody has played yet) and take the first seat still
    there."""
    n = len(order)
    first = 0 if last is None else (order.index(last) + 1) % n
    for k in range(n):
        seat = order[(first + k) % n]
        if seat not in gone:
            return seat
    return None


def replay(game, options: dict, seats: list[int], start: int, log: list[Event]):
    """The state rebuilt from the stored events alone, as after a restart."""
    state = game.new_state(options, seats, start)
    for event in log:
        game.apply(state, event)
    return state


def knister_step(state, log, event) -> None:
    KNISTER.apply(state, event)
    log.append(event)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), n=st.integers(3, 8))
def test_knister_roll_passes_to_the_next_remaining_seat(data, n) -> None:
    seats = [100 + i * 7 for i in range(n)]  # ids not in table order by accident
    start = data.draw(st.integers(0, n - 1), label="start")
    state = KNISTER.new_state({}, seats, start)
    order = seats[start:] + seats[:start]
    log: list[Event] = []
    rollers: list[int] = []
    left: set[int] = set()
    just_left = False
    effective = 0
    for step in range(MAX_STEPS):
        if KNISTER.is_over(state):
            break
        expected = expected_next(order, rollers[-1] if rollers else None, left)
        assert state.roller == (expected if len(rollers) < ROLLS_PER_GAME else None)
        if step % 20 == 0 or just_left:  # the log alone gives the same roller (a restart)
            assert replay(KNISTER, {}, seats, start, log).roller == state.roller
        leave = just_left = data.draw(st.integers(0, 9), label="leave?") == 0
        if leave:
            seat = data.draw(st.sampled_from(state.active), label="leaver")
            for event in KNISTER.remove_seat(state, seat):
                knister_step(state, log, event)
            left.add(seat)
        elif not state.roll_pending:
            roller = state.roller
            assert not rollers or roller != rollers[-1] or len(state.active) == 1, \
                "the same seat rolls twice in a row"
            dice = data.draw(st.lists(st.integers(1, 6), min_size=2, max_size=2), label="dice")
            for event in KNISTER.decide(state, roller, {"type": "roll"}, lambda k, d=dice: d[:k]):
                knister_step(state, log, event)
            rollers.append(roller)
        else:
            seat = data.draw(st.sampled_from([s for s in state.active
                                              if s not in state.placed]), label="placer")
            empty = [(r, c) for r in range(5) for c in range(5)
                     if state.sheets[seat].grid[r][c] is None]
            r, c = data.draw(st.sampled_from(empty), label="cell")
            for event in KNISTER.decide(state, seat, {"type": "place", "cell": [r, c]},
                                        lambda k: []):
                knister_step(state, log, event)
        effective += 1
    assert KNISTER.is_over(state), "the game did not end"
    assert effective >= 1 + min(len(rollers), ROLLS_PER_GAME)
    assert len(rollers) == ROLLS_PER_GAME or not state.active


def test_the_bug_as_reported_ann_bob_cat_then_cat_leaves() -> None:
    # rolls by Ann, Bob, Cat, Ann, Bob; Cat leaves: Ann rolls next (Bob rolled last)
    ann, bob, cat = 1, 2, 3
    state = KNISTER.new_state({}, [ann, bob, cat], 0)
    for roller in (ann, bob, cat, ann, bob):
        assert state.roller == roller
        for event in KNISTER.decide(state, roller, {"type": "roll"}, lambda k: [1, 2]):
            KNISTER.apply(state, event)
        for seat in (ann, bob, cat):
            cell = divmod(len(state.rolls) - 1, 5)
            for event in KNISTER.decide(state, seat, {"type": "place", "cell": list(cell)},
                                        lambda k: []):
                KNISTER.apply(state, event)
    for event in KNISTER.remove_seat(state, cat):
        KNISTER.apply(state, event)
    assert state.roller == ann


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), n=st.integers(3, 8))
def test_kniffel_turn_passes_to_the_next_remaining_seat(data, n) -> None:
    seats = [200 + i * 3 for i in range(n)]
    start = data.draw(st.integers(0, n - 1), label="start")
    options = KNIFFEL.default_options()
    state = KNIFFEL.new_state(options, seats, start)
    order = seats[start:] + seats[:start]
    log: list[Event] = []
    players: list[int] = []
    left: set[int] = set()
    just_left = False
    turns = 0
    for step in range(MAX_STEPS):
        if KNIFFEL.is_over(state):
            break
        full = {s for s in order if state.column_of(s) is None}
        expected = expected_next(order, players[-1] if players else None, left | full)
        assert state.current == expected
        if step % 20 == 0 or just_left:
            assert replay(KNIFFEL, options, seats, start, log).current == state.current
        leave = just_left = data.draw(st.integers(0, 12), label="leave?") == 0
        if leave:
            seat = data.draw(st.sampled_from(state.active), label="leaver")
            if seat == state.current:
                players.append(seat)  # the turn passes on from the leaver
            events = KNIFFEL.remove_seat(state, seat)
            left.add(seat)
        else:
            seat = state.current
            assert not players or seat != players[-1] or len(state.active) == 1, \
                "the same seat plays twice in a row"
            dice = data.draw(st.lists(st.integers(1, 6), min_size=5, max_size=5), label="dice")
            events = KNIFFEL.decide(state, seat, {"type": "roll"}, lambda k, d=dice: d[:k])
            for event in events:
                KNIFFEL.apply(state, event)
                log.append(Event(event.type, event.payload, event.seat_id, T0))
            box = data.draw(st.sampled_from(
                [b for b, v in state.cards[seat][0].boxes.items() if v is None]), label="box")
            events = KNIFFEL.decide(state, seat, {"type": "score", "box": box}, lambda k: [])
            players.append(seat)
            turns += 1
        for event in events:
            KNIFFEL.apply(state, Event(event.type, event.payload, event.seat_id, T0))
            log.append(Event(event.type, event.payload, event.seat_id, T0))
    assert KNIFFEL.is_over(state), "the game did not end"
    assert turns + len(left) >= 1
    if not left:
        assert turns == 13 * n
