"""``app.rooms.turns`` (pure): whom a turn-based room waits for, from when, until when;
missed turns; the stored JSON. Exact cases and properties (hypothesis)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import assume, given
from hypothesis import strategies as st

from app.rooms.turns import AWAY_AFTER, Turns, Wait, advance, back, reminder_at

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)


def test_a_wait_lasts_its_turn_and_a_new_turn_starts_every_wait_again() -> None:
    first = advance(Turns(), [1], turn=1, now=T0, hours=24)
    assert first == Turns({1: Wait(T0, T0 + 24 * H)}, {}, 1)
    # a roll within the turn: nothing changes (nothing is stored)
    assert advance(first, [1], turn=1, now=T0 + H, hours=24, acted=1) == first
    # the turn passes to seat 2
    second = advance(first, [2], turn=2, now=T0 + 2 * H, hours=24, acted=1)
    assert second.waits == {2: Wait(T0 + 2 * H, T0 + 26 * H)}
    # Knister: seat 1 placed, seat 2 still waits for the same roll
    roll = advance(Turns(), [1, 2], turn=5, now=T0, hours=12)
    placed = advance(roll, [2], turn=5, now=T0 + H, hours=12, acted=1)
    assert placed.waits == {2: Wait(T0, T0 + 12 * H)}


def test_missed_turns_count_up_to_away_and_the_players_own_move_or_return_clears_them() -> None:
    turns = advance(Turns(), [2], turn=1, now=T0, hours=1)
    for n in range(1, AWAY_AFTER + 1):  # the bot plays seat 2's turn after its deadline
        turns = advance(turns, [1], turn=2 * n, now=T0 + n * H, hours=1, missed=2)
        assert turns.missed == {2: n}
        turns = advance(turns, [2], turn=2 * n + 1, now=T0 + n * H, hours=1, acted=1)
    assert turns.away(2) and turns.waits[2].due == turns.waits[2].since  # played at once
    mid_turn = advance(turns, [2], turn=turns.turn, now=T0 + 9 * H, hours=1, missed=2)
    assert mid_turn.missed == {2: AWAY_AFTER}  # a roll of the bot's turn counts nothing
    again = back(turns, 2, T0 + 10 * H, hours=1)
    assert not again.away(2) and again.waits[2] == Wait(T0 + 10 * H, T0 + 11 * H)
    assert advance(turns, [1], turn=99, now=T0, hours=1, acted=2).missed == {}


def test_reminders_come_three_hours_before_or_a_quarter_of_a_short_deadline() -> None:
    assert reminder_at(Wait(T0, T0 + 24 * H), 24) == T0 + 21 * H
    assert reminder_at(Wait(T0, T0 + H), 1) == T0 + 45 * timedelta(minutes=1)
    turns = Turns({1: Wait(T0, T0 + 24 * H)}, {}, 3)
    assert turns.notice_at(24, T0) == T0  # its "your turn" push first
    assert turns.notice_at(24, T0 + H) == T0 + 21 * H


seats = st.sets(st.integers(1, 6), max_size=6)


@given(seats, seats, st.booleans(), st.integers(0, 3), st.sampled_from([1, 12, 24, 72]),
       st.one_of(st.none(), st.integers(1, 6)), st.one_of(st.none(), st.integers(1, 6)))
def test_waits_are_exactly_the_awaited_seats_and_survive_json(before_seats, after_seats,
                                                              same_turn, missed_before, hours,
                                                              acted, missed) -> None:
    assume(acted is None or acted != missed)  # a seat's own move is never the bot's
    before = advance(Turns(missed=dict.fromkeys(before_seats, missed_before)), before_seats,
                     turn=1, now=T0, hours=hours)
    now = T0 + timedelta(minutes=30)
    after = advance(before, after_seats, turn=1 if same_turn else 2, now=now, hours=hours,
                    acted=acted, missed=missed)
    assert set(after.waits) == after_seats
    for seat, wait in after.waits.items():
        kept = same_turn and seat in before.waits
        assert wait == (before.waits[seat] if kept else
                        Wait(now, now if after.away(seat) else now + timedelta(hours=hours)))
    if acted is not None:
        assert acted not in after.missed
    assert Turns.from_json(after.to_json()) == after
    assert after.due_at() == min((w.due for w in after.waits.values()), default=None)
