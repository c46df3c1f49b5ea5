"""Solved Kniffel-family strategy tables on disk (docs/rules.md, Kniffel family; the solver is
app/engines/kniffel_optimal.py).

One file per game and house rules, ``<folder>/<name>.npz`` (numpy), holding the value table and
the stamp it was solved for: a digest of the rules as Scorecard scores them and of the solver's
version. A file whose stamp differs from today's (rules or solver changed) is stale and is built
anew. Builds run in a separate, low-priority process (``python -m app.strategy.build``), so the
app serves games meanwhile; an exclusive lock on ``<name>.lock`` makes sure only one process
(of any app replica sharing the folder) builds a table at a time, and files are written
atomically (a temporary file, then a rename). The process that starts a build takes the lock
and hands it to the builder, so no other process can start a second build in between.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import IO, Literal

import numpy as np
import structlog

from app.engines.kniffel import RULESETS, HouseRules
from app.engines.kniffel_optimal import Rules, Strategy, rules_for

log = structlog.get_logger("knobel.strategy")
ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_HOUSE = asdict(HouseRules())
Status = Literal["ready", "building", "failed", "missing"]


def house_rules(ruleset: str, **house: bool) -> dict[str, bool]:
    """All three house-rule keywords with their values (defaults filled in); raises as
    Scorecard does (ValueError for an unknown ruleset or a non-bool, TypeError for a keyword)."""
    rules_for(ruleset, **house)
    return {**DEFAULT_HOUSE, **house}


def relevant_house_rules(ruleset: str) -> tuple[str, ...]:
    """The house-rule keywords that change this game (docs/rules.md, house rules): the joker
    and the extra bonus switch only where the ruleset has them."""
    game = RULESETS[ruleset]
    absent = {"joker": not game.joker, "extra_bonus": not game.extra_bonus_each}
    return tuple(key for key in DEFAULT_HOUSE if not absent.get(key, False))


def room_house_rules(ruleset: str, options: Mapping[str, object]) -> dict[str, bool]:
    """The house-rule keywords of a room's options that change this ruleset's game (see
    relevant_house_rules); options missing a switch keep the default."""
    return {key: bool(options[key]) for key in relevant_house_rules(ruleset) if key in options}


def table_name(ruleset: str, **house: bool) -> str:
    """File stem for a game: 'kniffel', 'kitkniff+no_joker+five_alike_full_house' (the
    relevant house rules that differ from the defaults, in HouseRules order). Raises as
    house_rules."""
    full = house_rules(ruleset, **house)
    changed = [(key if full[key] else "no_" + key)
               for key in relevant_house_rules(ruleset) if full[key] != DEFAULT_HOUSE[key]]
    return "+".join([ruleset, *changed])


def save_table(path: Path, rules: Rules, table: np.ndarray) -> None:
    """Write the table and its stamp to path atomically (temporary file in the same folder,
    fsync, rename): readers see the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            np.savez(out, table=table, stamp=np.array(rules.digest), name=np.array(rules.name))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load_table(path: Path, rules: Rules) -> np.ndarray | None:
    """The table in path if its stamp is rules.digest and its shape fits; None when the file is
    missing, stale or unreadable."""
    try:
        with np.load(path) as data:
            if str(data["stamp"]) != rules.digest:
                return None
            table = data["table"]
    except (FileNotFoundError, KeyError, ValueError, OSError, zipfile.BadZipFile):
        return None
    return table if table.shape == rules.shape and table.dtype == np.float64 else None


def lock_path(path: Path) -> Path:
    """The build lock file of the table at path: ``<stem>.lock`` beside it."""
    return path.with_suffix(".lock")


def try_lock(path: Path) -> IO[str] | None:
    """Take the exclusive build lock of the table at path without waiting: the open lock file
    (closing it releases the lock, as does the end of every process sharing it), or None when
    another process holds the lock."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(lock_path(path), "a")  # noqa: SIM115 - returned to the caller
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


@contextmanager
def waiting_lock(path: Path) -> Iterator[None]:
    """Hold the exclusive build lock of the table at path, waiting for it as long as needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path(path), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


