"""import-linter keeps the layers of ``[tool.importlinter]`` in pyproject.toml (the engines
import nothing of the app and no framework; the rooms neither the live hub nor the web layer;
the live hub and the talk service no web layer; shared code imports no game package, only
the registry does; the game packages are independent and import engines and the game base
only): CI's suite fails on a broken contract as ``make lint`` does."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

from app.settings import ROOT

CONTRACTS = tomllib.loads((Path(ROOT) / "pyproject.toml").read_text())[
    "tool"]["importlinter"]["contracts"]
GAME_BASE = {"app.rooms.games", "app.engines", "app.i18n", "app.errors", "app.locale"}
"""What a game package may import of the app (app.rooms.games: the base, the capabilities,
real dice; app.locale holds no code)."""


def test_every_import_contract_is_kept() -> None:
    lint = Path(ROOT) / ".venv" / "bin" / "lint-imports"
    run = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(CONTRACTS)} kept, 0 broken" in run.stdout, run.stdout
    assert len(CONTRACTS) == 6


def _contract(name_start: str) -> dict:
    return next(c for c in CONTRACTS if c["name"].startswith(name_start))


def test_the_game_contracts_name_every_game_package() -> None:
    """Every package under app/rooms/games is a game, protected and independent: a new game
    is covered by the contracts as soon as it is listed (and this test says so)."""
    games = Path(ROOT) / "app" / "rooms" / "games"
    packages = sorted(f"app.rooms.games.{p.name}" for p in games.iterdir()
                      if (p / "__init__.py").is_file())
    assert packages == sorted(_contract("Shared code imports no game")["protected_modules"])
    assert packages == sorted(_contract("The game packages are independent")["modules"])
    assert packages == sorted(_contract("A game package imports")["source_modules"])


def test_a_game_package_may_import_only_engines_and_the_game_base() -> None:
    """The forbidden list of "A game package imports engines and the game base only" names
    every module of the app besides the game base: a module added later is forbidden too
    once listed, and this test fails until it is."""
    app = Path(ROOT) / "app"

    def modules(folder: Path, prefix: str) -> set[str]:
        return {f"{prefix}.{p.stem}" for p in folder.iterdir()
                if p.suffix == ".py" and p.stem != "__init__"
                or p.is_dir() and (p / "__init__.py").is_file()}

    everything = modules(app, "app") | modules(app / "rooms", "app.rooms")
    allowed = GAME_BASE | {"app.rooms"}
    forbidden = set(_contract("A game package imports")["forbidden_modules"])
    assert everything - allowed - forbidden == set()
    assert {"fastapi", "starlette", "sqlalchemy", "jinja2", "redis"} <= forbidden


def test_shared_code_importing_a_game_package_breaks_the_contract(tmp_path) -> None:
    """The protected contract is not empty: a web module importing a game's module directly
    is reported; the registry importing it is fine."""
    package = tmp_path / "app"
    for folder in ("", "web", "rooms", "rooms/games", "rooms/games/dice_game"):
        (package / folder).mkdir(parents=True, exist_ok=True)
        (package / folder / "__init__.py").write_text("")
    (package / "rooms" / "games" / "__init__.py").write_text(
        "from app.rooms.games.dice_game import rules\n")
    (package / "rooms" / "games" / "dice_game" / "rules.py").write_text("")
    (package / "web" / "page.py").write_text("from app.rooms.games.dice_game import rules\n")
    config = tmp_path / ".importlinter"
    config.write_text("[importlinter]\nroot_package = app\n\n"
                      "[importlinter:contract:games]\nname = games\ntype = protected\n"
                      "protected_modules = app.rooms.games.dice_game\n"
                      "allowed_importers = app.rooms.games\n")
    lint = Path(ROOT) / ".venv" / "bin" / "lint-imports"
    run = subprocess.run([str(lint), "--no-cache", "--config", str(config)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300,
                         env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 1, run.stdout + run.stderr
    assert "app.web.page -> app.rooms.games.dice_game.rules" in run.stdout, run.stdout
    assert "app.rooms.games ->" not in run.stdout, run.stdout


def test_a_forbidden_import_breaks_the_engines_contract(tmp_path) -> None:
    """The contract is not empty: an engine module that imports the store is reported."""
    package = tmp_path / "app"
    (package / "engines").mkdir(parents=True)
    (package / "store").mkdir()
    for init in (package, package / "engines", package / "store"):
        (init / "__init__.py").write_text("")
    (package / "engines" / "dice.py").write_text("from app.store import db\n")
    (package / "store" / "db.py").write_text("")
    config = tmp_path / ".importlinter"
    config.write_text("[importlinter]\nroot_package = app\n\n"
                      "[importlinter:contract:engines]\nname = engines\ntype = forbidden\n"
                      "source_modules = app.engines\nforbidden_modules = app.store\n")
    lint = Path(ROOT) / ".venv" / "bin" / "lint-imports"
    run = subprocess.run([str(lint), "--no-cache", "--config", str(config)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300,
                         env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 1, run.stdout + run.stderr
    assert "app.engines.dice -> app.store" in run.stdout, run.stdout


def import_cycles(package: str) -> list[list[str]]:
    """The import cycles among the modules of ``package`` (each a strongly connected group of
    two or more modules, direct imports, ``TYPE_CHECKING`` ones included), from grimp's graph
    (the one import-linter builds)."""
    import grimp

    graph = grimp.build_graph(package, cache_dir=None)
    modules = sorted(graph.modules)
    edges = {m: {i for i in graph.find_modules_directly_imported_by(m) if i != m}
             for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in edges.get(module, ()):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in modules:
        if module not in index:
            visit(module)
    return groups


def test_the_app_has_no_import_cycles() -> None:
    """No module of the app imports, even through others or under ``TYPE_CHECKING``, one
    that imports it back (issue 26: "zero cycles")."""
    assert import_cycles("app") == []


def test_an_import_cycle_is_found(tmp_path, monkeypatch) -> None:
    """The check is not empty: two modules importing each other (one only for typing) are
    reported."""
    package = tmp_path / "cyc"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from cyc import b\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\n"
                                  "if TYPE_CHECKING:\n    from cyc import a\n")
    (package / "c.py").write_text("from cyc import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles("cyc") == [["cyc.a", "cyc.b"]]
