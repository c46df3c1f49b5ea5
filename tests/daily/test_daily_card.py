"""The daily challenge's preview image (``app/daily/card.py``) and the score sheet it shows
of a Kniffel-family game once the day is over (``capabilities.GameSheet``, the Kniffel
plug-in's ``sheet``): each box's translated name and the points written, from the stored
events."""

from __future__ import annotations

import io

from PIL import Image

from app.daily.card import result_card
from app.i18n import use_language
from app.rooms.games import GAMES
from app.rooms.games.base import Event

SCORES = [("ones", 3), ("sixes", 24), ("yahtzee", 50), ("chance", 22), ("full_house", 0)]


def _events(seat: int, other: int) -> list[Event]:
    """A game's stored events: rolls, and boxes filled by ``seat`` and by ``other``."""
    events = [Event("roll", {"dice": [1, 2, 3, 4, 5], "held": [False] * 5}, None)]
    for box, points in SCORES:
        events.append(Event("score", {"box": box, "column": 0, "points": points}, seat))
        events.append(Event("score", {"box": box, "column": 0, "points": 99}, other))
    return events


def sheet_right(png: bytes) -> bool:
    """True when something is drawn where the sheet goes (the card's right part)."""
    image = Image.open(io.BytesIO(png)).convert("RGB").crop((570, 155, 1160, 605))
    return image.getcolors(1) is None  # None: more than one colour


def test_the_kniffel_sheet_is_the_seats_boxes_named_in_the_language() -> None:
    sheet = GAMES["kniffel"].sheet
    assert sheet is not None
    with use_language("en"):
        lines = sheet.lines(_events(7, 8), 7)
    assert lines == (
        (("Ones", 3), ("Twos", None), ("Threes", None), ("Fours", None), ("Fives", None),
         ("Sixes", 24)),
        (("Three of a kind", None), ("Four of a kind", None), ("Full house", 0),
         ("Small straight", None), ("Large straight", None), ("Kniffel", 50),
         ("Chance", 22)))
    with use_language("de"):
        upper, lower = sheet.lines(_events(7, 8), 7)
    assert upper[4] == ("Fünfer", None) and lower[4] == ("Große Straße", None)
    with use_language("nl"):
        upper, lower = sheet.lines(_events(7, 8), 7)
    assert upper[0] == ("Enen", 3) and lower[6] == ("Kans", 22)
    with use_language("en"):  # Yatzy: 6 upper and 9 lower boxes, its five alike "Yatzy"
        upper, lower = GAMES["yatzy"].sheet.lines(_events(7, 8), 7)
    assert len(upper) == 6 and len(lower) == 9 and lower[-1] == ("Yatzy", 50)
    assert GAMES["knister"].sheet is None and GAMES["knikkers_race"].sheet is None


def test_the_card_draws_the_sheet_only_when_given() -> None:
    with use_language("de"):
        sheet = GAMES["kniffel"].sheet.lines(_events(7, 8), 7)
    lines = ("99 Punkte", "Par 245", "Rang 1 von 1")
    plain = result_card("Kniffel des Tages · 6. März 2026", lines)
    drawn = result_card("Kniffel des Tages · 6. März 2026", lines, None, sheet)
    assert not sheet_right(plain) and sheet_right(drawn)
    assert Image.open(io.BytesIO(drawn)).size == (1200, 630)
