"""Playing Knikkers over HTTP: the server's engine decides, refused actions change nothing.

Issue 6, acceptance 1 and 2; docs/rules.md, Knikkers.
"""

from __future__ import annotations

import pytest

from app.engines.knikkers import Game
from tests.knikkers.helpers import (
    HTMX,
    MAX_MOVES,
    choose,
    engine_view,
    move,
    player_of,
    ranks,
    start,
    start_near_full,
    state,
    undo,
)

pytestmark = pytest.mark.one_backend

SEED, VARIANT = 2, 4


def _play_script(client, game_id: int) -> list:
    """Play until the game is over, choosing from the server's state; every 9th move is taken
    back and played again. Returns the actions sent (engine tuple form); fails after
    ``MAX_MOVES`` moves."""
    script: list = []
    for _ in range(MAX_MOVES):
        s = state(client, game_id)
        if s["over"]:
            return script
        src, dst = choose(engine_view(s))
        assert move(client, game_id, src, dst).status_code == 200
        script.append(("move", src, dst))
        if len(script) % 9 == 0 and not state(client, game_id)["over"]:
            assert undo(client, game_id).status_code == 200
            script.append(("undo",))
            assert move(client, game_id, src, dst).status_code == 200
            script.append(("move", src, dst))
    raise AssertionError(f"game {game_id} is not over after {MAX_MOVES} moves")


