"""The dice function (docs/dice.md, ``app.engines.fair_dice``) and where the games' dice sit
(``DiceLog`` of Knister and the Kniffel family): fixed values, fair faces, holds keep slots."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from app.engines.fair_dice import commitment, face, faces, seed_bytes
from app.rooms.games.base import Event
from app.rooms.games.kniffel import KniffelGame
from app.rooms.games.knister import KnisterGame

SEED = "00" * 31 + "2a"


def test_face_is_the_documented_hmac() -> None:
    digest = hmac.new(bytes.fromhex(SEED), b"ROOM-1:3:2:4", hashlib.sha256).digest()
    assert face(SEED, "ROOM-1", 3, 2, 4) == 1 + int.from_bytes(digest, "big") % 6
    assert faces(SEED, "ROOM-1", 3, 2, (4, 0)) == [face(SEED, "ROOM-1", 3, 2, 4),
                                                   face(SEED, "ROOM-1", 3, 2, 0)]
    assert commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


def test_faces_are_fair_and_every_place_differs() -> None:
    counts = Counter(face(SEED, "G-1", turn, 1, slot) for turn in range(1, 2001)
                     for slot in range(3))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(900 < n < 1100 for n in counts.values())  # 6000 draws, about 1000 each
    assert [face(SEED, "G-1", 1, 1, s) for s in range(5)] != \
        [face(SEED, "G-2", 1, 1, s) for s in range(5)]


@pytest.mark.parametrize("bad", ["", "00", "zz" * 32, "00" * 33])
def test_bad_seeds_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        seed_bytes(bad)


def test_knister_rolls_sit_by_their_number() -> None:
    game = KnisterGame()
    state = game.new_state(game.default_options(), [1, 2], 0)
    log = game.dice_log
    assert log is not None and log.seeded({"dice": "screen"}) and not log.seeded({"dice": "real"})
    assert log.next_throw(state, 2) == (1, 1, (0, 1))
    with pytest.raises(ValueError):
        log.next_throw(state, 5)
    event = Event("roll", {"dice": [3, 4], "auto": False}, 1)
    assert log.logged(state, event) == ((1, 1, (0, 1)), 1, (3, 4))
    game.apply(state, event)
    assert log.next_throw(state, 2).turn == 2
    assert log.logged(state, Event("place", {"cell": [0, 0], "value": 7}, 1)) is None


def test_kniffel_held_dice_keep_their_slots() -> None:
    game = KniffelGame("kniffel")
    state = game.new_state(game.default_options(), [1, 2], 0)
    log = game.dice_log
    assert log is not None
    assert log.next_throw(state, 5) == (1, 1, (0, 1, 2, 3, 4))
    game.apply(state, Event("roll", {"dice": [1, 2, 3, 4, 5], "held": [False] * 5}, 1))
    game.apply(state, Event("hold", {"die": 1, "held": True}, 1))
    game.apply(state, Event("hold", {"die": 3, "held": True}, 1))
    assert log.next_throw(state, 3) == (1, 2, (0, 2, 4))
    event = Event("roll", {"dice": [6, 2, 6, 4, 6], "held": [False, True, False, True, False]}, 1)
    assert log.logged(state, event) == ((1, 2, (0, 2, 4)), 1, (6, 6, 6))
    game.apply(state, event)
    game.apply(state, Event("score", {"box": "chance", "column": 0, "points": 24}, 1))
    assert log.next_throw(state, 5) == (2, 1, (0, 1, 2, 3, 4))  # the next turn, all five
    entered = Event("roll", {"dice": [1] * 5, "held": [False] * 5, "entered": True}, 2)
    assert log.logged(state, entered) is None
