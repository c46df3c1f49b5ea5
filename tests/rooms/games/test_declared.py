"""What each room game declares (``app.rooms.games.base.GamePlugin``) and what shared code
asks of it instead of naming a game: its own styles and scripts, loaded by its room pages
only; solo practice; seats without a phone (issue 26: a game is one package)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.rooms.games import GAMES
from app.settings import ROOT

STATIC = Path(ROOT) / "static"
GAME_ASSETS = {path for plugin in GAMES.values() for path in (*plugin.styles, *plugin.scripts)}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_each_game_declares_its_own_assets_and_capabilities(kind: str) -> None:
    plugin = GAMES[kind]
    assert plugin.styles and plugin.scripts
    for path in (*plugin.styles, *plugin.scripts):
        assert (STATIC / path).is_file(), path
    assert f"css/{plugin.folder}.css" in plugin.styles
    assert plugin.scripts == (f"js/games/{plugin.folder}.js",)
    assert isinstance(plugin.solo_practice, bool) and isinstance(plugin.pass_and_play, bool)
    state = plugin.new_state(plugin.default_options(), [1, 2], 0)
    assert all(seat in (1, 2) for seat in plugin.awaiting(state))


def test_bots_play_exactly_the_games_that_declare_a_bot() -> None:
    from app.rooms.bots.identity import GAMES as BOT_GAMES

    assert BOT_GAMES == tuple(kind for kind, p in GAMES.items() if p.bot is not None)
    assert BOT_GAMES == ("knister", "kniffel", "kitkniff", "yatzy")


def test_the_shared_room_script_names_no_game() -> None:
    app_js = (STATIC / "js" / "app.js").read_text()
    assert not re.search(r"kniffel|knister|knikkers|data-box|data-cell", app_js, re.I)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_room_page_loads_its_games_assets_and_no_other_games(client, kind: str) -> None:
    r = client.post("/rooms", data={"game": kind, "name": "Ann"})
    assert r.status_code == 200, r.text
    plugin = GAMES[kind]
    linked = set(re.findall(r'(?:href|src)="[^"]*?/static/((?:css|js/games)/[\w./-]+?)'
                            r'(?:\?[^"]*)?"', r.text))
    assert set(plugin.styles) | set(plugin.scripts) <= linked
    assert linked & GAME_ASSETS == set(plugin.styles) | set(plugin.scripts)


def test_solo_practice_and_seats_without_a_phone_follow_the_declarations(client) -> None:
    home = client.get("/").text
    offered = re.findall(r'data-play-alone="(\w+)"', home)
    assert offered == [kind for kind, p in GAMES.items() if p.solo_practice]
    assert offered == ["kniffel", "kitkniff", "yatzy"]
    for kind, plugin in GAMES.items():
        page = client.post("/rooms", data={"game": kind, "name": "Ann"}).text
        assert ('data-action="add-table-seat"' in page) is plugin.pass_and_play, kind
