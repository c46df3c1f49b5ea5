"""Group pages over HTTP (real app, SQLite and Postgres): creating, inviting and joining,
access (a non-member gets 404, never the member list), the admin's changes, renewed invites,
a removed member who cannot open rooms for the group, escaping, and three languages."""

from __future__ import annotations

import re
from typing import Any

import httpx
from fastapi.testclient import TestClient

EN = {"accept-language": "en"}


class Visitor:
    """Another visitor with their own cookies, sending through the one client of the test
    (whose app runs in one event loop)."""

    def __init__(self, client: TestClient) -> None:
        self.client, self.jar = client, httpx.Cookies()

    def _send(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        saved = self.client.cookies
        self.client.cookies = self.jar
        try:
            return self.client.request(method, url, **kwargs)
        finally:
            self.jar = self.client.cookies
            self.client.cookies = saved

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        """GET ``url`` with this visitor's cookies."""
        return self._send("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        """POST ``url`` with this visitor's cookies."""
        return self._send("POST", url, **kwargs)


def _guest(client: TestClient, name: str | None = None) -> Visitor:
    """Another visitor (own cookies) on the same app; with ``name`` saved."""
    other = Visitor(client)
    if name:
        assert other.post("/name", data={"name": name}, follow_redirects=False).status_code == 303
    return other


def _create(client: TestClient, name: str = "Sunday") -> str:
    r = client.post("/groups", data={"name": name, "you": "Anna"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert re.fullmatch(r"/groups/[A-Za-z0-9_-]{16}", r.headers["location"])
    return r.headers["location"].rsplit("/", 1)[1]


def _invite(client: TestClient, code: str) -> str:
    page = client.get(f"/groups/{code}", headers=EN).text
    match = re.search(r'<a href="([^"]+)" data-group-invite>', page)
    assert match, page
    return match[1].replace("http://testserver", "")


def _join(guest: Visitor, invite: str, name: str) -> None:
    form = guest.get(invite, headers=EN)
    assert form.status_code == 200 and 'name="name"' in form.text
    r = guest.post(invite, data={"name": name}, follow_redirects=False)
    assert r.status_code == 303, r.text


def test_create_invite_join_and_only_members_see_the_group(client):
    code = _create(client)
    page = client.get(f"/groups/{code}", headers=EN)
    assert page.status_code == 200 and "<svg" in page.text  # the invite's QR code
    assert 'data-member="Anna"' in page.text
    invite = _invite(client, code)
    bram = _guest(client)
    assert bram.get(f"/groups/{code}", headers=EN).status_code == 404
    _join(bram, invite, "Bram")
    seen = bram.get(f"/groups/{code}", headers=EN)
    assert seen.status_code == 200 and 'data-member="Anna"' in seen.text
    stranger = _guest(client)
    refused = stranger.get(f"/groups/{code}", headers=EN)
    assert refused.status_code == 404 and "Anna" not in refused.text and "Bram" not in refused.text
    assert stranger.get("/groups/NoSuchGroup00000", headers=EN).status_code == 404
    mine = bram.get("/groups", headers=EN).text
    assert f'data-group-link="{code}"' in mine


def test_renewed_invite_stops_the_old_link(client):
    code = _create(client)
    old = _invite(client, code)
    assert client.post(f"/groups/{code}/invite", follow_redirects=False).status_code == 303
    new = _invite(client, code)
    assert new != old
    carl = _guest(client)
    assert carl.get(old, headers=EN).status_code == 404
    assert carl.post(old, data={"name": "Carl"}, follow_redirects=False).status_code == 404
    assert carl.get(f"/groups/{code}", headers=EN).status_code == 404
    _join(carl, new, "Carl")


def test_admin_changes_and_refusals(client):
    code = _create(client)
    bram = _guest(client)
    _join(bram, _invite(client, code), "Bram")
    page = client.get(f"/groups/{code}", headers=EN).text
    bram_id = re.search(r'name="player" value="([0-9a-f]{32})"', page)[1]
    # only the admin changes the group
    assert bram.post(f"/groups/{code}/rename", data={"name": "Mine"}).status_code == 403
    assert bram.post(f"/groups/{code}/invite").status_code == 403
    assert client.post(f"/groups/{code}/rename", data={"name": "  "}).status_code == 422
    assert client.post(f"/groups/{code}/admin", data={"player": "f" * 32}).status_code == 400
    r = client.post(f"/groups/{code}/rename", data={"name": "Sunday club"},
                    follow_redirects=False)
    assert r.status_code == 303
    assert "<h1>Sunday club</h1>" in bram.get(f"/groups/{code}", headers=EN).text
    # the admin role passes to Bram: Anna can no longer rename
    assert client.post(f"/groups/{code}/admin", data={"player": bram_id},
                       follow_redirects=False).status_code == 303
    assert client.post(f"/groups/{code}/rename", data={"name": "X"}).status_code == 403
    assert 'data-action="renew-invite"' in bram.get(f"/groups/{code}", headers=EN).text
    assert client.post("/groups", data={"name": ""}).status_code == 422


def test_a_removed_member_cannot_open_or_attach_rooms(client):
    code = _create(client)
    bram = _guest(client, "Bram")
    _join(bram, _invite(client, code), "Bram")
    made = bram.post("/rooms", data={"game": "kniffel", "name": "Bram", "group": code},
                     follow_redirects=False)
    assert made.status_code == 303  # a member opens a room for the group
    room = made.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/groups/{code}", headers=EN).text
    bram_id = re.search(r'name="player" value="([0-9a-f]{32})"', page)[1]
    assert client.post(f"/groups/{code}/remove", data={"player": bram_id},
                       follow_redirects=False).status_code == 303
    assert bram.get(f"/groups/{code}", headers=EN).status_code == 404
    again = bram.post("/rooms", data={"game": "kniffel", "name": "Bram", "group": code},
                      headers={**EN, "accept": "application/json"}, follow_redirects=False)
    assert again.status_code == 404 and again.json()["error"] == "not_found"
    assert bram.get("/", headers=EN).text.count("data-my-room=") == 1  # no room was made
    assert bram.post(f"/r/{room}/group", data={"group": code},
                     follow_redirects=False).status_code == 404
    # and the admin cannot take the room of someone else
    assert client.post(f"/r/{room}/group", data={"group": code},
                       follow_redirects=False).status_code == 403


def test_names_are_escaped(client):
    code = _create(client, "<b>club</b>")
    evil = _guest(client)
    invite = _invite(client, code)
    offered = evil.get(invite, headers=EN).text  # the invite page names the group
    assert "<b>club" not in offered and "&lt;b&gt;club&lt;/b&gt;" in offered
    _join(evil, invite, "<script>x</script>")
    for page in (evil.get(f"/groups/{code}", headers=EN).text,
                 evil.get("/groups", headers=EN).text):
        assert "<script>x" not in page and "<b>club" not in page
    assert "&lt;b&gt;club&lt;/b&gt;" in evil.get("/groups", headers=EN).text
    assert "&lt;script&gt;x&lt;/script&gt;" in evil.get(f"/groups/{code}", headers=EN).text
    # the admin's page: the member list, the head-to-head choice and the forms
    admin = client.get(f"/groups/{code}", headers=EN).text
    assert "<script>x" not in admin and admin.count("&lt;script&gt;x&lt;/script&gt;") >= 3


def test_the_group_page_speaks_three_languages(client):
    code = _create(client)
    words = {"nl": "Onderlinge duels", "de": "Direkter Vergleich", "en": "Head-to-head"}
    for lang, word in words.items():
        page = client.get(f"/groups/{code}", headers={"accept-language": lang})
        assert page.status_code == 200 and word in page.text, lang


def test_the_host_plays_an_open_room_for_the_group_from_the_lobby(client):
    code = _create(client)
    made = client.post("/rooms", data={"game": "knister", "name": "Anna"},
                       follow_redirects=False)
    room = made.headers["location"].rsplit("/", 1)[1]
    lobby = client.get(f"/r/{room}", headers=EN).text
    assert f'href="/r/{room}/group" data-action="room-group"' in lobby
    choice = client.get(f"/r/{room}/group", headers=EN).text
    assert f'data-attach-group="{code}"' in choice and "data-room-group" not in choice
    r = client.post(f"/r/{room}/group", data={"group": code}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/r/{room}"
    assert f'data-room-group="{code}"' in client.get(f"/r/{room}/group", headers=EN).text
    assert "data-room-group" not in _guest(client).get(f"/r/{room}/group", headers=EN).text
    assert client.post(f"/r/{room}/group", data={"group": "NoSuchGroup00000"}).status_code == 404
    assert client.post("/r/NoSuchRoom000000/group", data={"group": code}).status_code == 404


def test_the_admin_starts_and_ends_a_night(client):
    code = _create(client)
    bram = _guest(client)
    _join(bram, _invite(client, code), "Bram")
    assert bram.post(f"/groups/{code}/night").status_code == 403
    assert client.post(f"/groups/{code}/night/end").status_code == 409  # none running
    assert client.post(f"/groups/{code}/night", follow_redirects=False).status_code == 303
    assert client.post(f"/groups/{code}/night").status_code == 409  # already running
    page = client.get(f"/groups/{code}", headers=EN).text
    assert 'data-action="end-night"' in page and "A night is running since" in page
    assert client.post(f"/groups/{code}/night/end", follow_redirects=False).status_code == 303
    assert 'data-action="start-night"' in client.get(f"/groups/{code}", headers=EN).text


def test_the_group_page_lists_the_groups_open_rooms(client):
    code = _create(client)
    bram = _guest(client, "Bram")
    _join(bram, _invite(client, code), "Bram")
    assert "data-group-rooms" not in client.get(f"/groups/{code}", headers=EN).text
    made = bram.post("/rooms", data={"game": "kniffel", "name": "Bram", "group": code},
                     follow_redirects=False)
    room = made.headers["location"].rsplit("/", 1)[1]
    assert client.post(f"/r/{room}/join", data={"name": "Anna"},
                       follow_redirects=False).status_code == 303
    other = client.post("/rooms", data={"game": "knister", "name": "Anna"},
                        follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/groups/{code}", headers=EN).text
    listed = re.findall(r'data-group-room="([\w-]+)"', page)
    assert listed == [room]  # the room of the group, not Anna's other room
    row = page[page.index(f'data-group-room="{room}"'):]
    row = row[:row.index("</li>")]
    assert f'href="/r/{room}"' in row and "Kniffel" in row and "waiting room" in row
    assert "Bram, Anna" in row
    assert other not in page


def test_a_new_group_shows_its_invite_and_no_head_to_head_yet(client):
    code = _create(client)
    page = client.get(f"/groups/{code}", headers=EN).text
    assert '<details class="share panel" open>' in page  # a group of one needs friends first
    assert "data-head-to-head-empty" in page and 'data-action="head-to-head"' not in page
    _join(_guest(client, "Bram"), _invite(client, code), "Bram")
    page = client.get(f"/groups/{code}", headers=EN).text
    assert '<details class="share panel">' in page
    assert "data-head-to-head-empty" not in page and 'data-action="head-to-head"' in page


def test_a_linked_device_sees_its_players_groups(client):
    """The device link (``/devices/link``, docs/architecture.md "Your name on every
    device") signs another device in as the same player: their groups come along."""
    code = _create(client)
    bram = _guest(client, "Bram")
    _join(bram, _invite(client, code), "Bram")
    laptop = _guest(client)
    assert laptop.get(f"/groups/{code}", headers=EN).status_code == 404
    page = bram.post("/devices/link")
    assert page.status_code == 200, page.text
    link = re.search(r'data-device-code="([A-Z0-9]+)"', page.text)
    assert link, page.text
    assert laptop.post(f"/link/{link[1]}", follow_redirects=False).status_code == 303
    seen = laptop.get(f"/groups/{code}", headers=EN)
    assert seen.status_code == 200 and 'data-member="Bram"' in seen.text
    assert f'data-group-link="{code}"' in laptop.get("/groups", headers=EN).text


def test_a_bad_name_on_the_invite_form_is_refused_and_joins_nobody(client):
    code = _create(client)
    invite = _invite(client, code)
    dora = _guest(client)
    for bad in ("", "   ", "x" * 80):
        r = dora.post(invite, data={"name": bad}, headers=EN, follow_redirects=False)
        assert r.status_code == 422 and 'name="name"' in r.text, bad
    assert dora.get(f"/groups/{code}", headers=EN).status_code == 404  # not a member
    assert 'data-member="Anna"' in client.get(f"/groups/{code}", headers=EN).text
    assert client.get(f"/groups/{code}", headers=EN).text.count("data-member=") == 1
