"""A name of any length gets the form's own message (a fresh-user trial: over 200 characters,
``POST /name``, ``/rooms`` and ``/r/<code>/join`` answered a bare "400 Something went wrong."
to a browser and raw validation JSON (422) to anyone else, while 25-200 characters got "A name
can be at most 24 characters long"), and nothing changes; every name input carries
maxlength=24."""

from __future__ import annotations

import re

import pytest

from tests.groups.test_pages import Visitor, _invite

HTML = {"accept": "text/html", "accept-language": "en"}
NL = {"accept": "text/html", "accept-language": "nl"}
MESSAGE = "A name can be at most 24 characters long."
LENGTHS = [25, 201, 5000]


def _room(client) -> str:
    r = client.post("/rooms", data={"game": "knister", "name": "Anna"}, follow_redirects=False)
    assert r.status_code == 303
    return r.headers["location"].rsplit("/", 1)[1]


@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("headers", [HTML, {"accept-language": "en"}])
@pytest.mark.parametrize("path", ["/name", "/rooms", "/play-alone", "/rooms/bots", "join"])
def test_an_over_long_name_gets_the_forms_message(client, path, headers, length) -> None:
    code = _room(client)
    before = client.get(f"/r/{code}/state.json").json()
    guest = Visitor(client)
    url = f"/r/{code}/join" if path == "join" else path
    r = guest.post(url, data={"name": "x" * length, "game": "knister"}, headers=headers,
                   follow_redirects=False)
    assert r.status_code == 422
    assert MESSAGE in r.text
    assert 'maxlength="24"' in r.text
    assert client.get(f"/r/{code}/state.json").json() == before
    assert "data-my-rooms" not in guest.get("/").text  # no room made for the guest


def test_the_message_is_in_the_visitors_language(client) -> None:
    code = _room(client)
    r = Visitor(client).post(f"/r/{code}/join", data={"name": "x" * 300}, headers=NL,
                             follow_redirects=False)
    assert r.status_code == 422
    assert "Een naam is hoogstens 24 tekens lang." in r.text


@pytest.mark.parametrize("length", LENGTHS)
def test_over_long_group_names_get_the_forms_message(client, length) -> None:
    made = client.post("/groups", data={"name": "Club", "you": "Anna"}, follow_redirects=False)
    code = made.headers["location"].rsplit("/", 1)[1]
    r = client.post("/groups", data={"name": "x" * length, "you": "Anna"}, headers=HTML)
    assert (r.status_code, MESSAGE in r.text) == (422, True)
    guest = Visitor(client)
    invite = _invite(client, code)
    r = guest.post(invite, data={"name": "x" * length}, headers=HTML)
    assert (r.status_code, MESSAGE in r.text) == (422, True)
    assert guest.get(f"/groups/{code}", headers=HTML).status_code == 404  # no member
    r = client.post(f"/groups/{code}/rename", data={"name": "x" * length}, headers=HTML)
    assert r.status_code == 422
    assert "Club" in client.get(f"/groups/{code}", headers=HTML).text


def test_an_over_long_name_for_the_daily_challenge_says_why(client) -> None:
    r = client.post("/daily/knister", data={"name": "x" * 300}, headers=HTML,
                    follow_redirects=False)
    assert (r.status_code, MESSAGE in r.text) == (422, True)
    r = client.post("/daily/knister", data={"name": "x" * 300},
                    headers={"accept": "application/json"}, follow_redirects=False)
    assert r.status_code == 422 and r.json() == {"error": "bad_name", "message": MESSAGE}


@pytest.mark.parametrize("page", ["/", "/name", "/rooms/new", "join", "/groups", "invite",
                                  "group", "/knikkers", "/daily/knister"])
def test_every_name_input_carries_maxlength_24(client, page) -> None:
    made = client.post("/groups", data={"name": "Club", "you": "Anna"}, follow_redirects=False)
    group = made.headers["location"].rsplit("/", 1)[1]
    code = _room(client)
    guest = Visitor(client)  # no name saved: every form asks for one
    url = {"join": f"/r/{code}", "invite": _invite(client, group)}.get(page, page)
    if page == "group":
        text = client.get(f"/groups/{group}", headers=HTML).text
    else:
        text = guest.get(url, headers=HTML).text
    inputs = [i for i in re.findall(r"<input [^>]*>", text)
              if re.search(r'name="(name|you)"', i) and 'type="hidden"' not in i]
    assert inputs, text
    assert all('maxlength="24"' in i for i in inputs), inputs
