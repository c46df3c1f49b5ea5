"""Ranked Knikkers games keep their future secret (issue 11, part 4).

The seed fixes every spawn and the engine is public, so no response (page, fragment, JSON,
header, cookie, redirect, error) may carry a game's seed, or anything from which a spawn beyond
the three upcoming colours follows, while the game is played. The daily seed is keyed by the
server's secret. Every test runs on SQLite and on Postgres.
"""

from __future__ import annotations

import asyncio
import base64
import re
from datetime import UTC, date, datetime, timedelta
from hashlib import blake2b

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.engines.knikkers import Game
from app.knikkers import service
from app.knikkers.seeds import daily_seed
from app.knikkers.testpositions import near_full
from app.main import SESSION_COOKIE, create_app
from app.settings import Settings
from app.store.db import Database
from app.store.models import Game as GameRow
from tests.knikkers.helpers import (
    HTMX,
    JSON,
    as_another_guest,
    cell,
    choose,
    engine_view,
    finish,
    player_of,
    seed_of,
    start_near_full,
    state,
)

HTML = {"accept": "text/html"}
# Everything a JSON answer about a game may hold (docs/rules.md, Knikkers: what the player sees).
STATE_KEYS = {"min_line", "board", "upcoming", "score", "moves", "lines_cleared", "over",
              "can_undo", "id", "version", "status", "result", "move"}
MOVE_KEYS = {"points", "path", "lines", "spawned"}


# ---- looking at everything a browser is sent ------------------------------------------------

class Recorder:
    """Sends requests through a test client and keeps every response, redirect hops included."""

    def __init__(self, client) -> None:
        self.client = client
        self.responses: list = []

    def get(self, url: str, **kwargs):
        """GET ``url``; returns the final response."""
        return self.send("GET", url, **kwargs)

    def post(self, url: str, **kwargs):
        """POST ``url``; returns the final response."""
        return self.send("POST", url, **kwargs)

    def send(self, method: str, url: str, **kwargs):
        """Send one request (redirects followed unless told otherwise) and record the answers."""
        response = self.client.request(method, url, **kwargs)
        self.responses.extend([*response.history, response])
        return response


def seed_forms(seed: int) -> set[str]:
    """Every way the seed could be written: decimal, hex (any case, padded, 0x), its 8 bytes in
    base64 (plain and URL-safe), and what a JavaScript number would make of it."""
    raw = seed.to_bytes(8, "big")
    return {
        str(seed), f"{seed:x}", f"{seed:X}", f"{seed:016x}", hex(seed),
        base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode().rstrip("="),
        str(int(float(seed))), repr(float(seed)),
    }


def exposed(response) -> str:
    """All a browser gets from one response: status, every header, the body, and the session
    cookie's payload decoded (Starlette signs the cookie but does not encrypt it)."""
    parts = [str(response.status_code), response.text]
    parts += [f"{name}: {value}" for name, value in response.headers.multi_items()]
    for value in response.headers.get_list("set-cookie"):
        payload = value.split(";", 1)[0].split("=", 1)[1].split(".", 1)[0]
        padded = payload + "=" * (-len(payload) % 4)
        parts.append(base64.urlsafe_b64decode(padded).decode("utf-8", "replace"))
    return "\n".join(parts)


def assert_secret(responses: list, seed: int) -> None:
    """No response shows ``seed`` in any form; every JSON game state holds only what the player
    sees, and every game view shows exactly three upcoming colours."""
    forms = seed_forms(seed)
    assert responses
    for response in responses:
        where = f"{response.request.method} {response.request.url} -> {response.status_code}"
        text = exposed(response)
        assert not [form for form in forms if form in text], where
        if response.headers.get("content-type", "").startswith("application/json"):
            body = response.json()
            if "board" in body:
                assert set(body) <= STATE_KEYS, where
                assert len(body["upcoming"]) == 3, where
                assert set(body.get("move", {})) <= MOVE_KEYS, where
        if 'id="kn-game"' in text:
            assert text.count("data-upcoming=") == 3, where


