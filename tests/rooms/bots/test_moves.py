"""Property tests: a bot's next move in a room game is always one the game accepts (basis
and rules), over random game states of Knister and the Kniffel family (docs/rules.md, "Bots")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engines.kniffel_optimal import solve
from app.rooms.bots.moves import next_move
from app.rooms.games import get_game
from app.rooms.games.base import ActionError
from app.rooms.rules import check_basis, required_basis
from app.rooms.state import GameInfo, RoomState, SeatInfo

SEATS = [11, 12, 13]


def room(kind: str, game_state, last_seq: int) -> RoomState:
    seats = [SeatInfo(s, f"bot-s-{s:016x}", f"Bot {s}", i, "active")
             for i, s in enumerate(SEATS)]
    return RoomState(id=1, code="c", kind=kind, options={}, host_player_id=None,
                     status="playing", version=5, seats=seats,
                     games=[GameInfo(7, 1, kind, {}, SEATS, "playing", {})],
                     game_state=game_state, last_seq=last_seq)


def random_game(kind: str, rng: random.Random, steps: int):
    """A game of ``kind`` after ``steps`` random legal actions of random seats (and maybe a
    seat leaving); returns (plug-in, state, events applied)."""
    plugin = get_game(kind)
    state = plugin.new_state(plugin.default_options(), SEATS, 0)
    dice = lambda n: [rng.randint(1, 6) for _ in range(n)]  # noqa: E731
    applied = 0
    if rng.random() < 0.2:
        for event in plugin.remove_seat(state, rng.choice(SEATS)):
            plugin.apply(state, event)
            applied += 1
    for _ in range(steps):
        if plugin.is_over(state):
            break
        seat = rng.choice(SEATS)
        action = rng.choice([
            {"type": "roll"},
            {"type": "place", "cell": [rng.randrange(5), rng.randrange(5)]},
            {"type": "hold", "die": rng.randrange(5), "held": rng.random() < 0.5},
            {"type": "score", "box": rng.choice(["chance", "ones", "sixes", "yahtzee",
                                                 "full_house", "small_straight"])},
        ])
        if action["type"] not in plugin.actions:
            continue
        try:
            events = plugin.decide(state, seat, action, dice)
        except ActionError:
            continue
        for event in events:
            plugin.apply(state, event)
            applied += 1
    return plugin, state, applied


@pytest.fixture(scope="module")
def kniffel_strategy():
    return solve("kniffel")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["knister", "kniffel", "kitkniff", "yatzy"]), st.integers(0, 10**6),
       st.integers(0, 400), st.sampled_from(["strong", "casual"]), st.booleans())
def test_a_bots_move_is_always_accepted(kniffel_strategy, kind, seed, steps, level, optimal):
    rng = random.Random(seed)
    plugin, game_state, applied = random_game(kind, rng, steps)
    state = room(kind, game_state, applied)

    def strategies(ruleset, options):
        return kniffel_strategy if optimal and ruleset == "kniffel" else None

    moved = 0
    for seat in SEATS:
        move = next_move(state, seat, level, strategies)
        if move is None:
            continue
        moved += 1
        action_id, message = move
        assert action_id.startswith("bot.7.") and len(action_id) <= 64
        check_basis(required_basis(state, message["type"]), message)
        events = plugin.decide(game_state, seat, message, lambda n: [3] * n)  # never refused
        assert events
    if not plugin.is_over(game_state):
        assert moved >= 1  # a bot-only table never waits for nobody
