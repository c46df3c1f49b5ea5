"""The home page's "Play against bots" form and its route (docs/rules.md, "Bots")."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("game", ["knister", "kniffel", "kitkniff", "yatzy"])
def test_play_against_bots_opens_a_started_room(client, game):
    home = client.get("/")
    assert 'data-action="play-bots"' in home.text
    r = client.post("/rooms/bots", data={"game": game, "bots": "3", "level": "strong",
                                         "name": "Sam"}, follow_redirects=False)
    assert r.status_code == 303
    code = r.headers["location"].rsplit("/", 1)[1]
    state = client.get(f"/r/{code}/state.json").json()
    assert state["status"] == "playing" and state["game"] == game
    assert state["options"]["solo"] is True  # a game of its own: nobody else joins
    assert [s["name"] for s in state["seats"]] == ["Sam", "Bot Anna", "Bot Bram", "Bot Clara"]
    page = client.get(f"/r/{code}").text
    assert page.count("data-bot=") == 3


@pytest.mark.parametrize("fields", [{"bots": "0"}, {"bots": "4"}, {"bots": "x"},
                                    {"level": "expert"}, {"game": "chess"},
                                    {"game": "knikkers_race"},
                                    {"name": ""}])
def test_bad_fields_say_why(client, fields):
    data = {"game": "knister", "bots": "2", "level": "casual", "name": "Sam", **fields}
    r = client.post("/rooms/bots", data=data, follow_redirects=False)
    assert r.status_code == 422
    assert 'role="alert"' in r.text


def test_lobby_shows_the_bot_controls_to_the_host_only(client):
    r = client.post("/rooms", data={"game": "knister", "name": "Ann"}, follow_redirects=False)
    code = r.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/r/{code}").text
    assert 'data-action="add-bot"' in page and 'name="bot_takeover"' in page
    r = client.post("/rooms", data={"game": "knikkers_race", "name": "Ann"},
                    follow_redirects=False)
    page = client.get(r.headers["location"]).text
    assert 'data-action="add-bot"' not in page  # bots do not play the race