def _location_id(response) -> int:
    return int(response.headers["location"].rsplit("/", 1)[1])


def _path_id(response) -> int:
    return int(str(response.url).rsplit("/", 1)[1])


def _today() -> date:
    return datetime.now(UTC).date()


def _play_while_running(rec: Recorder, game_id: int, me: str, moves: int = 6) -> None:
    """Everything the player (and a stranger) can ask while ``game_id`` is played: the pages,
    fragments and JSON of moves, undos and refusals, replay and "Herspelen" attempts, the player
    page, the leaderboards and the daily boards. Asserts the game is still running at the end."""
    url = f"/knikkers/games/{game_id}"
    assert _path_id(rec.get("/knikkers")) == game_id  # resumed
    rec.get(url, headers=HTML)
    rec.get(url, headers=HTMX)
    for n in range(moves):
        s = rec.get(f"{url}/state").json()
        assert s["over"] is False
        src, dst = choose(engine_view(s))
        data = {"src": cell(src), "dst": cell(dst), "version": str(s["version"]),
                "action_id": f"scan-{n}"}
        headers = (JSON, HTMX, HTML)[n % 3]  # JSON, an htmx fragment, a plain form post
        assert rec.post(f"{url}/move", data=data, headers=headers).status_code == 200
        if n == 1:  # take it back and make it again
            assert rec.post(f"{url}/undo", headers=HTMX).status_code == 200
            assert rec.post(f"{url}/move", data={"src": cell(src), "dst": cell(dst)},
                            headers=JSON).status_code == 200
    s = rec.get(f"{url}/state", headers=JSON).json()
    board = s["board"]
    ball = next((r, c) for r in range(9) for c in range(9) if board[r][c] is not None)
    other = next((r, c) for r in range(9) for c in range(9)
                 if board[r][c] is not None and (r, c) != ball)
    taken = {"src": cell(ball), "dst": cell(other)}
    assert rec.post(f"{url}/move", data=taken, headers=HTMX).status_code == 422
    assert rec.post(f"{url}/move", data=taken, headers=JSON).status_code == 422
    assert rec.post(f"{url}/move", data={"src": "9,9", "dst": "x"}, headers=HTML,
                    follow_redirects=False).status_code == 422
    assert rec.post(f"{url}/move", data={**taken, "version": "99999"},
                    headers=HTMX).status_code == 409
    assert rec.post(f"{url}/undo", headers=JSON).status_code == 200
    assert rec.post(f"{url}/undo", headers=HTMX).status_code == 422  # never two in a row
    for step in ("", "?step=1", "?step=99"):
        assert rec.get(f"{url}/replay{step}", headers=HTML).status_code == 404
    assert rec.get(f"{url}/replay?step=1", headers=HTMX).status_code == 404
    assert rec.post(f"{url}/again", headers=HTML, follow_redirects=False).status_code == 409
    assert rec.post(f"{url}/again", headers=JSON, follow_redirects=False).status_code == 409
    rec.post("/knikkers/variant", data={"variant": "4", "next": url})
    rec.post("/knikkers/variant", data={"variant": "5", "next": url})
    today = _today().isoformat()
    for page in (f"/players/{me}", f"/players/{me}?variant=4", "/leaderboards",
                 "/leaderboards/knikkers/5", "/leaderboards/knikkers/5?period=today&mode=games",
                 "/leaderboards/knikkers/4?period=week", "/leaderboards/knikkers/5/daily",
                 f"/leaderboards/knikkers/5/daily/{today}?mode=games",
                 f"/leaderboards/knikkers/4/daily/{today}", "/knikkers/games/2147483647"):
        rec.get(page, headers=HTML)
    with as_another_guest(rec.client):
        for method, path in (("GET", url), ("GET", f"{url}/state"), ("GET", f"{url}/replay"),
                             ("POST", f"{url}/move"), ("POST", f"{url}/undo"),
                             ("POST", f"{url}/again")):
            assert rec.send(method, path, headers=HTML, follow_redirects=False,
                            data=taken if path.endswith("move") else None).status_code == 404
        own = rec.post("/knikkers/daily", data={"variant": "5"}, headers=HTML)  # same seed
        rec.get(f"/knikkers/games/{_path_id(own)}/state")
    assert rec.get(f"{url}/state").json()["over"] is False


