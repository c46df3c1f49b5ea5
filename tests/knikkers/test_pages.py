"""The Knikkers pages: hooks for outside checks, the end dialog, the remembered variant,
"Herspelen", the replay viewer, the player page and escaping (the test-only routes are
checked in tests/web/test_test_routes.py)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from app.engines.knikkers import Game
from tests.knikkers.helpers import (
    choose,
    engine_view,
    finish,
    move,
    play_to_end,
    player_of,
    ranks,
    seed_of,
    start,
    start_near_full,
    state,
    undo,
)

pytestmark = pytest.mark.one_backend


def test_knikkers_starts_a_game_with_the_hooks_for_outside_checks(client) -> None:
    response = client.get("/knikkers", headers={"accept-language": "en"})
    assert response.status_code == 200
    html = response.text
    assert len(re.findall(r'data-cell="[0-8],[0-8]"', html)) == 81
    coloured = re.findall(r'data-cell="([0-8]),([0-8])" data-colour="([0-6])"', html)
    assert len(coloured) == 5
    game_id = int(str(response.url).rsplit("/", 1)[1])
    s = state(client, game_id)
    for r, c, colour in coloured:
        assert s["board"][int(r)][int(c)] == int(colour)
    assert re.findall(r'data-upcoming="([0-6])"', html) == [str(c) for c in s["upcoming"]]
    assert html.count('data-action="undo"') == 1
    assert html.count('data-action="new-game"') == 1
    assert 'data-score="0"' in html
    assert "data-game-over" not in html
    assert "Record" in html and "Next" in html


def test_knikkers_resumes_the_game_in_progress(client) -> None:
    first = client.get("/knikkers")
    again = client.get("/knikkers")
    assert first.url == again.url


def test_the_end_dialog_shows_points_moves_time_lines_record_and_both_buttons(client) -> None:
    game_id = start_near_full(client, free=3)
    s = finish(client, game_id)
    html = client.get(f"/knikkers/games/{game_id}", headers={"accept-language": "en"}).text
    dialog = re.search(r"<dialog[^>]*data-game-over.*?</dialog>", html, re.S).group(0)
    for word in ("Game over", "Points", "Moves", "Time", "Lines cleared", "Record"):
        assert word in dialog
    assert f'data-final-score="{s["result"]["score"]}"' in dialog
    assert dialog.count('data-action="new-game"') == 1
    assert dialog.count('data-action="replay"') == 1
    assert html.count('data-action="new-game"') == 1  # only the dialog's, once it is over


def test_a_new_record_is_announced(client) -> None:
    first = finish(client, start(client, seed=2, variant=4))
    assert first["result"]["new_record"] is True and first["result"]["previous_best"] is None
    html = client.get(f"/knikkers/games/{first['id']}", headers={"accept-language": "en"}).text
    assert "New record!" in html
    second = finish(client, start(client, seed=4, variant=4))
    assert second["result"]["score"] < first["result"]["score"]
    assert second["result"]["new_record"] is False
    assert second["result"]["previous_best"] == first["result"]["score"]


def test_herspelen_is_the_same_seed_as_a_new_game_of_its_own(client) -> None:
    game_id = start_near_full(client, free=3)
    done = finish(client, game_id)
    response = client.post(f"/knikkers/games/{game_id}/again", follow_redirects=False)
    new_id = int(response.headers["location"].rsplit("/", 1)[1])
    assert new_id != game_id
    fresh = state(client, new_id)
    assert seed_of(client, new_id) == seed_of(client, game_id) and fresh["version"] == 0
    assert fresh["board"] != done["board"]
    again = finish(client, new_id)
    assert again["result"]["score"] == done["result"]["score"]  # same seed, same moves
    games = ranks(client.get("/leaderboards/knikkers/5?mode=games").text)
    assert len(games) == 2  # counted as a game of its own


def test_nieuw_spel_starts_a_new_seed(client) -> None:
    game_id = start(client, seed=2, variant=5)
    response = client.post("/knikkers/new", follow_redirects=False)
    new_id = int(response.headers["location"].rsplit("/", 1)[1])
    assert new_id != game_id and seed_of(client, new_id) != 2


def test_the_variant_is_remembered_for_the_next_game_and_never_changes_the_current_one(
    client,
) -> None:
    current = client.get("/knikkers")
    game_id = int(str(current.url).rsplit("/", 1)[1])
    s = state(client, game_id)
    assert s["min_line"] == 5
    src, dst = choose(engine_view(s))
    move(client, game_id, src, dst)
    before = state(client, game_id)
    client.post("/knikkers/variant", data={"variant": "4", "next": f"/knikkers/games/{game_id}"})
    assert state(client, game_id) == before  # the game in progress keeps its variant
    assert client.get("/knikkers").url == current.url  # and is still the one resumed
    new = client.post("/knikkers/new", follow_redirects=False)
    assert state(client, int(new.headers["location"].rsplit("/", 1)[1]))["min_line"] == 4
    assert client.post("/knikkers/variant", data={"variant": "6"}).status_code == 422


def test_the_replay_viewer_steps_through_the_log(client) -> None:
    game_id = start(client, seed=2, variant=4)
    s = state(client, game_id)
    a = choose(engine_view(s))
    move(client, game_id, *a)
    undo(client, game_id)
    final, played = play_to_end(client, game_id)
    steps = final["moves"]  # the undone move and its undo are no steps of the replay
    assert steps == len(played) < final["version"]
    assert client.get(f"/knikkers/games/{game_id}/replay").status_code == 200
    start_page = client.get(f"/knikkers/games/{game_id}/replay?step=0").text
    assert len(re.findall(r'data-colour="', start_page)) == 5
    end_page = client.get(f"/knikkers/games/{game_id}/replay?step={steps}").text
    assert f'data-score="{final["score"]}"' in end_page
    for r in range(9):
        for c in range(9):
            colour = final["board"][r][c]
            assert f'data-cell="{r},{c}" data-colour="{colour}"' in end_page
    assert f'data-steps="{steps}"' in end_page and f"{steps} / {steps}" in end_page
    one = client.get(f"/knikkers/games/{game_id}/replay?step=1").text
    after_one = Game.replay(2, 4, [("move", *played[0])])
    assert len(re.findall(r'data-colour="', one)) == sum(
        v is not None for row in after_one.board for v in row)
    assert 'rel="next"' in one and 'rel="prev"' in one
    fragment = client.get(f"/knikkers/games/{game_id}/replay?step=2",
                          headers={"hx-request": "true"}).text
    assert fragment.lstrip().startswith('<div id="kn-replay-state"')
    beyond = client.get(f"/knikkers/games/{game_id}/replay?step=99999").text
    assert f'data-step="{steps}"' in beyond
    # a stranger may watch a finished game: the game page sends them to the replay
    client.cookies.clear()
    assert client.get(f"/knikkers/games/{game_id}/replay?step=3").status_code == 200
    response = client.get(f"/knikkers/games/{game_id}", follow_redirects=False)
    assert response.headers["location"] == f"/knikkers/games/{game_id}/replay"


def test_an_unfinished_game_has_no_replay(client) -> None:
    game_id = start(client)
    assert client.get(f"/knikkers/games/{game_id}/replay").status_code == 404


def test_the_player_page_shows_statistics_and_two_svg_charts(client) -> None:
    scores = [finish(client, start(client, seed=seed, variant=4))["result"]
              for seed in (2, 3, 4)]
    me = player_of(client, start(client, seed=5, variant=4))
    html = client.get(f"/players/{me}?variant=4", headers={"accept-language": "en"}).text
    assert re.search(r'data-stat="games">3<', html)
    assert re.search(rf'data-stat="best">{max(s["score"] for s in scores)}<', html)
    average = sum(s["score"] for s in scores) / 3
    assert re.search(rf'data-stat="average">{average:.1f}<', html)
    assert re.search(rf'data-stat="lines">{sum(s["lines"] for s in scores)}<', html)
    assert '<svg class="kn-chart" data-chart="scores"' in html
    assert '<svg class="kn-chart" data-chart="histogram"' in html
    assert html.count('class="dot"') == 3
    empty = client.get(f"/players/{me}?variant=5").text
    assert 'data-stat="games">0<' in empty and "data-chart" not in empty
    assert client.get("/players/" + "0" * 32).status_code == 404
    assert client.get("/players/nope").status_code == 404


def test_names_are_escaped_on_the_leaderboard(client) -> None:
    client.post("/name", data={"name": "<script>x</script>", "next": "/"})
    finish(client, start_near_full(client, free=3))
    html = client.get("/leaderboards/knikkers/5").text
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html


def test_guests_without_a_name_are_shown_as_guest(client) -> None:
    finish(client, start_near_full(client, free=3))
    html = client.get("/leaderboards/knikkers/5", headers={"accept-language": "en"}).text
    assert re.search(r'data-score="\d+"[^>]*>\s*<td class="lb-rank">1</td>\s*<td><a href="/players/'
                     r'[0-9a-f]{32}">Guest</a>', html)


def test_home_links_to_knikkers_and_the_leaderboards(client) -> None:
    html = client.get("/").text
    assert 'href="/knikkers"' in html and 'href="/leaderboards"' in html


def test_a_move_timestamp_is_utc(client) -> None:
    game_id = start_near_full(client, free=3)
    html = client.get(f"/knikkers/games/{game_id}").text
    started = re.search(r'data-started="([^"]+)"', html).group(1)
    moment = datetime.fromisoformat(started)
    assert moment.utcoffset() is not None
    assert abs((datetime.now(UTC) - moment).total_seconds()) < 120
