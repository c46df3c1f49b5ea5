"""Strategy tables on disk, built in the background (app/strategy/tables.py, build.py).

Real builds in real processes: Kniffel is solved twice here (about 4 s of one core each).
"""

import shutil
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

from app.engines.kniffel_optimal import rules_for
from app.strategy import build
from app.strategy.tables import StrategyTables, load_table, save_table, table_name
from tests.support.waiting import until

KNIFFEL_EXPECTED = 250.099292  # tests/engines/test_kniffel_optimal.py, docs/rules.md


def builders(folder: Path) -> list[psutil.Process]:
    """Build processes of this test process that write into folder."""
    found = []
    for child in psutil.Process().children():
        try:
            command = child.cmdline()
        except psutil.NoSuchProcess:
            continue
        if "app.strategy.build" in command and str(folder) in command:
            found.append(child)
    return found


def wait_ready(tables: StrategyTables, ruleset: str, timeout: float = 240.0, **house):
    """Poll get() until the table is there (a bounded wait, failing with the status)."""
    def built():
        strategy = tables.get(ruleset, **house)
        assert strategy is not None or tables.status(ruleset, **house) == "building"
        return strategy
    return until(built, f"the {ruleset} table is built", timeout, every=0.1)


@pytest.fixture
def tables(tmp_path):
    owned = StrategyTables(tmp_path / "strategy")
    yield owned
    owned.close()


@pytest.fixture(scope="module")
def built_folder(tmp_path_factory) -> Path:
    """A folder holding a finished Kniffel table, built as the app would build it."""
    folder = tmp_path_factory.mktemp("built") / "strategy"
    tables = StrategyTables(folder)
    try:
        wait_ready(tables, "kniffel")
    finally:
        tables.close()
    return folder


def test_table_names_show_the_house_rules_that_change_the_game():
    assert table_name("kniffel") == "kniffel"
    assert table_name("kitkniff", joker=False, extra_bonus=False) == \
        "kitkniff+no_joker+no_extra_bonus"
    assert table_name("yatzy", joker=False, five_alike_full_house=True) == \
        "yatzy+five_alike_full_house"  # Yatzy has no joker to switch off
    with pytest.raises(ValueError):
        table_name("yahtzee")


def test_a_missing_table_starts_one_build_and_get_returns_none_at_once(tables):
    assert tables.status("kniffel") == "missing"
    start = time.perf_counter()
    assert tables.get("kniffel") is None
    assert time.perf_counter() - start < 1.0  # the solve itself takes seconds
    assert tables.status("kniffel") == "building"
    assert len(builders(tables.folder)) == 1
    # a second app process sharing the folder sees the build and starts none of its own
    replica = StrategyTables(tables.folder)
    assert replica.get("kniffel") is None
    assert replica.status("kniffel") == "building"
    assert len(builders(tables.folder)) == 1
    tables.close()
    assert builders(tables.folder) == []


def test_a_finished_table_is_loaded_by_a_new_instance_without_a_build(built_folder):
    tables = StrategyTables(built_folder)
    start = time.perf_counter()
    strategy = tables.get("kniffel")
    assert strategy is not None and time.perf_counter() - start < 1.0
    assert strategy.expected_score == pytest.approx(KNIFFEL_EXPECTED, abs=1e-6)
    assert tables.status("kniffel") == "ready"
    assert builders(built_folder) == []
    assert tables.get("kniffel") is strategy


def test_a_stale_stamp_triggers_a_rebuild(built_folder, tmp_path):
    rules = rules_for("kniffel")
    table = load_table(built_folder / "kniffel.npz", rules)
    folder = tmp_path / "strategy"
    stale = rules_for("kniffel", extra_bonus=False)  # another digest: rules changed since
    save_table(folder / "kniffel.npz", stale, table)
    tables = StrategyTables(folder)
    try:
        assert tables.status("kniffel") == "missing"
        assert tables.get("kniffel") is None
        assert len(builders(folder)) == 1
        strategy = wait_ready(tables, "kniffel")
    finally:
        tables.close()
    assert strategy.expected_score == pytest.approx(KNIFFEL_EXPECTED, abs=1e-6)
    assert np.array_equal(load_table(folder / "kniffel.npz", rules), table)


def test_a_failed_build_is_reported_and_retried_only_after_a_while(tmp_path):
    tables = StrategyTables(tmp_path / "strategy", python=shutil.which("false"), retry_after=3600)
    try:
        assert tables.get("yatzy") is None
        until(lambda: tables.status("yatzy") != "building", "the yatzy build ends", 30)
        assert tables.status("yatzy") == "failed"
        assert tables.get("yatzy") is None
        assert tables.status("yatzy") == "failed"  # no new build started
    finally:
        tables.close()


def test_the_builder_skips_a_current_table(built_folder):
    assert build.build(built_folder, "kniffel", {}) is None


def test_every_game_covers_each_house_rule_variant_once():
    names = [table_name(ruleset, **house) for ruleset, house in build.every_game()]
    assert names[:3] == ["kniffel", "kitkniff", "yatzy"]
    assert len(names) == len(set(names)) == 8 + 8 + 2
