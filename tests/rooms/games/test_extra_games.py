"""The ``EXTRA_GAMES`` setting adds room games to the registry without editing it
(docs/architecture.md, "Adding a game"): its spelling, loading a class or an instance,
refusing what is not a plug-in or takes a kind that exists, an app whose settings name a game
the registry lacks, and a fresh process reading the setting from its environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from app.rooms.games import (
    BUILT_IN,
    GAMES,
    load_plugin,
    parse_spec,
    plugin_members,
    register,
    require_registered,
)
from app.rooms.games.knister import KnisterGame
from app.settings import ROOT, Settings

# This module is also loaded by the registry of a fresh process (``EXTRA_GAMES`` naming it):
# it imports no more of the app at its top than a game would (the app and the templates
# read the registry when imported).


class CopyOfKnister(KnisterGame):
    """Knister under another kind and folder: a plug-in this module offers to the loader."""

    kind = "knister_copy"
    folder = "knister_copy"


COPY = CopyOfKnister()
NOT_A_GAME = object()


def test_the_setting_names_modules_and_attributes() -> None:
    assert parse_spec("") == [] and parse_spec(" , ") == []
    assert parse_spec(" a.b:C ,d:e,") == [("a.b", "C"), ("d", "e")]
    for bad in ("a.b", "a.b:", ":C", "a:b:c"):
        with pytest.raises(ValueError, match="EXTRA_GAMES"):
            parse_spec(bad)


def test_a_class_is_instantiated_and_an_instance_taken_as_it_is() -> None:
    made = load_plugin(__name__, "CopyOfKnister")
    assert type(made) is CopyOfKnister and made is not COPY
    assert load_plugin(__name__, "COPY") is COPY
    with pytest.raises(TypeError, match="lacks .*actions") as error:
        load_plugin(__name__, "NOT_A_GAME")
    assert all(member in str(error.value) for member in ("template_dir", "decide", "bot"))
    with pytest.raises(AttributeError):
        load_plugin(__name__, "Nothing")
    with pytest.raises(ImportError):
        load_plugin("tests.no_such_module", "Game")


def test_every_member_of_the_protocol_is_required() -> None:
    assert {"kind", "folder", "template", "template_dir", "styles", "scripts", "bot",
            "decide", "apply", "parts", "view_group"} <= plugin_members()
    assert all(hasattr(plugin, m) for plugin in GAMES.values() for m in plugin_members())


def test_registering_refuses_a_kind_or_folder_that_exists() -> None:
    games = dict(BUILT_IN)
    register([COPY], games)
    assert list(games)[-1] == "knister_copy" and games["knister_copy"] is COPY
    with pytest.raises(ValueError, match="exists already"):
        register([CopyOfKnister()], games)
    with pytest.raises(ValueError, match="exists already"):
        register([KnisterGame()], dict(BUILT_IN))
    other = CopyOfKnister()
    other.kind = "another"
    with pytest.raises(ValueError, match="template folder"):
        register([other], games)
    assert "knister_copy" not in GAMES  # the registry itself is left alone


def test_an_app_whose_settings_name_an_unregistered_game_refuses_to_start(tmp_path) -> None:
    from app.main import create_app

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'x.sqlite3'}",
                        var_dir=tmp_path / "var", secret_key="k" * 32, environment="test",
                        gc_tuning=False, extra_games=f"{__name__}:COPY")
    with pytest.raises(RuntimeError, match="EXTRA_GAMES"):
        create_app(settings)
    require_registered("")  # the built-in games need nothing


def test_the_registry_reads_the_setting_in_a_fresh_process() -> None:
    from app.web.templating import TEMPLATE_DIR

    code = ("import json; from app.rooms.games import GAMES, require_registered; "
            f"require_registered('{__name__}:CopyOfKnister, {__name__}:COPY'); "
            "from app.web.templating import template_folders; "
            "print(json.dumps([list(GAMES), [str(f) for f in template_folders()]]))")
    env = {**os.environ, "EXTRA_GAMES": f"{__name__}:CopyOfKnister,{__name__}:COPY"}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode != 0  # two plug-ins of one kind: refused at import
    assert "the game kind 'knister_copy' exists already" in run.stderr
    env["EXTRA_GAMES"] = f"{__name__}:CopyOfKnister"
    code = code.replace(f", {__name__}:COPY", "")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    kinds, folders = json.loads(run.stdout)
    assert kinds == [*BUILT_IN, "knister_copy"]
    assert folders == [str(TEMPLATE_DIR)]  # that game keeps its templates in templates/


def test_a_game_with_its_own_templates_adds_its_folder_to_the_loader() -> None:
    from app.web.templating import TEMPLATE_DIR, template_folders

    folders = template_folders()
    assert folders[0] == TEMPLATE_DIR
    assert folders[1:] == [p.template_dir for p in GAMES.values() if p.template_dir is not None]
