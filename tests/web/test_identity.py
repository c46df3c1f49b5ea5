"""Guest identity: a signed, HttpOnly, SameSite=Lax session cookie, and the name page."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.main import SESSION_COOKIE, create_app


def _set_cookie_header(response) -> str:
    return next(v for k, v in response.headers.multi_items() if k == "set-cookie"
                and v.startswith(SESSION_COOKIE))


def test_first_visit_gets_a_signed_httponly_lax_cookie(client) -> None:
    response = client.get("/name")
    header = _set_cookie_header(response).lower()
    assert "httponly" in header
    assert "samesite=lax" in header
    assert "." in client.cookies[SESSION_COOKIE]  # itsdangerous: payload.timestamp.signature


def test_saved_name_is_shown_on_the_next_page(client) -> None:
    response = client.post("/name", data={"name": "  Anna ", "next": "/"})
    assert response.status_code == 200  # followed the 303
    assert ">Anna</a>" in response.text


def test_tampered_cookie_is_simply_a_new_guest(client) -> None:
    client.post("/name", data={"name": "Anna", "next": "/"})
    good = client.cookies[SESSION_COOKIE]
    tampered = good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB")
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, tampered)
    response = client.get("/name")
    assert response.status_code == 200
    assert "Anna" not in response.text
    assert response.cookies[SESSION_COOKIE] not in (good, tampered)


def test_empty_name_is_refused_with_a_message(client) -> None:
    response = client.post("/name", data={"name": "   ", "next": "/"},
                           headers={"accept-language": "en"})
    assert response.status_code == 422
    assert "Please enter a name." in response.text


def test_too_long_name_is_refused(client) -> None:
    response = client.post("/name", data={"name": "z" * 25}, headers={"accept-language": "en"})
    assert response.status_code == 422
    assert "at most 24 characters" in response.text


def test_control_characters_are_refused(client) -> None:
    response = client.post("/name", data={"name": "Bad\x07Name"},
                           headers={"accept-language": "en"})
    assert response.status_code == 422
    assert "control characters" in response.text


@pytest.mark.parametrize("path", ["/name", "/rooms"])
def test_bytes_that_are_not_utf8_are_refused_as_a_name(client, path: str) -> None:
    """``name=%FF%FE`` decodes to replacement characters: refused, not seated (a new user
    created a seat called "\ufffd\ufffd")."""
    response = client.post(path, content=b"game=knister&name=%FF%FE",
                           headers={"content-type": "application/x-www-form-urlencoded",
                                    "accept-language": "en", "accept": "text/html"},
                           follow_redirects=False)
    assert response.status_code == 422  # as every refused name (the form again, with why)
    assert "control characters" in response.text
    assert "\ufffd" not in client.get("/").text  # no name saved, no room listed


def test_html_in_a_name_is_shown_escaped(client) -> None:
    payload = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    client.post("/name", data={"name": payload[:24], "next": "/"})
    page = client.get("/").text
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)" in page


def test_next_cannot_redirect_off_site(client) -> None:
    response = client.post("/name", data={"name": "Anna", "next": "//evil.example"},
                           follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/"


def test_a_guest_profile_without_a_name_gets_an_empty_name_field(client) -> None:
    client.get("/knikkers")  # playing Knikkers first creates a profile without a name
    page = client.get("/name").text
    assert 'value="None"' not in page
    assert 'name="name" value=""' in page


def test_an_unparsable_address_is_a_friendly_page_for_browsers_and_422_for_clients(
        client) -> None:
    # found by a fresh-user test: /knikkers/games/abc showed raw validation JSON
    html = {"accept": "text/html"}
    for path in ("/knikkers/games/abc", "/knikkers/games/1/replay?step=abc"):
        page = client.get(path, headers=html)
        assert page.status_code == 404, path
        assert "text/html" in page.headers["content-type"]
        assert "This page does not exist." in page.text and "int_parsing" not in page.text
        assert client.get(path, headers={"accept": "application/json"}).status_code == 422


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize(("https_only", "secure"), [(True, True), (False, False)])
def test_https_only_marks_the_session_cookie_secure(settings, https_only: bool,
                                                    secure: bool) -> None:
    """``HTTPS_ONLY=true`` (README, "Configuration"): the browser sends the cookie over HTTPS
    only; without it the cookie is not marked (a plain-HTTP development server)."""
    app = create_app(settings.model_copy(update={"https_only": https_only}))
    with TestClient(app, base_url="https://testserver") as test_client:
        header = _set_cookie_header(test_client.get("/name"))
    attributes = {part.strip().split("=")[0].lower() for part in header.split(";")[1:]}
    assert ("secure" in attributes) is secure
    assert {"httponly", "samesite", "path", "max-age"} <= attributes
