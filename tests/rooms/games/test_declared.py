"""What each room game declares (``app.rooms.games.base.GamePlugin``) and what shared code
asks of it instead of naming a game: its own styles and scripts, loaded by its room pages
only; its templates; solo practice; seats without a phone; its bot. Every registered game is
checked, the ``EXTRA_GAMES`` ones too (tests/games/); what is said of the built-in games
alone is checked against ``BUILT_IN``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.rooms.games import BUILT_IN, GAMES
from app.settings import ROOT
from app.web.templating import TEMPLATE_DIR, templates

STATIC = Path(ROOT) / "static"
GAME_ASSETS = {path for plugin in GAMES.values() for path in (*plugin.styles, *plugin.scripts)}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_each_game_declares_assets_that_exist_and_its_capabilities(kind: str) -> None:
    plugin = GAMES[kind]
    assert plugin.kind == kind
    for path in (*plugin.styles, *plugin.scripts):  # a game may declare none
        assert (STATIC / path).is_file(), path
    assert isinstance(plugin.solo_practice, bool) and isinstance(plugin.pass_and_play, bool)
    state = plugin.new_state(plugin.default_options(), [1, 2], 0)
    assert all(seat in (1, 2) for seat in plugin.awaiting(state))


@pytest.mark.parametrize("kind", sorted(BUILT_IN))
def test_each_built_in_game_has_its_own_style_and_script(kind: str) -> None:
    plugin = BUILT_IN[kind]
    assert f"css/{plugin.folder}.css" in plugin.styles
    assert plugin.scripts == (f"js/games/{plugin.folder}.js",)
    assert plugin.template_dir is None


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_each_games_templates_are_found_in_its_template_folder(kind: str) -> None:
    """The room page includes ``rooms/<folder>/`` options, rules and the game's template and
    parts; a game with its own ``template_dir`` has them there (nothing of it is in the
    app's ``templates/``), a built-in one under ``templates/``."""
    plugin = GAMES[kind]
    base = TEMPLATE_DIR if plugin.template_dir is None else plugin.template_dir
    folder = f"rooms/{plugin.folder}"
    for name in (plugin.template, plugin.parts_template, f"{folder}/options.html",
                 f"{folder}/rules.html"):
        assert name.startswith(folder + "/"), name
        assert (base / name).is_file(), name
        assert templates.env.get_template(name).filename == str(base / name)
    if plugin.template_dir is not None:
        assert not (TEMPLATE_DIR / folder).exists()


def test_bots_play_exactly_the_games_that_declare_a_bot() -> None:
    from app.rooms.bots.identity import GAMES as BOT_GAMES

    assert BOT_GAMES == tuple(kind for kind, p in GAMES.items() if p.bot is not None)
    assert tuple(kind for kind in BOT_GAMES if kind in BUILT_IN) == (
        "knister", "kniffel", "kitkniff", "yatzy")


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
    assert [kind for kind in offered if kind in BUILT_IN] == ["kniffel", "kitkniff", "yatzy"]
    for kind, plugin in GAMES.items():
        page = client.post("/rooms", data={"game": kind, "name": "Ann"}).text
        assert ('data-action="add-table-seat"' in page) is plugin.pass_and_play, kind
