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


@pytest.mark.parametrize(("name", "bots"), [
    ("Anna", ["Bot Bram", "Bot Clara", "Bot Daan"]),
    ("ANNA", ["Bot Bram", "Bot Clara", "Bot Daan"]),
    ("Bot Anna", ["Bot Bram", "Bot Clara", "Bot Daan"]),
    ("bram", ["Bot Anna", "Bot Clara", "Bot Daan"]),
    ("Ｃｌａｒａ", ["Bot Anna", "Bot Bram", "Bot Daan"]),  # full width: the same name
])
def test_no_bot_is_named_like_the_player(client, name, bots):
    """A fresh-user trial: "Play against bots" as "Anna" seated "Anna" and "Bot Anna"."""
    r = client.post("/rooms/bots", data={"game": "knister", "bots": "3", "level": "strong",
                                         "name": name}, follow_redirects=False)
    assert r.status_code == 303
    code = r.headers["location"].rsplit("/", 1)[1]
    state = client.get(f"/r/{code}/state.json").json()
    assert [s["name"] for s in state["seats"]] == [name, *bots]


async def test_the_hosts_add_a_bot_skips_the_seated_names(database_url):
    """Through the room action, as the lobby's "Add a bot" sends it: people called "Anna"
    and "bot-bram" (and one who left: their sheet may still be on screen) keep those bot
    names off the table; after the twelve names, numbers no seat has."""
    from tests.support.room_service import service_room

    async with service_room(database_url, "knister", ["Anna", "bot-bram", "Clara"]) as room:
        await room.room_action(room.players[2], "leave", game=0)
        await room.room_action(room.players[0], "add_bot", level="casual")
        names = [s.name for s in (await room.state(fresh=True)).seats]
        assert names == ["Anna", "bot-bram", "Clara", "Bot Daan"]


def test_bot_names_after_the_twelve():
    from app.rooms.bots.identity import NAMES, bot_name

    taken = [f"Bot {n}" for n in NAMES] + ["13", "Bot 14"]
    assert bot_name(taken) == "Bot 15"
    assert bot_name(["Eva"] + [f"Bot {n}" for n in NAMES if n != "Eva"]) == "Bot 13"