class StrategyTables:
    """Optimal strategies for the app, one per game and house rules, from files in folder.

    Args: folder (e.g. VAR_DIR/strategy; created when needed); python, the interpreter that runs
    builds (default: this one); retry_after, seconds before a failed build is tried again.
    Thread-safe. Owns the build processes it starts: close() stops them (by pid).
    """

    def __init__(self, folder: Path, *, python: str = sys.executable,
                 retry_after: float = 60.0) -> None:
        self.folder = Path(folder)
        self._python = python
        self._retry_after = retry_after
        self._lock = threading.Lock()
        self._loaded: dict[str, Strategy] = {}
        self._builds: dict[str, subprocess.Popen[bytes]] = {}
        self._failed_at: dict[str, float] = {}

    def path(self, ruleset: str, **house: bool) -> Path:
        """Where the table for this game lives."""
        return self.folder / f"{table_name(ruleset, **house)}.npz"

    def get(self, ruleset: str, **house: bool) -> Strategy | None:
        """The strategy for a game (a RULESETS name and Scorecard's house-rule keywords), or
        None while its table is being built: then a build is started in the background if none
        runs (in this or another process), and this call returns at once. Loading a finished
        file takes ~10-50 ms. Raises ValueError/TypeError for an unknown game or keyword.
        """
        name = table_name(ruleset, **house)
        with self._lock:
            strategy = self._loaded.get(name)
            if strategy is None:
                strategy = self._load(name, ruleset, house)
            if strategy is None:
                self._start_build(name, ruleset, house)
            return strategy

    def for_options(self, ruleset: str, options: Mapping[str, object]) -> Strategy | None:
        """The strategy for a room's game: ``ruleset`` (a RULESETS name) and the room's options
        (the house-rule switches ``joker``, ``five_alike_full_house``, ``extra_bonus`` are taken
        from it where the ruleset has them; other options are ignored). None while building,
        as ``get``."""
        return self.get(ruleset, **room_house_rules(ruleset, options))

    def status(self, ruleset: str, **house: bool) -> Status:
        """'ready' (loaded or on disk and current), 'building' (here or in another process),
        'failed' (the last build started here failed, less than retry_after ago) or 'missing'
        (no current table and no build yet: get() starts one). Never starts a build."""
        name = table_name(ruleset, **house)
        with self._lock:
            self._reap(name)
            if name in self._loaded or self._load(name, ruleset, house) is not None:
                return "ready"
            if name in self._builds:
                return "building"
            probe = try_lock(self.folder / f"{name}.npz")
            if probe is None:
                return "building"
            probe.close()
            return "failed" if name in self._failed_at else "missing"

    def close(self) -> None:
        """Stop the builds this object started (SIGTERM, then SIGKILL after 5 s) and wait."""
        with self._lock:
            builds, self._builds = list(self._builds.values()), {}
        for process in builds:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

    def _load(self, name: str, ruleset: str, house: Mapping[str, bool]) -> Strategy | None:
        """Load a current table from disk into the cache; None when there is none."""
        rules = rules_for(ruleset, **house)
        table = load_table(self.folder / f"{name}.npz", rules)
        if table is None:
            return None
        strategy = self._loaded[name] = Strategy(rules, table)
        return strategy

    def _reap(self, name: str) -> None:
        """Forget a finished build of name; remember when one failed."""
        process = self._builds.get(name)
        if process is not None and process.poll() is not None:
            del self._builds[name]
            if process.returncode != 0:
                self._failed_at[name] = time.monotonic()
                log.warning("strategy build failed", table=name, code=process.returncode,
                            log=str(self.folder / f"{name}.log"))

    def _start_build(self, name: str, ruleset: str, house: Mapping[str, bool]) -> None:
        """Start `python -m app.strategy.build` for one table unless a build runs or failed
        recently. Its output goes to <folder>/<name>.log."""
        self._reap(name)
        failed = self._failed_at.get(name)
        if name in self._builds or (failed and time.monotonic() - failed < self._retry_after):
            return
        lock = try_lock(self.folder / f"{name}.npz")
        if lock is None:
            return  # another process builds it
        # The builder inherits the locked file, so the lock is never free in between.
        command = [self._python, "-m", "app.strategy.build", "--folder", str(self.folder),
                   "--background", "--lock-fd", str(lock.fileno()),
                   "--game", ruleset, "--house", json.dumps(dict(house))]
        with lock, open(self.folder / f"{name}.log", "ab") as output:
            self._builds[name] = subprocess.Popen(
                command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=output, stderr=output,
                pass_fds=(lock.fileno(),))
        self._failed_at.pop(name, None)
        log.info("strategy build started", table=name, pid=self._builds[name].pid)
