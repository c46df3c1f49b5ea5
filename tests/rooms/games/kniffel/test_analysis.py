"""Post-game analysis and hints of Kniffel-family games (app/rooms/games/kniffel/analysis.py,
hints.py): exact expected losses on known games, and an optimally played game loses nothing."""

from __future__ import annotations

import random

import pytest

from app.engines.kniffel import KNIFFEL_BOXES, Scorecard
from app.rooms.games.base import Event
from app.rooms.games.kniffel import KniffelGame
from app.rooms.games.kniffel.analysis import accuracy, analyse, summarise
from app.rooms.games.kniffel.hints import dice_for, hint
from app.rooms.games.kniffel.state import KniffelState, fold, rolled

OPTIONS = KniffelGame("kniffel").default_options()
SEAT = 7
# Twelve quick turns leaving only chance open; the yahtzee box is scratched (0), so five
# alike later earns no extra bonus, and the upper total is 3 x each face (63: bonus 35).
FILLERS = [
    ("ones", [1, 1, 1, 2, 3]), ("twos", [2, 2, 2, 3, 4]), ("threes", [3, 3, 3, 1, 2]),
    ("fours", [4, 4, 4, 1, 2]), ("fives", [5, 5, 5, 1, 2]), ("sixes", [6, 6, 6, 1, 2]),
    ("three_of_a_kind", [2, 2, 2, 5, 6]), ("four_of_a_kind", [3, 3, 3, 3, 1]),
    ("full_house", [2, 2, 3, 3, 3]), ("small_straight", [1, 2, 3, 4, 6]),
    ("large_straight", [2, 3, 4, 5, 6]), ("yahtzee", [1, 2, 3, 4, 6]),
]


def roll(dice: list[int], held=(False,) * 5) -> Event:
    return Event("roll", {"dice": dice, "held": list(held), "auto": False}, SEAT)


def score(box: str, points: int, auto: bool = False) -> Event:
    return Event("score", {"box": box, "column": 0, "points": points, "auto": auto}, SEAT)


def filler_events() -> list[Event]:
    card, events = Scorecard("kniffel"), []
    for box, dice in FILLERS:
        events += [roll(dice), score(box, card.fill(box, dice))]
    return events


def test_keeping_five_ones_for_chance_loses_sixteen_and_a_quarter(kniffel_strategy) -> None:
    # Last turn, only chance open, five ones after roll 1: stopping writes 5; re-rolling all
    # five with two rolls left is worth 5 x 4.25 (keep a 4, 5 or 6 after the second roll).
    events = filler_events() + [roll([1, 1, 1, 1, 1]), score("chance", 5)]
    done = analyse(kniffel_strategy, "kniffel", OPTIONS, [SEAT], events)
    last = done.turns[SEAT][-1]
    keep, box = last.decisions
    assert (keep.kind, keep.roll, keep.chosen, keep.best) == ("keep", 1, (1, 1, 1, 1, 1), ())
    assert keep.loss == pytest.approx(16.25, abs=1e-9)
    assert (box.kind, box.chosen, box.best, box.loss) == ("box", "chance", "chance", 0.0)
    assert last.loss == pytest.approx(16.25, abs=1e-9)
    assert (last.number, last.box, last.points, last.rolls) == (13, "chance", 5, [(1,) * 5])


def test_a_reroll_keep_is_judged_on_the_dice_before_it(kniffel_strategy) -> None:
    # Keep two ones (re-roll three), then stop after roll 2. Kept dice may be re-rolled
    # later, so keeping the ones only costs their second chance: 2 x (4.25 - 3.5).
    events = filler_events() + [roll([1, 1, 1, 1, 1]),
                                roll([1, 1, 6, 6, 6], held=(True, True, False, False, False)),
                                score("chance", 20)]
    turn = analyse(kniffel_strategy, "kniffel", OPTIONS, [SEAT], events).turns[SEAT][-1]
    first, second, box = turn.decisions
    assert (first.roll, first.chosen) == (1, (1, 1))
    assert first.loss == pytest.approx(2 * (4.25 - 3.5), abs=1e-9)
    # after roll 2 the best is to keep the sixes and re-roll the ones: 2 x (3.5 - 1) more
    assert (second.roll, second.chosen, second.best) == (2, (1, 1, 6, 6, 6), (6, 6, 6))
    assert second.loss == pytest.approx(2 * (3.5 - 1), abs=1e-9)
    assert box.loss == 0.0
    assert turn.rolls == [(1, 1, 1, 1, 1), (1, 1, 6, 6, 6)]


