"""mypy checks ``app/`` with the settings in pyproject.toml ([tool.mypy]): no errors, so CI
(which runs the suite) fails on a type error as ``make lint`` does."""

from __future__ import annotations

import subprocess
import sys

from app.settings import ROOT


def test_mypy_finds_no_errors_in_app() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
