"""High throw's own rules, on the plug-in alone (the room behaviour it shares with every game
is tests/rooms/test_every_game.py's): turns, one throw each, ties, leaving, the away timer,
its options and its registration by the ``EXTRA_GAMES`` setting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.rooms.games import BUILT_IN, GAMES
from app.rooms.games.base import ActionError, Event, OptionError, Presence
from app.rooms.rules import ranking
from tests.games.high_throw.plugin import AWAY_GRACE, HighThrowGame

GAME = HighThrowGame()
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def loaded(*faces: int):
    """Dice showing ``faces`` in order."""
    queue = list(faces)
    return lambda n: [queue.pop(0) for _ in range(n)]


def play(state, seat: int, *faces: int) -> None:
    for event in GAME.decide(state, seat, {"type": "roll"}, loaded(*faces)):
        GAME.apply(state, Event(event.type, event.payload, event.seat_id, T0))


def test_it_is_registered_by_the_setting_not_the_registry() -> None:
    assert "high_throw" not in BUILT_IN
    assert type(GAMES["high_throw"]) is HighThrowGame
    assert GAME.template_dir is not None and GAMES["high_throw"].template_dir == GAME.template_dir
    assert (GAME.template_dir / GAME.template).is_file()


def test_each_seat_throws_once_in_turn_and_the_highest_wins() -> None:
    state = GAME.new_state(GAME.default_options(), [1, 2, 3], 1)  # seat 2 starts
    assert GAME.awaiting(state) == [2] and GAME.basis(state) == {"throws": 0}
    with pytest.raises(ActionError) as refused:
        GAME.decide(state, 1, {"type": "roll"}, loaded(6, 6))
    assert refused.value.code == "not_your_turn"
    play(state, 2, 3, 4)
    assert GAME.awaiting(state) == [3] and GAME.basis(state) == {"throws": 1}
    with pytest.raises(ActionError) as refused:
        GAME.decide(state, 2, {"type": "roll"}, loaded(6, 6))
    assert refused.value.code == "not_your_turn"
    play(state, 3, 6, 5)
    play(state, 1, 1, 2)
    assert GAME.is_over(state) and GAME.awaiting(state) == []
    assert GAME.totals(state) == {2: 7, 3: 11, 1: 3}
    assert ranking(GAME.totals(state)) == [(1, 3, 11), (2, 2, 7), (3, 1, 3)]
    with pytest.raises(ActionError) as refused:
        GAME.decide(state, 1, {"type": "roll"}, loaded(6, 6))
    assert refused.value.code == "game_over"
    assert GAME.public(state)["throws"] == {"2": [3, 4], "3": [6, 5], "1": [1, 2]}


def test_equal_throws_share_the_win() -> None:
    state = GAME.new_state({"dice_count": 1}, [1, 2, 3], 0)
    play(state, 1, 5)
    play(state, 2, 5)
    play(state, 3, 2)
    assert ranking(GAME.totals(state)) == [(1, 1, 5), (1, 2, 5), (3, 3, 2)]


def test_a_seat_that_leaves_is_skipped_and_unranked() -> None:
    state = GAME.new_state(GAME.default_options(), [1, 2, 3], 0)
    play(state, 1, 2, 2)
    for event in GAME.remove_seat(state, 2):
        GAME.apply(state, event)
    assert GAME.left_game(state) == {2} and GAME.awaiting(state) == [3]
    with pytest.raises(ActionError) as refused:
        GAME.decide(state, 2, {"type": "roll"}, loaded(6, 6))
    assert refused.value.code == "not_playing"
    play(state, 3, 1, 1)
    assert GAME.is_over(state) and GAME.remove_seat(state, 3) == []
    assert ranking(GAME.totals(state), GAME.left_game(state)) == [
        (1, 1, 4), (2, 3, 2), (None, 2, 0)]


def test_an_away_thrower_is_thrown_for_after_the_grace() -> None:
    state = GAME.new_state(GAME.default_options(), [1, 2], 0)
    here = Presence([1, 2], online=frozenset({1, 2}), started_at=T0, watching_since=T0)
    assert GAME.deadline(state, here, T0) is None and GAME.on_timer(state, here, T0, loaded()) == []
    away = Presence([1, 2], online=frozenset({2}), started_at=T0, watching_since=T0)
    due = T0 + AWAY_GRACE
    assert GAME.away_deadlines(state, away, T0) == {1: due}
    assert GAME.on_timer(state, away, due - timedelta(seconds=1), loaded(6, 6)) == []
    [event] = GAME.on_timer(state, away, due, loaded(6, 5))
    assert (event.type, event.payload, event.seat_id) == ("roll", {"dice": [6, 5], "auto": True}, 1)


def test_the_bot_throws_on_its_turn_only() -> None:
    state = GAME.new_state(GAME.default_options(), [1, 2], 0)
    assert GAME.bot is not None
    args = ("strong", "1.1", 0, GAME.default_options(), lambda r, o: None)
    assert GAME.bot.move(state, 1, *args) == {"type": "roll"}
    assert GAME.bot.move(state, 2, *args) is None


def test_its_option_is_the_number_of_dice() -> None:
    assert GAME.parse_options({"dice_count": "1"}) == {"dice_count": 1}
    assert GAME.parse_options({}) == GAME.default_options() == {"dice_count": 2}
    with pytest.raises(OptionError):
        GAME.parse_options({"dice_count": "3"})
    with pytest.raises(ActionError) as refused:
        GAME.decide(GAME.new_state({}, [1], 0), 1, {"type": "hold"}, loaded())
    assert refused.value.code == "unknown_action"
