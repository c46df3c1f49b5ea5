"""Your name on every device (issue 27; docs/architecture.md, "Your name on every device"): a
one-time code made on one device signs another in as the same player (once, for 10 minutes,
rate-limited); the player's devices are listed and one can sign another out, which becomes a
new guest on its next request."""

from __future__ import annotations

import re
from typing import Any

import httpx
from fastapi.testclient import TestClient

from app.main import create_app

CODE = re.compile(r'data-device-code="([A-Z0-9]+)"')


class Device:
    """One browser: its own cookies, over the app's one test client (one event loop)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies = httpx.Cookies()

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        self.client.cookies = self.cookies
        try:
            return self.client.request(method, url, **kwargs)
        finally:
            self.cookies = httpx.Cookies(self.client.cookies)

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)


def _name(client: Device, name: str) -> None:
    r = client.post("/name", data={"name": name, "next": "/"})
    assert r.status_code in (200, 303), r.text


def _whoami(client: Device) -> str | None:
    found = re.search(r'class="whoami"[^>]*>([^<]+)<', client.get("/").text)
    return found.group(1) if found else None


def _code(client: Device) -> str:
    page = client.post("/devices/link")
    assert page.status_code == 200, page.text
    assert "<svg" in page.text and "data-device-link-url" in page.text
    return CODE.search(page.text).group(1)


def test_a_code_signs_another_device_in_once(settings) -> None:
    with TestClient(create_app(settings)) as client:
        phone, laptop, third = Device(client), Device(client), Device(client)
        _name(phone, "Ann")
        code = _code(phone)
        assert len(code) == 8
        page = laptop.get(f"/link/{code}")
        assert page.status_code == 200 and "Ann" in page.text
        assert _whoami(laptop) is None  # looking does not sign in
        r = laptop.post(f"/link/{code}", follow_redirects=False)
        assert r.status_code == 303
        assert _whoami(laptop) == "Ann"
        assert third.get(f"/link/{code}").status_code == 410  # used once
        assert third.post(f"/link/{code}").status_code == 410
        assert _whoami(third) is None
        devices = phone.get("/devices").text
        assert devices.count("data-device=") == 2  # the phone and the laptop
        # a typed code with a dash and lower case finds the same page
        code2 = _code(phone)
        typed = laptop.get(f"/link?code={code2[:4].lower()}-{code2[4:]}", follow_redirects=False)
        assert typed.headers["location"] == f"/link/{code2}"


def test_expired_unknown_and_guessed_codes_are_refused_and_limited(settings) -> None:
    with TestClient(create_app(settings)) as client:
        phone, other = Device(client), Device(client)
        _name(phone, "Bo")
        code = _code(phone)
        assert phone.post("/_test/clock", json={"advance_seconds": 601}).status_code == 200
        assert other.get(f"/link/{code}").status_code == 410
        assert other.post(f"/link/{code}").status_code == 410
        assert other.get("/link/ZZZZZZZZ").status_code == 404
        statuses = [other.post(f"/link/ZZZZZZ{n:02d}").status_code for n in range(12)]
        assert 429 in statuses and set(statuses) <= {404, 429}
        assert _whoami(other) is None


def test_a_device_signed_out_elsewhere_is_a_new_guest(settings) -> None:
    with TestClient(create_app(settings)) as client:
        phone, laptop = Device(client), Device(client)
        _name(phone, "Cas")
        code = _code(phone)
        laptop.post(f"/link/{code}")
        assert _whoami(laptop) == "Cas"
        page = phone.get("/devices").text
        laptop_id = next(d for d in re.findall(r'data-device="([0-9a-f]{32})"(?! data-current)',
                                               page))
        assert phone.post(f"/devices/{laptop_id}/revoke",
                          follow_redirects=False).status_code == 303
        assert _whoami(laptop) is None  # signed out: a new guest
        assert _whoami(phone) == "Cas"
        assert phone.post(f"/devices/{laptop_id}/revoke").status_code == 404  # done already
        # a stranger cannot sign the phone out
        page = phone.get("/devices").text
        phone_id = re.search(r'data-device="([0-9a-f]{32})" data-current-device', page).group(1)
        assert laptop.post(f"/devices/{phone_id}/revoke").status_code == 404
        assert _whoami(phone) == "Cas"


def test_the_test_clock_is_closed_without_test_hooks(settings) -> None:
    closed = settings.model_copy(update={"test_hooks": False})
    with TestClient(create_app(closed)) as client:
        assert client.post("/_test/clock", json={"advance_seconds": 5}).status_code == 404


def test_passkey_requests_without_a_ceremony_or_with_bad_answers_change_nothing(
        settings) -> None:
    with TestClient(create_app(settings)) as client:
        me = Device(client)
        _name(me, "Eve")
        accept = {"Accept": "application/json"}
        no_challenge = me.post("/passkeys/register", json={"id": "x"}, headers=accept)
        assert no_challenge.status_code == 400
        assert no_challenge.json()["error"] == "no_challenge"
        options = me.post("/passkeys/register/options").json()
        assert options["rp"]["id"] == "testserver" and options["user"]["name"] == "Eve"
        bad = me.post("/passkeys/register", json={"id": "x", "response": {}}, headers=accept)
        assert bad.status_code == 400 and bad.json()["error"] == "invalid"
        again = me.post("/passkeys/register", json={"id": "x"}, headers=accept)
        assert again.json()["error"] == "no_challenge"  # a challenge is used once
        me.post("/passkeys/signin/options")
        unknown = me.post("/passkeys/signin", json={"id": "nope"}, headers=accept)
        assert unknown.status_code == 400 and unknown.json()["error"] == "unknown"
        assert me.post("/passkeys/signin", content=b"{" + b" " * 20_000 + b"}",
                       headers={"Content-Type": "application/json"}).status_code == 413
        assert me.post("/passkeys/abc/remove").status_code == 404
        assert "data-passkey=" not in me.get("/devices").text
        assert _whoami(me) == "Eve"
