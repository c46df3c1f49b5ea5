"""Kniffel-family bot (app/engines/kniffel_bot.py): legal steps, the strategy followed exactly,
the casual level's draws, whole turns. Rules: docs/rules.md, "Kniffel family" and "Bots".
Averages over many games are measured by bench/bots.py, not here."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engines import kniffel_optimal as ko
from app.engines.kniffel import RULESETS, Scorecard, Turn, auto_box
from app.engines.kniffel_bot import (
    CASUAL_CHOICES,
    Step,
    choose_box,
    choose_keep,
    decision_rng,
    held_for,
    next_step,
)


@pytest.fixture(scope="session")
def kniffel() -> ko.Strategy:
    return ko.solve("kniffel")


@st.composite
def positions(draw):
    """A Kniffel card with 0..12 boxes filled, and a turn: its rolls (0..3), dice and holds."""
    card = Scorecard("kniffel")
    boxes = list(RULESETS["kniffel"].boxes)
    filled = draw(st.integers(0, len(boxes) - 1))
    for box in draw(st.permutations(boxes))[:filled]:
        card.fill(box, draw(st.lists(st.integers(1, 6), min_size=5, max_size=5)))
    rolls = draw(st.integers(0, 3))
    dice = draw(st.lists(st.integers(1, 6), min_size=5, max_size=5)) if rolls else []
    held = draw(st.lists(st.booleans(), min_size=5, max_size=5)) if rolls else [False] * 5
    if rolls and all(held):
        held[draw(st.integers(0, 4))] = False
    return card, dice, held, rolls


@settings(max_examples=300, deadline=None)
@given(positions(), st.sampled_from(["strong", "casual"]), st.booleans(), st.integers(0, 99))
def test_every_step_is_legal(kniffel, position, level, with_strategy, seed):
    card, dice, held, rolls = position
    strategy = kniffel if with_strategy else None
    step = next_step(card, dice, held, rolls, strategy, level, random.Random(seed))
    if step.kind == "roll":
        assert rolls < 3 and not all(held)
    elif step.kind == "hold":
        assert 1 <= rolls < 3 and 0 <= step.die < 5 and held[step.die] != step.held
    else:
        assert step.kind == "score" and rolls >= 1 and card.boxes[step.box] is None


@settings(max_examples=100, deadline=None)
@given(positions(), st.sampled_from(["strong", "casual"]), st.integers(0, 99))
def test_a_turn_played_step_by_step_ends_in_a_box(kniffel, position, level, seed):
    """From any position the steps, applied to a real Turn, end the turn with a filled box
    after at most three rolls and at most ten hold changes per roll (no back and forth)."""
    card, _, _, _ = position
    dice = random.Random(seed)
    turn = Turn()
    for _ in range(3 + 3 * 10 + 1):
        rng = decision_rng("game", seed, turn.rolls)  # the same draw for every step of a roll
        step = next_step(card, turn.dice, turn.held, turn.rolls, kniffel, level, rng)
        if step.kind == "roll":
            turn.roll([dice.randint(1, 6) for _ in range(turn.free_count())])
        elif step.kind == "hold":
            (turn.hold if step.held else turn.release)(step.die)
        else:
            card.fill(step.box, turn.dice)
            return
    pytest.fail("the turn did not end")


def test_strong_follows_the_strategy_exactly(kniffel):
    rng = random.Random(5)
    for _ in range(200):
        card = Scorecard("kniffel")
        for box in rng.sample(list(card.boxes), rng.randrange(13)):
            card.fill(box, [rng.randint(1, 6) for _ in range(5)])
        dice = [rng.randint(1, 6) for _ in range(5)]
        for rolls_left in (1, 2):
            assert choose_keep(card, dice, rolls_left, kniffel) == \
                kniffel.best_keep(card, dice, rolls_left)[0]
        assert choose_box(card, dice, kniffel) == kniffel.best_box(card, dice)[0]


def test_casual_draws_among_the_best_choices_and_repeats_a_decision(kniffel):
    card, dice = Scorecard("kniffel"), [1, 1, 5, 6, 2]
    top = [keep for keep, _ in kniffel.rank_keeps(card, dice, 2)[:CASUAL_CHOICES]]
    seen = {choose_keep(card, dice, 2, kniffel, "casual", random.Random(i)) for i in range(300)}
    assert seen <= set(top) and len(seen) > 1
    assert len({choose_keep(card, dice, 2, kniffel, "casual", decision_rng(7, 3, 1))
                for _ in range(20)}) == 1


def test_exact_steps():
    card = Scorecard("kniffel")
    assert next_step(card, [], [False] * 5, 0, None) == Step("roll")
    # fallback (no strategy): keep the three sixes, holding the first one not yet held
    assert next_step(card, [6, 2, 6, 6, 1], [False] * 5, 1, None) == Step("hold", 0, True)
    assert next_step(card, [6, 2, 6, 6, 1], [True, True, True, True, False], 1, None) == \
        Step("hold", 1, False)
    assert next_step(card, [6, 2, 6, 6, 1], [True, False, True, True, False], 2, None) == \
        Step("roll")
    dice = [6, 2, 6, 6, 1]
    assert next_step(card, dice, [False] * 5, 3, None) == Step("score", box=auto_box(card, dice))
    assert held_for([3, 3, 4, 3, 5], [False, False, False, True, False], (3, 3)) == \
        [True, False, False, True, False]
    with pytest.raises(ValueError):
        held_for([1, 2, 3, 4, 5], [False] * 5, (6,))
    with pytest.raises(ValueError):
        next_step(card, dice, [False] * 5, 1, None, level="expert")