def test_a_scripted_game_ends_with_the_engines_score_moves_and_lines(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    script = _play_script(client, game_id)
    expected = Game.replay(SEED, VARIANT, script)
    final = state(client, game_id)
    assert expected.over
    assert final["status"] == "finished"
    assert final["board"] == expected.board
    assert (final["score"], final["moves"], final["lines_cleared"]) == (
        expected.score, expected.moves, expected.lines_cleared)
    assert (final["result"]["score"], final["result"]["moves"], final["result"]["lines"]) == (
        104, 56, 13)
    assert final["version"] == len(script)
    page = client.get(f"/knikkers/games/{game_id}").text
    assert 'data-game-over' in page
    assert f'data-score="{expected.score}"' in page


def test_the_finished_game_is_on_its_variants_boards_and_nowhere_else(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    _play_script(client, game_id)
    me = player_of(client, game_id)
    for period in ("all", "month", "week", "today"):
        for mode in ("players", "games"):
            html = client.get(f"/leaderboards/knikkers/4?period={period}&mode={mode}").text
            assert ranks(html) == [(1, me, 104)], (period, mode)
            other = client.get(f"/leaderboards/knikkers/5?period={period}&mode={mode}").text
            assert ranks(other) == [], (period, mode)
    for variant in (4, 5):
        daily = client.get(f"/leaderboards/knikkers/{variant}/daily", follow_redirects=True)
        assert ranks(daily.text) == []


def test_moves_are_checked_by_the_engine_and_the_path_comes_back(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    s = state(client, game_id)
    engine = Game.new(SEED, VARIANT)
    src, dst = choose(engine)
    expected = engine.move(src, dst)
    body = move(client, game_id, src, dst).json()
    assert body["move"]["path"] == [list(c) for c in expected.path]
    assert body["board"] == engine.board
    assert body["upcoming"] == list(engine.upcoming)
    assert body["version"] == s["version"] + 1


def _unchanged(client, game_id: int, before: dict) -> None:
    assert state(client, game_id) == before


def test_a_move_from_an_empty_cell_is_refused_and_changes_nothing(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    before = state(client, game_id)
    empty = next((r, c) for r in range(9) for c in range(9) if before["board"][r][c] is None)
    other = next((r, c) for r in range(9) for c in range(9)
                 if before["board"][r][c] is None and (r, c) != empty)
    response = move(client, game_id, empty, other)
    assert response.status_code == 422
    assert response.json()["error"] == "no_ball"
    _unchanged(client, game_id, before)


def test_a_move_onto_a_ball_is_refused_and_changes_nothing(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    before = state(client, game_id)
    balls = [(r, c) for r in range(9) for c in range(9) if before["board"][r][c] is not None]
    response = move(client, game_id, balls[0], balls[1])
    assert (response.status_code, response.json()["error"]) == (422, "taken")
    _unchanged(client, game_id, before)


def test_an_unreachable_cell_is_refused_with_a_message_and_changes_nothing(client) -> None:
    game_id = start_near_full(client, free=9)  # only the centre 3x3 block is empty
    before = state(client, game_id)
    response = move(client, game_id, (0, 0), (4, 4))
    assert response.status_code == 422
    assert response.json() == {"error": "unreachable",
                               "message": "That marble cannot get there."}
    html = client.post(f"/knikkers/games/{game_id}/move", data={"src": "0,0", "dst": "4,4"},
                       headers={**HTMX, "accept-language": "en"})
    assert html.status_code == 422
    assert 'data-refused-cell="4,4"' in html.text
    assert "That marble cannot get there." in html.text
    _unchanged(client, game_id, before)


def test_cells_off_the_board_or_malformed_are_refused(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    before = state(client, game_id)
    for src, dst in (("9,0", "0,0"), ("0,0", "0,-1"), ("a,b", "1,1"), ("", ""), ("1,1,1", "2,2")):
        response = client.post(f"/knikkers/games/{game_id}/move", data={"src": src, "dst": dst},
                               headers={"accept": "application/json"})
        assert response.status_code == 422, (src, dst)
        assert response.json()["error"] == "not_a_cell"
    _unchanged(client, game_id, before)


def test_undo_with_nothing_to_undo_is_refused_and_changes_nothing(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    before = state(client, game_id)
    response = undo(client, game_id)
    assert (response.status_code, response.json()["error"]) == (422, "nothing_to_undo")
    _unchanged(client, game_id, before)


def test_only_one_move_can_be_taken_back(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    engine = Game.new(SEED, VARIANT)
    for _ in range(2):
        src, dst = choose(engine)
        engine.move(src, dst)
        assert move(client, game_id, src, dst).status_code == 200
    assert undo(client, game_id).status_code == 200
    after_one_undo = state(client, game_id)
    response = undo(client, game_id)
    assert (response.status_code, response.json()["error"]) == (422, "nothing_to_undo")
    _unchanged(client, game_id, after_one_undo)


def test_move_then_undo_gives_back_exactly_the_position_before(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    before = state(client, game_id)
    src, dst = choose(engine_view(before))
    move(client, game_id, src, dst)
    undo(client, game_id)
    after = state(client, game_id)
    assert {k: v for k, v in after.items() if k != "version"} == {
        k: v for k, v in before.items() if k != "version"}
    assert after["version"] == before["version"] + 2
    again = move(client, game_id, src, dst).json()  # the same balls come on the same cells
    assert again["board"] == Game.replay(SEED, VARIANT, [("move", src, dst)]).board


def test_a_stale_version_is_refused_with_409(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    before = state(client, game_id)
    src, dst = choose(engine_view(before))
    response = move(client, game_id, src, dst, version=str(before["version"] + 1))
    assert (response.status_code, response.json()["error"]) == (409, "stale")
    _unchanged(client, game_id, before)
    assert move(client, game_id, src, dst, version=str(before["version"])).status_code == 200


def test_a_repeated_action_id_is_applied_once(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    before = state(client, game_id)
    src, dst = choose(engine_view(before))
    first = move(client, game_id, src, dst, action_id="a-1")
    second = move(client, game_id, src, dst, action_id="a-1")
    assert first.status_code == second.status_code == 200
    assert state(client, game_id)["version"] == before["version"] + 1
    assert second.json()["board"] == first.json()["board"]


def test_a_finished_game_refuses_every_action_with_409(client) -> None:
    game_id = start_near_full(client, free=3)
    s = state(client, game_id)
    src, dst = choose(engine_view(s))
    assert move(client, game_id, src, dst).json()["over"] is True
    done = state(client, game_id)
    for response in (undo(client, game_id), move(client, game_id, dst, src)):
        assert (response.status_code, response.json()["error"]) == (409, "over")
    _unchanged(client, game_id, done)


def test_an_htmx_move_returns_the_game_fragment_with_the_animation_data(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    src, dst = choose(Game.new(SEED, VARIANT))
    response = client.post(f"/knikkers/games/{game_id}/move",
                           data={"src": f"{src[0]},{src[1]}", "dst": f"{dst[0]},{dst[1]}"},
                           headers=HTMX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="kn-game"')
    assert "<html" not in response.text
    assert f'data-last-path="{src[0]},{src[1]}' in response.text


def test_a_plain_form_post_redirects_back_to_the_game(client) -> None:
    game_id = start(client, seed=SEED, variant=VARIANT)
    src, dst = choose(Game.new(SEED, VARIANT))
    response = client.post(f"/knikkers/games/{game_id}/move",
                           data={"src": f"{src[0]},{src[1]}", "dst": f"{dst[0]},{dst[1]}"},
                           follow_redirects=False)
    assert (response.status_code, response.headers["location"]) == (
        303, f"/knikkers/games/{game_id}")