# ---- while a game runs, nothing shows its seed ----------------------------------------------

def test_a_new_games_responses_never_show_its_seed(client) -> None:
    rec = Recorder(client)
    game_id = _path_id(rec.post("/knikkers/new", headers=HTML))
    seed = seed_of(client, game_id)
    _play_while_running(rec, game_id, player_of(client, game_id))
    assert_secret(rec.responses, seed)
    # over: its replay and state may be watched, still without the seed ("Herspelen" starts a
    # ranked game on it, docs/rules.md, Knikkers)
    done = Recorder(client)
    final = finish(client, game_id)
    url = f"/knikkers/games/{game_id}"
    assert done.get(f"{url}/replay?step={final['version']}", headers=HTML).status_code == 200
    assert done.get(url, headers=HTML).status_code == 200
    assert done.get(f"{url}/state").json()["status"] == "finished"
    with as_another_guest(client):
        assert done.get(f"{url}/replay?step=1", headers=HTMX).status_code == 200
        assert done.get(f"{url}/state").status_code == 200
    assert_secret(done.responses, seed)


def test_a_daily_games_responses_never_show_its_seed(client) -> None:
    rec = Recorder(client)
    game_id = _path_id(rec.post("/knikkers/daily", data={"variant": "5"}, headers=HTML))
    seed = seed_of(client, game_id)
    assert seed == daily_seed(client.app.state.settings.secret_key, 5, _today())
    again = rec.post("/knikkers/daily", data={"variant": "5"}, headers=HTML)
    assert _path_id(again) == game_id  # resumed
    _play_while_running(rec, game_id, player_of(client, game_id))
    assert_secret(rec.responses, seed)
    done = Recorder(client)
    finish(client, game_id)
    url = f"/knikkers/games/{game_id}"
    assert done.get(f"{url}/replay?step=2", headers=HTML).status_code == 200  # its player's
    with as_another_guest(client):  # everybody else plays the same seed today
        hidden = done.get(url, headers=HTML)
        assert hidden.status_code == 403 and 'data-replay-hidden="daily"' in hidden.text
        assert done.get(f"{url}/replay?step=2", headers=HTMX).status_code == 403
        assert done.get(f"{url}/state").status_code == 404
    assert_secret(done.responses, seed)


def test_two_running_games_that_look_alike_answer_alike_though_their_futures_differ(
    client,
) -> None:
    """Responses are a function of what the player sees: two games with the same position and
    different seeds (so different spawns ahead) get the same answers, byte for byte (game id and
    clock aside), so no answer can tell anything about the spawns to come."""
    seeds, first_move = (11, 12), ((2, 3), (4, 4))
    start_position = near_full(9)
    futures = [Game.from_position(*start_position, 5, seed).move(*first_move).spawned
               for seed in seeds]
    assert futures[0] != futures[1]
    ids = [start_near_full(client, free=9, seed=seed) for seed in seeds]
    answers = [_answers_at_the_same_position(client, game_id, first_move) for game_id in ids]
    assert len(answers[0]) == 15
    assert answers[0] == answers[1]


