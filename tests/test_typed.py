"""Text people type that others see carries no runs of combining marks (docs/rules.md, "Text
others see"; a fresh-user trial: a chat line of "ok x" and 150 x U+0301 drew a tall smear over
the line above). The rule itself (``app.typed.shown_text``), then every kind of name through
its own form: the player's name, a seat's name (new room, joining), a group's name (new,
renamed) and a member's name (new group, invite). Chat lines: tests/rooms/test_talk.py; seats
without a phone: tests/rooms/test_pass_and_play.py."""

from __future__ import annotations

import re

import pytest

from app.players.names import clean_name
from app.talk.lines import clean_text
from app.typed import MAX_MARKS, shown_text
from tests.groups.test_pages import Visitor, _invite

ACUTE = "\u0301"
SMEAR = ACUTE * 150


@pytest.mark.parametrize(("raw", "shown"), [
    ("ok x" + SMEAR, "ok x" + ACUTE * 2),
    ("x" + ACUTE * 3 + "q" + ACUTE * 3, "x" + ACUTE * 2 + "q" + ACUTE * 2),
    ("Anna" + SMEAR, "Anná" + ACUTE),  # the precomposed á counts its own mark
    ("e\u0301", "é"),  # NFC: typed decomposed, shown as one character
    ("Việt Nam, Nguyễn", "Việt Nam, Nguyễn"),  # two marks on one vowel stay
    ("\u05e9\u05c1\u05b8", "\u05e9\u05b8\u05c1"),  # Hebrew shin, its dot, a vowel (NFC order)
    ("1\ufe0f\u20e3", "1\ufe0f\u20e3"),  # keycap: a variation selector is no mark
    (SMEAR, ACUTE * 2),  # marks with nothing before them are one run
    ("x" + (ACUTE + "\u200b") * 50, "x" + ACUTE + "\u200b" + ACUTE + "\u200b" * 49),
    ("x" + (ACUTE + "\ufe0f") * 50, "x" + ACUTE + "\ufe0f" + ACUTE + "\ufe0f" * 49),
    ("plain ascii", "plain ascii"),
])
def test_at_most_two_combining_marks_per_character(raw: str, shown: str) -> None:
    assert MAX_MARKS == 2
    assert shown_text(raw) == shown


def test_chat_lines_and_names_both_go_through_it() -> None:
    assert clean_text("ok x" + SMEAR) == "ok x" + ACUTE * 2
    assert clean_name("Anna" + SMEAR) == "Anná" + ACUTE


def _shown(page: str, base: str) -> list[str]:
    """Every run of ``base`` followed by combining acute accents in ``page`` (each name ends
    in a letter that has no precomposed form with an acute)."""
    return re.findall(re.escape(base) + ACUTE + "*", page)


def test_a_players_name_keeps_two_marks(client) -> None:
    r = client.post("/name", data={"name": "Mx" + SMEAR, "next": "/"}, follow_redirects=False)
    assert r.status_code == 303
    assert set(_shown(client.get("/").text, "Mx")) == {"Mx" + ACUTE * 2}


def test_seat_names_keep_two_marks(client) -> None:
    created = client.post("/rooms", data={"game": "knister", "name": "Host" + SMEAR},
                          follow_redirects=False)
    assert created.status_code == 303
    code = created.headers["location"].rsplit("/", 1)[1]
    guest = Visitor(client)
    joined = guest.post(f"/r/{code}/join", data={"name": "Gast" + SMEAR},
                        follow_redirects=False)
    assert joined.status_code == 303
    seats = client.get(f"/r/{code}/state.json").json()["seats"]
    assert [s["name"] for s in seats] == ["Host" + ACUTE * 2, "Gast" + ACUTE * 2]


def test_group_and_member_names_keep_two_marks(client) -> None:
    r = client.post("/groups", data={"name": "Club" + SMEAR, "you": "Adalbert" + SMEAR},
                    follow_redirects=False)
    assert r.status_code == 303
    code = r.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/groups/{code}").text
    assert set(_shown(page, "Club")) == {"Club" + ACUTE * 2}
    assert set(_shown(page, "Adalbert")) == {"Adalbert" + ACUTE * 2}
    guest = Visitor(client)
    joined = guest.post(_invite(client, code), data={"name": "Lid" + SMEAR},
                        follow_redirects=False)
    assert joined.status_code == 303
    renamed = client.post(f"/groups/{code}/rename", data={"name": "Krant" + SMEAR},
                          follow_redirects=False)
    assert renamed.status_code == 303
    page = client.get(f"/groups/{code}").text
    assert set(_shown(page, "Lid")) == {"Lid" + ACUTE * 2}
    assert set(_shown(page, "Krant")) == {"Krant" + ACUTE * 2}
    assert ACUTE * 3 not in page
