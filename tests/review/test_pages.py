"""Hints, the result's accuracy, the game review and the player's history over HTTP, on SQLite
and Postgres (app/review/routes.py). Games are played through the room service on the test
database with loaded dice; the strategy table is the session's shared one."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.rooms.dice import DiceSource
from app.rooms.service import RoomService
from app.settings import Settings
from app.store.db import Database
from app.strategy.tables import try_lock
from tests.rooms.games.kniffel.test_analysis import FILLERS
from tests.support.room_service import act_as


@pytest.fixture
def settings(database_url: str, tmp_path, shared_tables, kniffel_strategy) -> Settings:
    """Test settings whose strategy folder holds the Kniffel table."""
    return Settings(database_url=database_url, var_dir=tmp_path / "var",
                    secret_key="test-secret-key-not-for-production", environment="test",
                    test_hooks=True, strategy_dir=shared_tables.folder)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings), base_url="http://testserver") as test_client:
        yield test_client


async def _play(database_url: str, players: list[str], names: list[str]) -> str:
    """A finished Kniffel game: every seat fills FILLERS in order, then five ones in chance
    (one roll each turn). Returns the room code."""
    db = Database(database_url)
    dice = DiceSource(allow_loaded=True)

    async def publish(code: str, version: int, delta: str | None = None) -> None:
        return None

    service = RoomService(db, publish, dice)
    try:
        code = await service.create_room(players[0], names[0], "kniffel")
        for player, name in zip(players[1:], names[1:], strict=True):
            await service.join(code, player, name)
        await act_as(service, code, players[0], {"type": "start"})
        turns = [*FILLERS, ("chance", [1, 1, 1, 1, 1])]
        for box, faces in turns:
            for player in players:
                dice.load(code, faces)
                assert (await act_as(service, code, player, {"type": "roll"})).version
                await act_as(service, code, player, {"type": "score", "box": box})
        state = await service.current(code)
        assert state is not None and state.status == "finished"
        return code
    finally:
        service.close()
        await db.dispose()


def _finished(settings: Settings, names=("Anna", "Bram")) -> tuple[str, list[str]]:
    players = [uuid.uuid4().hex for _ in names]
    code = asyncio.run(_play(settings.database_url, players, list(names)))
    return code, players


def test_result_accuracy_and_review_list_every_turn(client, settings) -> None:
    code, players = _finished(settings)
    fragment = client.get(f"/r/{code}/games/1/accuracy")
    assert fragment.status_code == 200
    # both played alike: the five ones kept for chance cost 16.25 (13 turns, 27 decisions)
    scores = re.findall(r'data-accuracy="(\d+)"', fragment.text)
    assert len(scores) == 2 and scores[0] == scores[1]
    assert f'href="/r/{code}/games/1/review"' in fragment.text
    page = client.get(f"/r/{code}/games/1/review")
    assert page.status_code == 200
    html = page.text
    assert html.count("data-review-turn=") == 2 * 13
    assert 'data-review-turn="13"' in html
    assert html.count('data-decision="keep" data-chosen="11111" data-best="" '
                      'data-loss="16.2500"') == 2
    assert 'data-summary-seat=' in html and f"/players/{players[0]}/games" in html
    # both say in one sentence what the accuracy and the points lost mean (docs/rules.md)
    sentence = ("Accuracy 100 means every choice was the best one for the expected final score "
                "(the casual bot scores about 80, random play about 15); points lost per "
                "decision is what a choice cost on average against the best one.")
    for text in (fragment.text, html):
        assert f"<p class=\"muted small\" data-accuracy-explained>{sentence}</p>" in text
    dutch = client.get(f"/r/{code}/games/1/review", headers={"accept-language": "nl"}).text
    assert "Nauwkeurigheid 100 betekent dat elke keuze de beste was" in dutch


def test_review_of_a_running_game_or_unknown_room_is_404(client) -> None:
    response = client.post("/rooms", data={"game": "kniffel", "name": "Anna"},
                           follow_redirects=False)
    code = response.headers["location"].rsplit("/", 1)[1]
    assert client.get(f"/r/{code}/games/1/review").status_code == 404
    assert client.get("/r/AAAAAAAAAAAAAAAA/games/1/review").status_code == 404
    assert client.get(f"/r/{code}/games/1/accuracy").status_code == 404


def test_player_page_lists_finished_room_games(client, settings) -> None:
    code, players = _finished(settings)
    client.get(f"/r/{code}/games/1/accuracy")  # analysed once: the summary is stored
    page = client.get(f"/players/{players[0]}/games", headers={"accept-language": "de"})
    assert page.status_code == 200
    html = page.text
    assert f'data-played="{code}/1"' in html and 'data-kind="kniffel"' in html
    assert 'data-rank="1"' in html
    total = re.search(r'data-score="(\d+)"', html)
    assert total is not None
    accuracy = re.search(r'<td class="lb-num" data-accuracy="(\d+)"', html)
    assert accuracy is not None
    assert 'data-kind-stats="kniffel"' in html and 'data-chart="scores-kniffel"' in html
    assert "Trefferquote" in html or "Genauigkeit" in html
    assert f'href="/r/{code}/games/1/review"' in html
    assert client.get("/players/" + "0" * 32 + "/games").status_code == 404
    assert client.get("/players/short/games").status_code == 404


def test_hint_is_for_the_player_on_turn_only(client, settings) -> None:
    response = client.post("/play-alone", data={"game": "kniffel", "name": "Anna"},
                           follow_redirects=False)
    assert response.status_code == 303
    code = response.headers["location"].rsplit("/", 1)[1]
    state = client.get(f"/r/{code}/state.json").json()
    assert (state["status"], state["options"]["hints"], state["options"]["solo"]) == (
        "playing", True, True)
    assert len(state["seats"]) == 1
    assert client.get(f"/r/{code}/hint").status_code == 409  # not rolled yet
    with TestClient(create_app(settings), base_url="http://testserver") as other:
        assert other.get(f"/r/{code}/hint").status_code == 403
        page = other.get(f"/r/{code}", headers={"accept-language": "en"})
        assert "This is a game for one player." in page.text
        assert other.post(f"/r/{code}/join", data={"name": "Bram"}).status_code == 409


def test_play_alone_needs_a_name_and_a_known_game(client) -> None:
    response = client.post("/play-alone", data={"game": "kniffel", "name": ""})
    assert response.status_code == 422 and 'role="alert"' in response.text
    assert client.post("/play-alone", data={"game": "chess", "name": "Anna"}).status_code == 422
    home = client.get("/", headers={"accept-language": "nl"}).text
    for kind in ("kniffel", "kitkniff", "yatzy"):
        assert f'data-play-alone="{kind}"' in home


def test_analysis_is_being_prepared_while_the_table_is_built_elsewhere(database_url,
                                                                      tmp_path) -> None:
    # another process holds the table's build lock: no table yet, and none is started here
    folder = tmp_path / "no-tables"
    lock = try_lock(folder / "kniffel.npz")
    assert lock is not None
    settings = Settings(database_url=database_url, var_dir=tmp_path / "var",
                        secret_key="test-secret-key-not-for-production", environment="test",
                        test_hooks=True, strategy_dir=folder)
    try:
        code, _ = _finished(settings, names=("Anna",))
        with TestClient(create_app(settings), base_url="http://testserver") as client:
            fragment = client.get(f"/r/{code}/games/1/accuracy",
                                  headers={"accept-language": "nl"})
            assert fragment.status_code == 200
            assert 'data-analysis="preparing"' in fragment.text
            assert "De analyse van dit spel wordt voorbereid…" in fragment.text
            assert 'hx-trigger="load delay:' in fragment.text
            page = client.get(f"/r/{code}/games/1/review")
            assert page.status_code == 200 and 'data-analysis="preparing"' in page.text
            result = client.get(f"/r/{code}?watch=1")  # the result screen asks for it
            assert f'hx-get="/r/{code}/games/1/accuracy"' in result.text
        assert not list(folder.glob("*.npz"))
    finally:
        lock.close()
