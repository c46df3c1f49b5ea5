"""One name, once: the home page asks for the player's name in one
field that every form on it uses, explains each game in one line with a picture, and a
Knikkers game asks a guest without a name for one before it reaches the leaderboards."""

from __future__ import annotations

import re

from app.rooms.games import BUILT_IN, GAMES

TAGLINES_EN = {
    "knister": "Like Yahtzee on a grid: two dice, every sum goes into your 5×5 grid, and its "
               "rows and columns score like poker hands.",
    "kniffel": "Like Yahtzee: five dice, three throws a turn, 13 boxes to fill.",
    "kitkniff": ("Like Yahtzee, with the house rules of the KitKniff sheet: 100 points for "
                 "each further five alike."),
    "yatzy": "Like Yahtzee, the Scandinavian way: 15 boxes, pairs included.",
    "knikkers_race": "Like Color Lines, as a race: everyone gets the same marbles.",
    "knikkers": "Like Color Lines: line up five marbles of one colour, alone, against the "
                "leaderboard.",
}


def test_the_home_page_asks_for_the_name_once(client) -> None:
    page = client.get("/", headers={"accept-language": "en"}).text
    visible = re.findall(r'<input(?![^>]*type="hidden")[^>]*name="name"', page)
    assert len(visible) == 1 and 'id="player-name"' in visible[0]
    forms = re.findall(r'<form[^>]*data-action="([a-z-]+)"', page)
    assert forms == ["save-name", "learn", "new-room", "play-alone", "play-bots"]
    assert page.count("data-shared-name") == 4


def test_the_saved_name_fills_the_field_and_every_form(client) -> None:
    assert client.post("/name", data={"name": "Anna", "next": "/"},
                       follow_redirects=False).status_code == 303
    page = client.get("/").text
    assert re.search(r'id="player-name"[^>]*value="Anna"', page)
    assert len(re.findall(r'name="name" data-shared-name value="Anna"', page)) == 4
    # a form sent with the shared (saved) name seats the player under it
    r = client.post("/rooms/bots", data={"game": "knister", "bots": "1", "level": "casual",
                                         "name": ""}, follow_redirects=False)
    assert r.status_code == 303
    state = client.get(r.headers["location"] + "/state.json").json()
    assert [s["name"] for s in state["seats"]][0] == "Anna"


def test_each_game_has_one_line_and_a_picture(client) -> None:
    page = client.get("/", headers={"accept-language": "en"}).text
    lines = dict(re.findall(r'<li data-game-line="(\w+)"><svg class="game-picture"[^>]*>.*?'
                            r'</svg><span><strong>[^<]+</strong> ([^<]+)</span></li>',
                            page, re.S))
    assert set(lines) == set(GAMES) | {"knikkers"}
    assert set(TAGLINES_EN) == set(BUILT_IN) | {"knikkers"}
    expected = {**TAGLINES_EN, **{k: p.tagline for k, p in GAMES.items() if k not in BUILT_IN}}
    assert {k: v.replace("&amp;", "&") for k, v in lines.items()} == expected


def test_the_lines_are_translated(client) -> None:
    nl = client.get("/", headers={"accept-language": "nl"}).text
    de = client.get("/", headers={"accept-language": "de"}).text
    assert "Zoals Yahtzee" in nl and "Zoals Color Lines" in nl
    assert "Wie Yahtzee" in de and "Wie Color Lines" in de


def test_a_knikkers_game_asks_a_guest_without_a_name(client) -> None:
    game = client.get("/knikkers")
    assert 'data-action="knikkers-name"' in game.text
    path = game.url.path
    saved = client.post("/name", data={"name": "Mara", "next": path}, follow_redirects=False)
    assert (saved.status_code, saved.headers["location"]) == (303, path)
    assert 'data-action="knikkers-name"' not in client.get(path).text