def test_with_real_dice_only_the_box_is_judged(kniffel_strategy) -> None:
    # docs/rules.md, "Table mode": the throws are not known, only the dice entered at the end
    options = {**OPTIONS, "dice": "real"}
    entered = [Event(e.type, {**e.payload, "entered": True}, e.seat_id) if e.type == "roll"
               else e for e in filler_events()]
    events = entered + [Event("roll", {"dice": [2, 2, 2, 2, 2], "held": [False] * 5,
                                       "auto": False, "entered": True}, SEAT),
                        Event("roll", {"dice": [1, 1, 1, 1, 1], "held": [False] * 5,
                                       "auto": False, "entered": True}, SEAT),
                        score("chance", 5)]
    done = analyse(kniffel_strategy, "kniffel", options, [SEAT], events)
    last = done.turns[SEAT][-1]
    assert [d.kind for t in done.turns[SEAT] for d in t.decisions] == ["box"] * 13
    assert (last.number, last.box, last.rolls, last.loss) == (13, "chance", [(1,) * 5], 0.0)


def test_auto_decisions_do_not_count(kniffel_strategy) -> None:
    events = filler_events() + [roll([1, 1, 1, 1, 1]), score("chance", 5, auto=True)]
    done = analyse(kniffel_strategy, "kniffel", OPTIONS, [SEAT], events)
    assert all(d.auto for d in done.turns[SEAT][-1].decisions)
    summary = done.summary[SEAT]
    assert summary.turns == 12 and summary.decisions == sum(
        len(t.decisions) for t in done.turns[SEAT][:-1])


def play_optimally(strategy, rng: random.Random, seats=(1, 2)) -> list[Event]:
    """A whole game where every seat follows the strategy, dice from ``rng``."""
    state = KniffelState.new("kniffel", OPTIONS, list(seats))
    events: list[Event] = []

    def apply(event: Event) -> None:
        fold(state, event)
        events.append(event)

    while not state.over:
        seat = state.current
        card = state.card(seat)
        apply(Event("roll", {"dice": [rng.randint(1, 6) for _ in range(5)],
                             "held": [False] * 5, "auto": False}, seat))
        while state.turn.rolls < 3:
            keep, _ = strategy.best_keep(card, state.turn.dice, 3 - state.turn.rolls)
            if len(keep) == 5:
                break
            held = set(dice_for(keep, state.turn.dice, state.turn.held))
            for i in range(5):
                apply(Event("hold", {"die": i, "held": i in held}, seat))
            faces = rolled(state.turn, [rng.randint(1, 6) for _ in range(5 - len(held))])
            apply(Event("roll", {"dice": faces, "held": list(state.turn.held), "auto": False},
                        seat))
        box, _ = strategy.best_box(card, state.turn.dice)
        apply(Event("score", {"box": box, "column": 0,
                              "points": card.options(state.turn.dice)[box], "auto": False}, seat))
    return events


@pytest.mark.parametrize("seed", [1, 2])
def test_optimal_play_loses_nothing_and_scores_100(kniffel_strategy, seed: int) -> None:
    events = play_optimally(kniffel_strategy, random.Random(seed))
    done = analyse(kniffel_strategy, "kniffel", OPTIONS, [1, 2], events)
    for seat in (1, 2):
        summary = done.summary[seat]
        assert len(done.turns[seat]) == len(KNIFFEL_BOXES)
        assert summary.loss == 0.0 and summary.mean_loss == 0.0
        assert summary.accuracy == 100
        assert summary.decisions >= 2 * len(KNIFFEL_BOXES)


