"""Web Push (issue 27; docs/architecture.md, "Push notifications"): subscriptions are checked
and stored per player; the queue is sent to the push service encrypted (RFC 8291, aes128gcm)
and signed (VAPID, RFC 8292); gone subscriptions are deleted, busy services retried, and a
new process sends what an old one queued, once. The push service is a real HTTP server on
127.0.0.1 in this process; the test decrypts what it received with the subscription's private
key (``http_ece``) and checks the VAPID signature with the server's public key."""

from __future__ import annotations

import asyncio
import base64
import json
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import func, select

from app.clock import utcnow
from app.push import store
from app.push.endpoints import BadSubscription, check_endpoint, check_keys
from app.push.keys import load_vapid, public_key
from app.push.models import PushDelivery, PushSubscription
from app.push.sender import PushSender, retry_after
from app.store.db import Database

HOSTS = ("fcm.googleapis.com", "*.push.apple.com")


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A browser's side of one subscription: its key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = bytes(range(16))
        self.endpoint = endpoint

    def to_json(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                 version="aes128gcm")
        return json.loads(plain)


class PushService:
    """A push service on 127.0.0.1: records every POST (path, headers, body) and answers
    with the next status of ``statuses`` (201 when none is left)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.statuses: list[tuple[int, dict[str, str]]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()},
                                         body))
                status, headers = service.statuses.pop(0) if service.statuses else (201, {})
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


def verify_vapid(authorization: str, server_key: str, audience: str) -> dict[str, Any]:
    """The claims of a ``vapid t=..., k=...`` header after checking its ES256 signature
    with ``server_key`` (the key it names must be it)."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid"
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert fields["k"] == server_key
    header, claims, signature = fields["t"].split(".")
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if bad
    decoded = json.loads(unb64(claims))
    assert decoded["aud"] == audience
    return decoded


# ----- what is stored -----------------------------------------------------------------------

@pytest.mark.parametrize("endpoint", [
    "http://fcm.googleapis.com/fcm/send/x", "https://evil.example/push",
    "https://fcm.googleapis.com:8443/x", "https://user@fcm.googleapis.com/x",
    "https://127.0.0.1/x", "https://10.0.0.1/x", "https://push.apple.com.evil.example/x",
    "not a url", "", "https://fcm.googleapis.com/" + "x" * 1000])
def test_only_https_endpoints_of_known_push_services_are_taken(endpoint: str) -> None:
    with pytest.raises(BadSubscription):
        check_endpoint(endpoint, HOSTS, loopback_ok=False)


def test_known_push_services_and_test_loopback_are_taken() -> None:
    assert check_endpoint("https://fcm.googleapis.com/fcm/send/abc", HOSTS, False)
    assert check_endpoint("https://web.push.apple.com/x", HOSTS, False)
    with pytest.raises(BadSubscription):
        check_endpoint("http://127.0.0.1:9/x", HOSTS, loopback_ok=False)
    assert check_endpoint("http://127.0.0.1:9/x", HOSTS, loopback_ok=True)


def test_keys_must_be_a_p256_point_and_a_16_byte_secret() -> None:
    good = Browser("https://fcm.googleapis.com/x").to_json()["keys"]
    check_keys(good["p256dh"], good["auth"])
    for p256dh, auth in ((good["p256dh"][:-2], good["auth"]), (good["p256dh"], "AAAA"),
                         ("!!!", good["auth"]), (b64(b"\x05" + b"\x00" * 64), good["auth"])):
        with pytest.raises(BadSubscription):
            check_keys(p256dh, auth)


def test_retry_after_follows_the_service_then_doubles_up_to_an_hour() -> None:
    assert retry_after(1, "120") == timedelta(seconds=120)
    assert retry_after(1, "999999") == timedelta(hours=1)
    assert [retry_after(n, None).total_seconds() for n in (1, 2, 3)] == [30, 60, 120]
    assert retry_after(20, None) == timedelta(hours=1)


async def _count(url: str, model: Any) -> int:
    db = Database(url)
    try:
        async with db.sessionmaker() as session:
            return (await session.execute(select(func.count()).select_from(model))).scalar_one()
    finally:
        await db.dispose()


def test_a_subscription_is_stored_for_its_player_and_bad_ones_change_nothing(
        client, settings, push_service) -> None:
    key = client.get("/push/key").json()["key"]
    assert len(unb64(key)) == 65
    browser = Browser(f"{push_service.origin}/sub/1")
    assert client.post("/push/subscriptions", json=browser.to_json()).status_code == 201
    again = client.post("/push/subscriptions", json=browser.to_json())  # renewing is fine
    assert again.status_code == 201
    stored = asyncio.run(_count(settings.database_url, PushSubscription))
    bad: list[Any] = [
        {"endpoint": f"{push_service.origin}/sub/2"},  # no keys
        {**browser.to_json(), "endpoint": "https://evil.example/p"},
        {**browser.to_json(), "keys": {"p256dh": browser.to_json()["keys"]["p256dh"]}},
        [1, 2], "x"]
    for body in bad:
        r = client.post("/push/subscriptions", json=body)
        assert r.status_code == 400, (body, r.text)
    big = client.post("/push/subscriptions", content=b"{" + b" " * 10_240 + b"}",
                      headers={"Content-Type": "application/json"})
    assert big.status_code == 413
    client.cookies.clear()  # another player
    assert client.post("/push/subscriptions", json=browser.to_json()).status_code == 409
    assert client.request("DELETE", "/push/subscriptions",
                          json={"endpoint": browser.endpoint}).status_code == 404
    assert asyncio.run(_count(settings.database_url, PushSubscription)) == stored == 1


