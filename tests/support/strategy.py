"""Solved strategy tables for tests: each table a test session needs is built once, in this
process, into one shared folder (about 4-10 s each; app/strategy/build.py)."""

from __future__ import annotations

from pathlib import Path

from app.engines.kniffel_optimal import Strategy, rules_for
from app.strategy.build import build
from app.strategy.tables import load_table, table_name


class SharedTables:
    """A folder of built tables: ``folder`` (give it as ``Settings(strategy_dir=...)`` or
    ``STRATEGY_DIR``); ``ensure(ruleset, **house)`` builds a table unless it is there and
    returns its Strategy."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._loaded: dict[str, Strategy] = {}

    def ensure(self, ruleset: str = "kniffel", **house: bool) -> Strategy:
        """The strategy for ``ruleset`` and ``house`` rules, built on first use."""
        name = table_name(ruleset, **house)
        if name not in self._loaded:
            build(self.folder, ruleset, dict(house))
            rules = rules_for(ruleset, **house)
            table = load_table(self.folder / f"{name}.npz", rules)
            assert table is not None, f"{name} was not built"
            self._loaded[name] = Strategy(rules, table)
        return self._loaded[name]