def test_accuracy_formula() -> None:
    # docs/rules.md, "Accuracy": floor(100 * exp(-loss / (8 * turns)))
    assert accuracy(0.0, 13) == 100
    assert accuracy(13.0, 13) == 88  # 1 point per turn: 100 / e^(1/8) = 88.25
    assert accuracy(26.0, 13) == 77  # 2 points per turn: 100 / e^(1/4) = 77.88
    assert accuracy(104.0, 13) == 36  # 8 points per turn: 100 / e = 36.79
    assert accuracy(208.0, 13) == 13  # 16 points per turn: 100 / e^2 = 13.53
    assert accuracy(27.3, 13) == 76  # 2.1 points per turn: 100 / e^0.2625 = 76.91
    assert accuracy(0.001, 13) == 99
    assert accuracy(5.0, 0) is None
    assert summarise([]).accuracy is None


def test_accuracy_falls_as_more_points_are_lost() -> None:
    for turns in (1, 5, 13, 26):
        scores = [accuracy(tenths / 10, turns) for tenths in range(0, 4000)]
        assert scores[0] == 100
        assert all(a is not None and b is not None and a >= b
                   for a, b in zip(scores, scores[1:], strict=False))
        assert all(s is not None and s < 100 for s in scores[1:])


def test_hint_for_five_ones_with_only_chance_open(kniffel_strategy) -> None:
    state = KniffelState.new("kniffel", OPTIONS, [SEAT])
    for event in filler_events() + [roll([1, 1, 1, 1, 1])]:
        fold(state, event)
    card = state.card(SEAT)
    total = card.total
    found = hint(kniffel_strategy, card, state.turn.dice, state.turn.held, state.turn.rolls)
    assert (found.keep, found.keep_dice) == ((), ())
    assert found.keep_value == pytest.approx(total + 21.25, abs=1e-9)
    assert [(b, p) for b, p, _, _ in found.boxes] == [("chance", 5)]
    assert found.box_value == pytest.approx(total + 5, abs=1e-9)
    # keeping one 1 (free to re-roll it after roll 2) costs 4.25 - 3.5; stopping costs 16.25
    faces, value, cost = found.keeps[0]
    assert faces == (1,) and cost == pytest.approx(0.75, abs=1e-9)
    assert found.keeps[-1][0] == (1,) * 5 and found.keeps[-1][2] == pytest.approx(16.25)


def test_hint_dice_prefer_held_dice() -> None:
    assert dice_for((5, 5), [5, 2, 5, 5, 1], [False, False, True, True, False]) == (2, 3)
    assert dice_for((1, 2), [5, 2, 5, 5, 1], [False] * 5) == (1, 4)
    assert dice_for((), [5, 2, 5, 5, 1], [False] * 5) == ()


def test_hint_part_is_the_player_on_turn_s_and_keyed_by_the_dice() -> None:
    from app.rooms.games.kniffel import view

    state = KniffelState.new("kniffel", {**OPTIONS, "hints": True}, [1, 2])

    def hint_of(viewer):
        context = {**view.view(state, viewer), "room_code": "ROOM"}
        return next(p for p in view.parts(context, viewer, {1: "A", 2: "B"})
                    if p.id == "kniffel-hint")

    assert hint_of(1).args[0] is False  # nothing rolled yet
    fold(state, Event("roll", {"dice": [5, 2, 5, 3, 1], "held": [False] * 5}, 1))
    mine, other, watcher = hint_of(1), hint_of(2), hint_of(None)
    assert mine.args == (True, "ROOM", 1, 1)
    assert other.key == watcher.key == ("kniffel-hint", False)
    fold(state, Event("hold", {"die": 0, "held": True}, 1))
    assert hint_of(1).key == mine.key  # holding keeps an opened hint
    fold(state, Event("roll", {"dice": [5, 6, 5, 3, 1], "held": [True] + [False] * 4}, 1))
    assert hint_of(1).key != mine.key  # a new roll closes it
    no_hints = KniffelState.new("kniffel", OPTIONS, [1, 2])
    context = {**view.view(no_hints, 1), "room_code": "ROOM"}
    assert [p.id for p in view.parts(context, 1, {})] == [
        "kniffel-turn", "kniffel-sheet", "kniffel-column-1", "kniffel-column-2", "kniffel-offers"]
