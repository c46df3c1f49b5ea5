"""The guided round's steps and feedback as pure functions (docs/rules.md, "Guided first
round"): where the player wrote a Knister sum against where the guide advised it, and the
end of the guided Knister round (the game then goes on unguided: no "step 6 of 5")."""

from __future__ import annotations

from app.review.guide import ShownAdvice
from app.rooms.games.base import Event
from app.rooms.games.capabilities import GuideInput
from app.rooms.games.knister import KnisterGame
from app.rooms.games.knister.guide import ROLLS as KNISTER_ROLLS
from app.rooms.games.knister.guide import CellAdvice, CellFeedback, cell_feedback

GAME = KnisterGame()
SEAT = 1


def _state(rolls: int, placed: int):
    """A solo Knister game after ``rolls`` rolls (3+4 each), the first ``placed`` of them
    written along the first row and on."""
    state = GAME.new_state({}, [SEAT], 0)
    for n in range(rolls):
        GAME.apply(state, Event("roll", {"dice": [3, 4], "auto": False}, SEAT))
        if n < placed:
            GAME.apply(state, Event("place", {"cell": [n // 5, n % 5], "value": 7,
                                              "auto": False}, SEAT))
    return state


def _empty(state) -> frozenset[tuple[int, int]]:
    grid = state.sheets[SEAT].grid
    return frozenset((r, c) for r in range(5) for c in range(5) if grid[r][c] is None)


def test_the_feedback_names_the_cell_written_and_the_one_advised() -> None:
    before = _state(3, 2)  # the third 7 is to be written; the guide advises row 4, column 2
    advice = CellAdvice(7, (3, 1), _empty(before))
    GAME.apply(before, Event("place", {"cell": [0, 2], "value": 7, "auto": False}, SEAT))
    feedback = cell_feedback(before, SEAT, advice)
    assert feedback == CellFeedback(7, (1, 3), (4, 2))
    assert not feedback.same
    followed = _state(3, 2)
    GAME.apply(followed, Event("place", {"cell": [3, 1], "value": 7, "auto": False}, SEAT))
    assert cell_feedback(followed, SEAT, advice) == CellFeedback(7, (4, 2), (4, 2))
    assert cell_feedback(followed, SEAT, advice).same


def test_no_feedback_without_advice_or_when_the_sheet_is_not_one_sum_on() -> None:
    state = _state(3, 2)
    advice = CellAdvice(7, (3, 1), _empty(state))
    assert cell_feedback(state, SEAT, advice) is None  # not written yet
    assert cell_feedback(state, SEAT, None) is None
    assert cell_feedback(state, 99, advice) is None  # not a seat of this game
    GAME.apply(state, Event("place", {"cell": [0, 2], "value": 7, "auto": False}, SEAT))
    assert cell_feedback(state, SEAT, CellAdvice(8, (3, 1), advice.empty)) is None  # other sum
    older = CellAdvice(7, (3, 1), advice.empty | {(0, 0)})  # advice from before another write
    assert cell_feedback(state, SEAT, older) is None


def test_the_guided_knister_round_ends_after_five_rolls_and_stays_ended() -> None:
    guide = GAME.guide
    assert guide is not None
    for rolls, placed, phase, number in ((0, 0, "roll", 1), (4, 4, "roll", 5),
                                         (5, 5, "done", 5), (6, 5, "done", 5),
                                         (6, 6, "done", 5)):
        given = GuideInput(_state(rolls, placed), SEAT, True, "1.1", rolls * 2, {},
                           lambda *_: None, None, lambda _step: None)
        step, _shown = guide.step(given)
        assert (step.phase, step.number, step.total) == (phase, number, KNISTER_ROLLS), rolls


def test_shown_advice_keeps_the_newest_per_room_seat_and_step() -> None:
    shown: ShownAdvice[int] = ShownAdvice(size=2)
    shown.remember("a", 1, 1, 10)
    shown.remember("a", 1, 2, 20)
    shown.remember("a", 1, 1, 11)  # shown again: newest
    shown.remember("b", 1, 1, 30)
    assert [shown.recall("a", 1, 1), shown.recall("a", 1, 2), shown.recall("b", 1, 1)] == [
        11, None, 30]
