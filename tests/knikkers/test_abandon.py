"""Knikkers "New game" during a game with moves asks first; confirmed, that game is abandoned:
counted on the player page, never on the leaderboards (docs/rules.md, "End of game and
ranking")."""

from __future__ import annotations

import re

from tests.knikkers.helpers import (
    as_another_guest,
    choose,
    engine_view,
    move,
    player_of,
    ranks,
    start,
    state,
)


def _one_move(client, game_id: int) -> dict:
    s = state(client, game_id)
    assert move(client, game_id, *choose(engine_view(s))).status_code == 200
    return state(client, game_id)


def _stat(html: str, name: str) -> str:
    found = re.search(rf'data-stat="{name}">([^<]*)<', html)
    assert found is not None, name
    return found.group(1)


def test_new_game_during_a_game_with_moves_asks_first_and_changes_nothing(client) -> None:
    game_id = start(client, seed=2, variant=4)
    before = _one_move(client, game_id)
    asked = client.post(f"/knikkers/games/{game_id}/new", follow_redirects=False)
    assert asked.status_code == 200
    assert f'data-confirm-new="{game_id}"' in asked.text
    assert "Start a new game?" in asked.text
    assert f"({before['score']} points after 1 moves)" in asked.text
    assert 'name="confirm" value="abandon"' in asked.text
    assert f'href="/knikkers/games/{game_id}"' in asked.text  # back to it
    assert "<script>" not in asked.text and " onclick" not in asked.text  # no inline script
    assert state(client, game_id) == before
    resumed = client.get("/knikkers", follow_redirects=False)
    assert resumed.headers["location"].endswith(f"/knikkers/games/{game_id}")


def test_a_confirmed_new_game_abandons_the_game_counted_for_the_player_only(client) -> None:
    game_id = start(client, seed=2, variant=4)
    _one_move(client, game_id)
    me = player_of(client, game_id)
    new = client.post(f"/knikkers/games/{game_id}/new", data={"confirm": "abandon"},
                      follow_redirects=False)
    assert new.status_code == 303
    new_id = int(new.headers["location"].rsplit("/", 1)[1])
    assert new_id != game_id
    assert state(client, game_id)["status"] == "abandoned"
    assert state(client, new_id)["status"] == "playing"
    left = client.get(f"/knikkers/games/{game_id}", follow_redirects=False)
    assert (left.status_code, left.headers["location"]) == (303, "/knikkers")
    page = client.get(f"/players/{me}?variant=4").text
    assert (_stat(page, "abandoned"), _stat(page, "games")) == ("1", "0")
    assert "never on the leaderboards" in page
    assert ranks(client.get("/leaderboards/knikkers/4?mode=games").text) == []
    assert _stat(client.get(f"/players/{me}?variant=5").text, "abandoned") == "0"
    # confirming again changes nothing more: that game is no longer being played
    again = client.post(f"/knikkers/games/{game_id}/new", data={"confirm": "abandon"},
                        follow_redirects=False)
    assert again.status_code == 303
    assert _stat(client.get(f"/players/{me}?variant=4").text, "abandoned") == "1"


def test_new_game_before_any_move_neither_asks_nor_abandons(client) -> None:
    game_id = start(client, seed=2, variant=4)
    new = client.post(f"/knikkers/games/{game_id}/new", follow_redirects=False)
    assert new.status_code == 303
    assert state(client, game_id)["status"] == "playing"
    me = player_of(client, game_id)
    assert _stat(client.get(f"/players/{me}?variant=4").text, "abandoned") == "0"


def test_another_players_game_is_never_abandoned(client) -> None:
    game_id = start(client, seed=2, variant=4)
    before = _one_move(client, game_id)
    with as_another_guest(client):
        new = client.post(f"/knikkers/games/{game_id}/new", data={"confirm": "abandon"},
                          follow_redirects=False)
        assert new.status_code == 303
    assert state(client, game_id) == before
