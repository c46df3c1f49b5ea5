"""Fixtures of the bot tests: a folder with the solved Kniffel table, built once per run."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.engines.kniffel_optimal import rules_for, solve_table
from app.rooms.games.kniffel import KniffelGame
from app.strategy.tables import StrategyTables, room_house_rules, save_table


@pytest.fixture(scope="session")
def strategy_dir(tmp_path_factory) -> Path:
    """A strategy folder (``STRATEGY_DIR``) holding the table of a Kniffel room with default
    options, solved once per test run (about 3 s)."""
    folder = tmp_path_factory.mktemp("strategy")
    house = room_house_rules("kniffel", KniffelGame("kniffel").default_options())
    save_table(StrategyTables(folder).path("kniffel", **house), rules_for("kniffel", **house),
               solve_table(rules_for("kniffel", **house)))
    return folder
