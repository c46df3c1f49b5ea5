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
from app.rooms.rules import page_basis
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


async def _play(database_url: str, players: list[str], names: list[str], bot: bool = False,
                table_seat: str | None = None,
                taken_over: frozenset[tuple[str, int]] = frozenset()) -> str:
    """A finished Kniffel game: every seat fills FILLERS in order, then five ones in chance
    (one roll each turn). ``bot``: the host seats a strong bot after the people (it plays as
    they do, through the room service); ``table_seat``: the host then adds a seat without a
    phone of that name, and plays its turns; ``taken_over``: (player, turn number) pairs a
    bot plays for that away player (``RoomService.act(takeover=True)``). Returns the room
    code."""
    db = Database(database_url)
    dice = DiceSource(allow_loaded=True)

    async def publish(code: str, version: int, delta: str | None = None) -> None:
        return None

    service = RoomService(db, publish, dice)
    try:
        code = await service.create_room(players[0], names[0], "kniffel")
        for player, name in zip(players[1:], names[1:], strict=True):
            await service.join(code, player, name)
        seated: list[tuple[str, dict]] = [(player, {}) for player in players]  # who, for whom
        added = ([("add_bot", {"level": "strong"})] if bot else []) + (
            [("add_table_seat", {"name": table_seat})] if table_seat else [])
        for kind, fields in added:
            await act_as(service, code, players[0], {"type": kind, **fields})
            state = await service.current(code)
            assert state is not None
            seat = state.seats[-1]
            seated.append((players[0], {"seat": seat.id}) if seat.table_seat
                          else (seat.player_id, {}))
        await act_as(service, code, players[0], {"type": "start"})
        turns = [*FILLERS, ("chance", [1, 1, 1, 1, 1])]
        for number, (box, faces) in enumerate(turns, 1):
            for player, claim in seated:
                takeover = not claim and (player, number) in taken_over
                dice.load(code, faces)
                for message in ({"type": "roll"}, {"type": "score", "box": box}):
                    state = await service.current(code)
                    assert state is not None
                    await service.act(code, player, {**page_basis(state), **message, **claim},
                                      takeover=takeover)
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


def test_review_of_a_game_with_a_bot_seat_and_a_taken_over_turn(client, settings) -> None:
    """Anna, Bram, a bot and Cleo (a seat without a phone, played on Anna's) each fill the
    same boxes with the same dice (228 points: 63 and the 35 bonus above; 17, 13, 25, 30, 40,
    0 and chance 5 below); a bot plays Bram's last turn, which keeps five ones for chance
    (16.25 points lost: tests/rooms/games/kniffel/test_analysis.py). The review names every
    seat, marks the bot and the moves made for Bram as automatic, and leaves them out of his
    accuracy (docs/rules.md, "Bots")."""
    players = [uuid.uuid4().hex for _ in range(2)]
    code = asyncio.run(_play(settings.database_url, players, ["Anna", "Bram"], bot=True,
                             table_seat="Cleo", taken_over=frozenset({(players[1], 13)})))
    page = client.get(f"/r/{code}/games/1/review", headers={"accept-language": "en"})
    assert page.status_code == 200
    html = page.text
    seats = re.findall(r'<h2 id="seat-(\d+)">([^<]*)</h2>', html)
    # no bot is named like a seated player (docs/rules.md, "Bots"): not "Bot Anna"
    assert [name for _, name in seats] == ["Anna", "Bram", "Bot Clara", "Cleo"]
    anna, bram, bot, cleo = (int(seat) for seat, _ in seats)
    summary = dict(re.findall(r'<tr data-summary-seat="(\d+)">(.*?)</tr>', html, re.S))
    for seat in (anna, bram):  # people link to their games; a bot or a seat without a phone
        assert f'href="/players/{players[(anna, bram).index(seat)]}/games"' in summary[str(seat)]
    assert "/players/" not in summary[str(bot)] + summary[str(cleo)]  # has no such page
    assert [f'data-bot="{seat}"' in summary[str(seat)] for seat in (anna, bram, bot, cleo)] == [
        False, False, True, False]
    numbers = {seat: re.findall(r'<td class="lb-num"[^>]*>([^<]*)</td>', row)
               for seat, row in summary.items()}
    assert {seat: cells[0] for seat, cells in numbers.items()} == {
        str(seat): "228" for seat in (anna, bram, bot, cleo)}
    # the last turn: kept five ones (16.25 lost) and wrote them in chance, made for Bram
    last = dict(re.findall(r'<tr data-review-turn="13" data-seat="(\d+)"(.*?)</tr>', html,
                           re.S))
    for seat in (anna, bram, bot, cleo):
        assert 'data-decision="keep" data-chosen="11111" data-best="" data-loss="16.2500"' \
            in last[str(seat)]
    assert "rolled automatically" in last[str(bram)] and "filled automatically" in last[str(bram)]
    rows = re.findall(r'<tr data-review-turn="(\d+)" data-seat="(\d+)"(.*?)</tr>', html, re.S)
    assert len(rows) == 4 * 13
    assert {(int(turn), int(seat)) for turn, seat, row in rows if "automatically" in row} == {
        (13, bram)}  # no other move was made for anyone: the bot's own are its decisions
    # the same dice and choices cost each seat the same in every turn; Bram's summary leaves
    # out the turn the bot played for him ("Lost in all", one decimal)
    losses = {(int(seat), int(turn)): float(loss) for turn, seat, loss in re.findall(
        r'data-review-turn="(\d+)" data-seat="(\d+)" data-turn-loss="([0-9.]+)"', html)}
    first = {seat: [losses[seat, turn] for turn in range(1, 13)]
             for seat in (anna, bram, bot, cleo)}
    assert first[anna] == first[bram] == first[bot] == first[cleo]
    own = sum(first[bram])
    assert [losses[seat, 13] for seat in (anna, bram, bot, cleo)] == [16.25, 0, 16.25, 16.25]
    lost = {int(seat): float(cells[-1]) for seat, cells in numbers.items()}
    assert lost[anna] == lost[bot] == lost[cleo] == pytest.approx(own + 16.25, abs=0.05)
    assert lost[bram] == pytest.approx(own, abs=0.05)


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


def test_a_game_played_alone_ends_without_a_winner(client) -> None:
    """Nobody to beat: the result says the game is over, not "You win!" (a fresh-user
    trial's finding)."""
    response = client.post("/play-alone", data={"game": "yatzy", "name": "Anna"},
                           follow_redirects=False)
    code = response.headers["location"].rsplit("/", 1)[1]
    assert client.post(f"/_test/rooms/{code}/finish").status_code == 200
    page = client.get(f"/r/{code}", headers={"accept-language": "en"}).text
    winner = page[page.index('class="winner'):]
    winner = winner[:winner.index("</p>")]
    assert "Game over" in winner and "win" not in winner.split(">", 1)[1]