def _answers_at_the_same_position(client, game_id: int, first_move) -> list:
    url = f"/knikkers/games/{game_id}"
    taken = {"src": "0,0", "dst": "0,1"}
    sent = [
        ("GET", url, HTML, None), ("GET", url, HTMX, None), ("GET", f"{url}/state", JSON, None),
        ("POST", f"{url}/move", HTMX, taken), ("POST", f"{url}/move", JSON, taken),
        ("POST", f"{url}/move", HTML, {"src": "a", "dst": "b"}),
        ("POST", f"{url}/move", HTMX, {**taken, "version": "7"}),
        ("POST", f"{url}/undo", HTMX, None), ("POST", f"{url}/undo", JSON, None),
        ("GET", f"{url}/replay", HTML, None), ("POST", f"{url}/again", HTML, None),
    ]
    answers = [_normalised(client.request(m, u, headers=h, data=d, follow_redirects=False),
                           game_id) for m, u, h, d in sent]
    moved = client.post(f"{url}/move", headers=JSON,
                        data={"src": cell(first_move[0]), "dst": cell(first_move[1])})
    assert moved.status_code == 200 and moved.json()["move"]["spawned"]  # these differ: shown
    for m, u, h in (("POST", f"{url}/undo", HTMX), ("GET", f"{url}/state", JSON),
                    ("GET", url, HTML), ("GET", url, HTMX)):
        answers.append(_normalised(client.request(m, u, headers=h), game_id))
    return answers


def _normalised(response, game_id: int) -> tuple:
    skip = {"date", "set-cookie", "content-length"}
    headers = sorted((k, v.replace(f"/games/{game_id}", "/games/ID"))
                     for k, v in response.headers.multi_items() if k not in skip)
    if response.headers.get("content-type", "").startswith("application/json"):
        body = response.json()
        body.pop("id", None)
        return response.status_code, headers, body
    text = response.text.replace(f"/games/{game_id}", "/games/ID")
    text = text.replace(f'data-game-id="{game_id}"', 'data-game-id="ID"')
    text = re.sub(r'data-started="[^"]*" data-elapsed="\d+">[^<]*<', "CLOCK<", text)
    return response.status_code, headers, text


# ---- the daily seed ---------------------------------------------------------------------------

def _old_public_daily_seed(variant: int, day: date) -> int:
    """The daily seed as it was before issue 11: a hash of the date alone, public."""
    text = f"knikkers-daily/v1/{variant}/{day.isoformat()}".encode("ascii")
    return int.from_bytes(blake2b(text, digest_size=8).digest(), "big") >> 1


def test_the_daily_seed_is_an_hmac_of_the_date_under_the_server_secret() -> None:
    day = date(2026, 11, 29)
    # the first 8 bytes of: printf %s knikkers-daily/v2/<v>/2026-11-29 |
    #   openssl dgst -sha256 -hmac "<secret>"
    assert daily_seed("first server secret", 5, day) == int("e7d82786b7172b2f", 16) >> 1
    assert daily_seed("first server secret", 4, day) == int("d810109f1e0470ab", 16) >> 1
    assert daily_seed("second server secret", 5, day) == int("fb5f76d24e2e3d3a", 16) >> 1
    assert daily_seed("first server secret", 5, day) == daily_seed("first server secret", 5, day)
    for offset in range(7):
        when = day + timedelta(days=offset)
        for variant in (5, 4):
            assert daily_seed("first server secret", variant, when) != _old_public_daily_seed(
                variant, when)
    with pytest.raises(ValueError):
        daily_seed("", 5, day)
    with pytest.raises(ValueError):
        daily_seed("first server secret", 6, day)


def test_two_servers_with_other_secrets_deal_other_daily_games(settings) -> None:
    today = _today()
    seeds, boards = {}, {}
    for secret in ("first server secret", "second server secret"):
        keyed = Settings(**{**settings.model_dump(), "secret_key": secret})
        with TestClient(create_app(keyed)) as client:
            game_id = _location_id(client.post("/knikkers/daily", data={"variant": "5"},
                                               follow_redirects=False))
            seeds[secret] = seed_of(client, game_id)
            boards[secret] = state(client, game_id)["board"]
            with as_another_guest(client):  # the same for everyone on this server
                other = _location_id(client.post("/knikkers/daily", data={"variant": "5"},
                                                 follow_redirects=False))
                assert other != game_id and state(client, other)["board"] == boards[secret]
            assert seed_of(client, other) == seeds[secret]
        assert seeds[secret] == daily_seed(secret, 5, today)
        assert seeds[secret] != _old_public_daily_seed(5, today)
    assert seeds["first server secret"] != seeds["second server secret"]
    assert boards["first server secret"] != boards["second server secret"]


