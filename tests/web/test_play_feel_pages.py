"""Play feel as pages render it: the rules panel of every room game in three languages, the
option help, "Your rooms" on the home page, and names that are too long refused with the name
kept (never cut) on every form that takes one."""

from __future__ import annotations

import re

import pytest

from app.rooms.games import BUILT_IN, GAMES

RULES_TITLE = {"en": "Rules of", "nl": "Spelregels van", "de": "Spielregeln von"}
SCORING = {  # a sentence of each game's rules panel, per language
    "knister": {"en": "The two diagonals count double", "nl": "De twee diagonalen tellen dubbel",
                "de": "Die beiden Diagonalen zählen doppelt"},
    "kniffel": {"en": "Extra bonus: 50 points", "nl": "Extra bonus: 50 punten",
                "de": "Extrabonus: 50 Punkte"},
    "kitkniff": {"en": "Krempel is KitKniff’s chance", "nl": "Krempel is de kans van KitKniff",
                 "de": "Krempel ist die Chance von KitKniff"},
    "yatzy": {"en": "Yatzy has no joker", "nl": "Yatzy heeft geen joker",
              "de": "Yatzy hat keinen Joker"},
    "knikkers_race": {"en": "There is no undo in a race", "nl": "In een race kun je niets",
                      "de": "In einem Rennen gibt es kein Zurück"},
}
LONG = "Abcdefghijklmnopqrstuvwxy"  # 25 characters


def _room(client, game: str, lang: str = "en") -> str:
    response = client.post("/rooms", data={"game": game, "name": "Anna"},
                           headers={"accept-language": lang}, follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


def test_every_built_in_game_has_a_sentence_of_its_rules_per_language() -> None:
    assert set(SCORING) == set(BUILT_IN)


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_room_game_has_a_translated_rules_panel_and_option_help(client, game, lang) -> None:
    """Every registered game; the built-in ones in the page's language (a test-only game of
    ``EXTRA_GAMES`` is not in the catalogs: its own text stays English)."""
    code = _room(client, game, lang)
    page = client.get(f"/r/{code}", headers={"accept-language": lang}).text
    panel = re.search(r'<details class="rules panel" data-rules="(\w+)">(.*?)</details>', page,
                      re.S)
    assert panel and panel.group(1) == game
    assert RULES_TITLE[lang] in panel.group(2)
    if game in BUILT_IN:
        assert SCORING[game][lang] in panel.group(2)
    assert 'data-rules-table' in panel.group(2)
    # every option the host chooses has its help text beside it
    form = re.search(r'<form class="options".*?</form>', page, re.S)
    assert form
    options = re.findall(r'data-option-help="(\w+)"', form.group(0))
    fields = set(re.findall(r'<(?:select|input type="checkbox") name="(\w+)"', form.group(0)))
    assert fields and fields <= set(options)


def test_your_rooms_on_the_home_page_link_back_to_the_room(client) -> None:
    assert "data-my-rooms" not in client.get("/").text
    code = _room(client, "knister")
    home = client.get("/").text
    assert "data-my-rooms" in home
    assert f'href="/r/{code}" data-my-room="{code}"' in home


@pytest.mark.parametrize(("path", "form"), [
    ("/name", {"name": LONG, "next": "/"}),
    ("/rooms", {"game": "knister", "name": LONG}),
])
def test_a_name_of_25_characters_is_refused_and_kept_not_cut(client, path, form) -> None:
    response = client.post(path, data=form, follow_redirects=False)
    assert response.status_code == 422
    assert "A name can be at most 24 characters long." in response.text
    assert f'value="{LONG}"' in response.text
    assert 'maxlength="24"' in response.text  # the field takes no more (a longer value
    # sent back, as here, shows "25/24" and the message: tests/web/test_play_feel_browser.py)


def test_joining_with_a_name_of_25_characters_is_refused(client) -> None:
    code = _room(client, "kniffel")
    client.cookies.clear()  # another guest
    response = client.post(f"/r/{code}/join", data={"name": LONG}, follow_redirects=False)
    assert response.status_code == 422
    assert "A name can be at most 24 characters long." in response.text
    assert 'data-name-count="join-name"' in response.text
