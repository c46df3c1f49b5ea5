"""import-linter keeps the layers of ``[tool.importlinter]`` in pyproject.toml (the engines
import nothing of the app and no framework; the rooms neither the live hub nor the web layer;
the live hub and the talk service no web layer):
CI's suite fails on a broken contract as ``make lint`` does."""

from __future__ import annotations

import subprocess
from pathlib import Path

from app.settings import ROOT


def test_every_import_contract_is_kept() -> None:
    lint = Path(ROOT) / ".venv" / "bin" / "lint-imports"
    run = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 kept, 0 broken" in run.stdout, run.stdout


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
