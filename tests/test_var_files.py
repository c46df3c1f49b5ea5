"""Files made once in ``VAR_DIR`` (``app.var_files``): processes that start at once all read
the first one written. Found in CI: two servers of one test started together, both wrote the
VAPID key through the same temporary file, and one exited at start; the secret key had the
same kind of race (each process could keep its own, and sessions signed by one failed on the
other)."""

from __future__ import annotations

import multiprocessing
import os
import secrets
import stat
from pathlib import Path

from app.push.keys import load_vapid, public_key
from app.settings import Settings
from app.var_files import create_once

PROCESSES = 8


def _race(target, var_dir: Path, start, results) -> None:  # in a child process
    start.wait()
    results.put(target(var_dir))


def _secret(var_dir: Path) -> str:
    return Settings(var_dir=var_dir, database_url="sqlite+aiosqlite:///:memory:").secret_key


def _vapid(var_dir: Path) -> str:
    return public_key(load_vapid("", var_dir))


def _made(var_dir: Path) -> bytes:
    return create_once(var_dir / "thing", lambda: secrets.token_bytes(32))


def _all_at_once(target, var_dir: Path) -> list:
    context = multiprocessing.get_context("fork")
    start, results = context.Event(), context.Queue()
    children = [context.Process(target=_race, args=(target, var_dir, start, results))
                for _ in range(PROCESSES)]
    for child in children:
        child.start()
    start.set()
    found = [results.get(timeout=30) for _ in children]
    for child in children:
        child.join(timeout=30)
        assert child.exitcode == 0
    return found


def test_processes_starting_at_once_read_the_same_file(tmp_path: Path) -> None:
    for target in (_made, _secret, _vapid):
        var_dir = tmp_path / target.__name__
        found = _all_at_once(target, var_dir)
        assert len(set(found)) == 1, found
        assert sorted(p.name for p in var_dir.iterdir() if p.name.endswith(".tmp")) == []


def test_a_file_made_once_is_private_and_never_replaced(tmp_path: Path) -> None:
    path = tmp_path / "var" / "thing"
    first = create_once(path, lambda: b"first")
    assert first == b"first" and create_once(path, lambda: b"second") == b"first"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    path.write_bytes(b"")  # an empty file (a crash while writing) is made again
    assert create_once(path, lambda: b"third") == b"third"
