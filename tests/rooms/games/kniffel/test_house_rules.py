"""Kniffel-family rules a room can switch, on the plug-in and through the room service with
loaded dice: KitKniff's extra bonus stops at 900 (Kniffel's does not), and the house rule
"five alike counts as a full house" (docs/rules.md, Kniffel family; seed 002 "Weitere
KitKniff-Würfe", seed 004 "Häufige Hausregeln").

Every expected number is worked out by hand from the loaded dice and written as a literal.
"""

from __future__ import annotations

import pytest

from app.rooms.games.base import Event
from app.rooms.games.kniffel import KniffelGame
from tests.support.room_service import ServiceRoom, service_room

A = 11

# 13 turns of five alike: the yahtzee first (50), then every other box with the joker on
# (full house 25, small straight 30, large straight 40). Upper block 5+10+15+20+25+30 = 105
# (bonus 35); lower block 30+30+25+30+40+50+30 = 235; twelve five-alikes after the 50.
PLAN = [  # box, face of the five dice, points written
    ("yahtzee", 6, 50), ("ones", 1, 5), ("twos", 2, 10), ("threes", 3, 15), ("fours", 4, 20),
    ("fives", 5, 25), ("sixes", 6, 30), ("three_of_a_kind", 6, 30),
    ("four_of_a_kind", 6, 30), ("full_house", 6, 25), ("small_straight", 6, 30),
    ("large_straight", 6, 40), ("chance", 6, 30),
]
# the extra bonus on the sheet after each turn of PLAN, and the final total
KITKNIFF_EXTRA = [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 900, 900, 900]
KNIFFEL_EXTRA = [0, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600]
CASES = [  # kind, options, extra bonus after each turn, total (105 + 35 + 235 + extra)
    ("kitkniff", {}, KITKNIFF_EXTRA, 1275),
    ("kniffel", {}, KNIFFEL_EXTRA, 975),
    ("kitkniff", {"extra_bonus": "false"}, [0] * 13, 375),
]


def loaded(*faces: int):
    """A ``Dice`` handing out exactly ``faces``, in order."""
    queue = list(faces)

    def draw(n: int) -> list[int]:
        assert len(queue) >= n, "the test loaded too few faces"
        out, queue[:] = queue[:n], queue[n:]
        return out

    return draw


def roll_message(state) -> dict:
    """A roll as the page sends it: the turn and the roll count it saw."""
    return {"type": "roll", "turn": getattr(state, "turn_no", 0), "rolls": state.turn.rolls}


def score_message(state, box: str) -> dict:
    """Filling ``box``, with the turn and roll count the page saw."""
    return {"type": "score", "box": box, "turn": getattr(state, "turn_no", 0),
            "rolls": state.turn.rolls}


def act(game: KniffelGame, state, seat: int, message: dict, dice=None) -> list[Event]:
    """Decide and apply, as the room service does; returns the events."""
    events = game.decide(state, seat, message, dice or loaded())
    for e in events:
        game.apply(state, Event(e.type, e.payload, e.seat_id, None))
    return events


def sheet(game: KniffelGame, state, seat: int = A) -> dict:
    return game.public(state)["sheets"][str(seat)][0]


# ----- on the plug-in --------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "options", "extra", "total"), CASES)
def test_the_extra_bonus_for_every_further_five_alike(kind, options, extra, total) -> None:
    game = KniffelGame(kind)
    state = game.new_state(game.parse_options(options), [A], 0)
    for (box, face, points), bonus in zip(PLAN, extra, strict=True):
        act(game, state, A, roll_message(state), loaded(*[face] * 5))
        (event,) = act(game, state, A, score_message(state, box))
        assert (event.payload["box"], event.payload["points"]) == (box, points)
        assert sheet(game, state)["extra_bonus"] == bonus, box
    assert game.is_over(state)
    summary = sheet(game, state)
    assert (summary["upper_total"], summary["upper_bonus"], summary["lower_total"]) == (
        105, 35, 235)
    assert summary["extra_yahtzees"] == 12
    assert game.totals(state) == {A: total}


@pytest.mark.parametrize(("kind", "rule", "points"), [
    ("kniffel", "true", 25), ("kniffel", "false", 0), ("kitkniff", "true", 25),
    ("yatzy", "true", 15), ("yatzy", "false", 0),  # Yatzy's full house is the dice's sum
])
def test_five_alike_as_a_full_house_while_the_yahtzee_box_is_open(kind, rule, points) -> None:
    game = KniffelGame(kind)
    state = game.new_state(game.parse_options({"five_alike_full_house": rule}), [A], 0)
    act(game, state, A, roll_message(state), loaded(3, 3, 3, 3, 3))
    assert game.public(state)["options"]["full_house"] == points
    (event,) = act(game, state, A, score_message(state, "full_house"))
    assert event.payload["points"] == points
    # that was no extra five-alike (the yahtzee box was open): a later yahtzee earns no bonus
    act(game, state, A, roll_message(state), loaded(4, 4, 4, 4, 4))
    act(game, state, A, score_message(state, "yahtzee"))
    assert (sheet(game, state)["boxes"]["yahtzee"], sheet(game, state)["extra_bonus"]) == (50, 0)
    assert game.totals(state) == {A: points + 50}


# ----- through the room service ----------------------------------------------------------------

async def _turn(room: ServiceRoom, player: str, faces: list[int], box: str) -> None:
    """Roll ``faces`` (loaded) and fill ``box``, as the page of ``player`` sends them."""
    room.load(faces)
    await room.act(player, roll_message((await room.state()).game_state))
    game_state = (await room.state()).game_state
    assert list(game_state.turn.dice) == faces
    await room.act(player, score_message(game_state, box))


@pytest.mark.parametrize(("kind", "options", "extra", "total"), CASES[:2])
async def test_the_extra_bonus_cap_in_a_room(settings, kind, options, extra, total) -> None:
    async with service_room(settings.database_url, kind, ["Anna"], options) as room:
        (anna,) = room.players
        await room.room_action(anna, "start")
        seat = (await room.state()).game_state.order[0]
        for (box, face, points), bonus in zip(PLAN, extra, strict=True):
            await _turn(room, anna, [face] * 5, box)
            state = await room.state()
            column = state.plugin.public(state.game_state)["sheets"][str(seat)][0]
            assert (column["boxes"][box], column["extra_bonus"]) == (points, bonus), box
        state = await room.state(fresh=True)  # as stored
        assert (state.status, state.game.status) == ("finished", "finished")
        assert state.game.totals == {seat: total}


async def test_five_alike_as_a_full_house_in_a_room(settings) -> None:
    options = {"five_alike_full_house": ["false", "true"]}  # hidden "false" + checked box
    async with service_room(settings.database_url, "kniffel", ["Anna", "Bram"],
                            options) as room:
        anna, _bram = room.players
        state = await room.state()
        assert state.options["five_alike_full_house"] is True
        await room.room_action(anna, "start")
        first, second = (await room.state()).game_state.order
        await _turn(room, await room.player_of(first), [2, 2, 2, 2, 2], "full_house")
        await _turn(room, await room.player_of(second), [5, 5, 5, 5, 5], "chance")
        state = await room.state(fresh=True)
        public = state.plugin.public(state.game_state)
        assert public["sheets"][str(first)][0]["boxes"]["full_house"] == 25
        assert public["sheets"][str(second)][0]["boxes"]["chance"] == 25
        assert public["totals"] == {str(first): 25, str(second): 25}
        assert public["current"] == first and public["turns"] == 2