# ---- no way to a known seed ------------------------------------------------------------------

def test_no_request_chooses_the_seed_of_a_game(settings) -> None:
    plain = Settings(**{**settings.model_dump(), "test_hooks": False})
    with TestClient(create_app(plain)) as client:
        made = [
            _path_id(client.get("/knikkers?seed=7")),
            _location_id(client.post("/knikkers/new?seed=7", data={"seed": "7"},
                                     follow_redirects=False)),
            _location_id(client.post("/knikkers/daily?seed=7", data={"seed": "7", "variant": "5"},
                                     follow_redirects=False)),
        ]
        assert client.post("/knikkers/test/start", data={"seed": "7"}).status_code == 404
        seeds = [seed_of(client, game_id) for game_id in made]
    assert 7 not in seeds and len(set(seeds)) == 3
    assert seeds[2] == daily_seed(settings.secret_key, 5, _today())


def test_a_game_still_being_played_cannot_be_played_again(client) -> None:
    game_id = _path_id(client.get("/knikkers"))
    response = client.post(f"/knikkers/games/{game_id}/again", follow_redirects=False)
    assert response.status_code == 409
    assert _games_of(client, player_of(client, game_id)) == 1  # no copy to explore
    assert _path_id(client.get("/knikkers")) == game_id


# ---- watching other players' daily games --------------------------------------------------

def test_a_daily_game_is_watched_by_others_once_its_day_is_over_and_not_while_they_play_it(
    client,
) -> None:
    secret = client.app.state.settings.secret_key
    today, yesterday = _today(), _today() - timedelta(days=1)
    me = player_of(client, _path_id(client.get("/knikkers")))
    with as_another_guest(client):
        stranger = player_of(client, _path_id(client.get("/knikkers")))
        stranger_cookie = client.cookies[SESSION_COOKIE]
    todays = _stored_game(client, me, daily_seed(secret, 5, today), today)
    olds = _stored_game(client, me, daily_seed(secret, 5, yesterday), yesterday)
    for game_id in (todays, olds):
        assert finish(client, game_id)["status"] == "finished"
        assert client.get(f"/knikkers/games/{game_id}/replay", headers=HTML).status_code == 200

    def seen_by_stranger(game_id: int) -> tuple[int, int, str]:
        with as_another_guest(client, stranger_cookie):
            page = client.get(f"/knikkers/games/{game_id}/replay?step=1", headers=HTML)
            json_state = client.get(f"/knikkers/games/{game_id}/state")
        hidden = re.search(r'data-replay-hidden="(\w+)"', page.text)
        return page.status_code, json_state.status_code, hidden.group(1) if hidden else ""

    assert seen_by_stranger(todays) == (403, 404, "daily")
    assert seen_by_stranger(olds) == (200, 200, "")
    # a game of the stranger's own on that seed, still being played (begun before midnight)
    _stored_game(client, stranger, daily_seed(secret, 5, yesterday), yesterday)
    assert seen_by_stranger(olds) == (403, 404, "same_seed")


def _stored_game(client, player_id: str, seed: int, daily: date) -> int:
    """A daily game of ``daily`` for ``player_id`` from a near-full start (one move from its end),
    through the service (the route only starts today's)."""

    async def run() -> int:
        db = Database(client.app.state.settings.database_url)
        try:
            async with db.sessionmaker() as session:
                row = await service.start_game(session, player_id, 5, seed=seed, daily=daily,
                                               start=near_full(3))
                return row.id
        finally:
            await db.dispose()

    return asyncio.run(run())


def _games_of(client, player_id: str) -> int:
    async def run() -> int:
        db = Database(client.app.state.settings.database_url)
        try:
            async with db.sessionmaker() as session:
                return await session.scalar(
                    select(func.count()).select_from(GameRow)
                    .where(GameRow.player_id == player_id))
        finally:
            await db.dispose()

    return asyncio.run(run())
