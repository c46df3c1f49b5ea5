"""No test can hang the run: pytest-timeout is on for the whole suite and stops stuck tests,
async ones (pytest-asyncio) included, and the run carries on with the next test."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

HANGING = '''
import asyncio
import time


async def test_async_hangs():
    await asyncio.sleep(120)


def test_sync_hangs():
    time.sleep(120)


async def test_async_after_the_hangs_runs():
    await asyncio.sleep(0)
'''


def test_the_suite_has_a_global_timeout(request) -> None:
    assert float(request.config.getini("timeout")) == 300
    assert request.config.getini("timeout_method") == "signal"


def test_a_hanging_test_fails_on_its_timeout_and_the_run_goes_on(tmp_path) -> None:
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
        "timeout = 2\ntimeout_method = signal\n")
    (tmp_path / "test_hanging.py").write_text(HANGING)
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c",
         str(tmp_path / "pytest.ini"), "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, timeout=100, cwd=tmp_path,
        env={**os.environ, "COLUMNS": "400"})  # summaries are cut to the terminal's width
    took = time.monotonic() - started
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 failed, 1 passed" in run.stdout, run.stdout
    for name in ("test_async_hangs", "test_sync_hangs"):  # (CI=true prints longer summaries)
        assert re.search(rf"FAILED \S*::{name} - Failed: Timeout \(>2\.0s\) from pytest-timeout",
                         run.stdout), run.stdout
    assert took < 60