# ----- sending --------------------------------------------------------------------------------

async def _subscribe(db: Database, player: str, browser: Browser) -> None:
    from app.players.service import upsert_player

    async with db.sessionmaker() as session:
        await upsert_player(session, player)
        keys = browser.to_json()["keys"]
        await store.subscribe(session, player, browser.endpoint, keys["p256dh"], keys["auth"],
                              "nl")


async def _enqueue(db: Database, player: str, room: str | None, text: str) -> int:
    async with db.sessionmaker() as session, session.begin():
        return await store.enqueue(session, player, store.Push(
            "Knobel", text, f"/r/{room}", f"room-{room}"), room)


def test_a_queued_push_arrives_encrypted_and_signed_and_a_new_process_sends_it_once(
        settings, push_service) -> None:
    vapid = load_vapid("", settings.var_dir)
    browser = Browser(f"{push_service.origin}/sub/abc")

    async def scenario() -> None:
        first = Database(settings.database_url)
        await _subscribe(first, "p" * 32, browser)
        assert await _enqueue(first, "p" * 32, "abcd", "Bram played; your turn in Kniffel") == 1
        await first.dispose()  # the process that queued it stops before sending
        second = Database(settings.database_url)
        sender = PushSender(second, load_vapid("", settings.var_dir), "mailto:t@example.org")
        assert await sender.send_due() == 1
        assert await sender.send_due() == 0  # sent once
        await second.dispose()

    asyncio.run(scenario())
    assert len(push_service.received) == 1
    path, headers, body = push_service.received[0]
    assert path == "/sub/abc"
    assert headers["content-encoding"] == "aes128gcm"
    assert browser.decrypt(body) == {"title": "Knobel",
                                     "body": "Bram played; your turn in Kniffel",
                                     "url": "/r/abcd", "tag": "room-abcd"}
    claims = verify_vapid(headers["authorization"], public_key(vapid), push_service.origin)
    assert claims["sub"] == "mailto:t@example.org" and claims["exp"] > utcnow().timestamp()
    assert int(headers["ttl"]) > 0


def test_gone_subscriptions_are_deleted_and_busy_services_retried(settings, push_service) -> None:
    gone, busy = Browser(f"{push_service.origin}/gone"), Browser(f"{push_service.origin}/busy")
    push_service.statuses = [(410, {}), (429, {"Retry-After": "60"})]
    now = [utcnow()]

    async def scenario() -> list[int]:
        db = Database(settings.database_url)
        await _subscribe(db, "a" * 32, gone)
        await _subscribe(db, "b" * 32, busy)
        await _enqueue(db, "a" * 32, "room1", "one")
        await _enqueue(db, "b" * 32, "room2", "two")
        now[0] = utcnow()  # after queueing: both are due
        sender = PushSender(db, load_vapid("", settings.var_dir), "mailto:t@example.org",
                            clock=lambda: now[0])
        handled = [await sender.send_due()]  # 410, then 429
        handled.append(await sender.send_due())  # nothing due: the retry waits 60 s
        now[0] += timedelta(seconds=61)
        handled.append(await sender.send_due())  # the retry goes through
        async with db.sessionmaker() as session:
            left = (await session.execute(select(PushSubscription.endpoint))).scalars().all()
            rows = (await session.execute(select(PushDelivery))).scalars().all()
        await db.dispose()
        assert left == [busy.endpoint]
        assert [(r.attempts, r.sent_at is not None) for r in rows] == [(2, True)]
        return handled

    assert asyncio.run(scenario()) == [2, 0, 1]
    assert [p for p, _, _ in push_service.received] == ["/gone", "/busy", "/busy"]


def test_at_most_one_push_per_room_an_hour_and_ten_a_day(settings, push_service) -> None:
    async def scenario() -> list[int]:
        db = Database(settings.database_url)
        await _subscribe(db, "c" * 32, Browser(f"{push_service.origin}/c"))
        queued = [await _enqueue(db, "c" * 32, "same", "1"), await _enqueue(db, "c" * 32,
                                                                            "same", "2")]
        queued += [await _enqueue(db, "c" * 32, f"room{n}", str(n)) for n in range(12)]
        await db.dispose()
        return queued

    queued = asyncio.run(scenario())
    assert queued[:2] == [1, 0]  # the same room within the hour: not again
    assert sum(queued) == 10  # ten a day
