"""A request that changes something, sent from another site's page, is refused and changes
nothing (app/web/same_origin.py); this site's own pages and non-browser clients pass. And no
API page that would load from a CDN."""

from __future__ import annotations

import re

import pytest

FOREIGN = ["http://evil.example", "http://testserver:8001", "http://sub.testserver", "null"]


def _saved_name(client) -> str:
    """The name the home page's name field shows for the client's player ("" for none)."""
    page = client.get("/", headers={"accept-language": "en"}).text
    found = re.search(r'<input[^>]*id="player-name"[^>]*>', page)
    assert found is not None
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


@pytest.mark.parametrize("origin", FOREIGN)
def test_a_form_from_another_origin_is_refused_and_changes_nothing(client, origin) -> None:
    assert client.post("/name", data={"name": "Anna", "next": "/"},
                       follow_redirects=False).status_code == 303
    r = client.post("/name", data={"name": "Mallory", "next": "/"}, follow_redirects=False,
                    headers={"origin": origin, "accept": "text/html", "accept-language": "en"})
    assert r.status_code == 403
    assert "This form was sent from another site, so nothing was done." in r.text
    assert _saved_name(client) == "Anna"
    # the same in the reader's language, and as JSON for scripts
    r = client.post("/name", data={"name": "Mallory", "next": "/"}, follow_redirects=False,
                    headers={"origin": origin, "accept": "text/html", "accept-language": "de"})
    assert r.status_code == 403 and "von einer anderen Seite" in r.text
    r = client.post("/rooms", data={"game": "knister", "name": "Mallory"},
                    follow_redirects=False,
                    headers={"origin": origin, "accept": "application/json"})
    assert (r.status_code, r.json()["error"]) == (403, "cross_site")


def test_this_sites_own_pages_and_clients_without_origin_pass(client) -> None:
    r = client.post("/name", data={"name": "Anna", "next": "/"}, follow_redirects=False,
                    headers={"origin": "http://testserver"})
    assert r.status_code == 303 and _saved_name(client) == "Anna"
    r = client.post("/name", data={"name": "Bram", "next": "/"}, follow_redirects=False)
    assert r.status_code == 303 and _saved_name(client) == "Bram"
    # reading is never refused, whatever the origin
    assert client.get("/", headers={"origin": "http://evil.example"}).status_code == 200


def test_there_are_no_api_pages_that_would_load_from_a_cdn(client) -> None:
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").json()["info"]["title"] == "Knobel"
