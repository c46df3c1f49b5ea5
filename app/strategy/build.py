"""Build Kniffel-family strategy tables: ``make strategy`` (or ``python -m app.strategy.build``).

Without --game: every game and house-rule variant the rooms offer, the three defaults first,
into VAR_DIR/strategy (see app/strategy/tables.py); tables already current are skipped.
With --game/--house: one table (how StrategyTables builds in the background, with --background
for a low CPU priority). Waits for a build of the same table in another process, then skips it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from pathlib import Path

from app.engines.kniffel_optimal import rules_for, solve_table
from app.strategy.tables import (
    DEFAULT_HOUSE,
    load_table,
    relevant_house_rules,
    save_table,
    table_name,
    waiting_lock,
)

DEFAULT_GAMES = ("kniffel", "kitkniff", "yatzy")


def every_game() -> Iterator[tuple[str, dict[str, bool]]]:
    """(ruleset, house rules) of every table the rooms can ask for: the defaults first, then
    each combination of the relevant house rules."""
    for ruleset in DEFAULT_GAMES:
        yield ruleset, {}
    for ruleset in DEFAULT_GAMES:
        keys = relevant_house_rules(ruleset)
        for values in itertools.product((True, False), repeat=len(keys)):
            house = dict(zip(keys, values, strict=True))
            if house != {key: DEFAULT_HOUSE[key] for key in keys}:
                yield ruleset, house


def build(folder: Path, ruleset: str, house: dict[str, bool], locked: bool = False) -> float | None:
    """Solve and save one table unless a current one is there. Takes the table's build lock
    first (waiting for any other builder) unless locked says this process holds it already.
    Returns the seconds spent solving, or None when skipped."""
    path = folder / f"{table_name(ruleset, **house)}.npz"
    with nullcontext() if locked else waiting_lock(path):
        rules = rules_for(ruleset, **house)
        if load_table(path, rules) is not None:
            return None
        start = time.perf_counter()
        table = solve_table(rules)
        seconds = time.perf_counter() - start
        save_table(path, rules, table)
    return seconds


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: see the module docstring and --help."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, help="default: VAR_DIR/strategy")
    parser.add_argument("--game", choices=DEFAULT_GAMES, help="build only this game")
    parser.add_argument("--house", default="{}", help='house rules as JSON, e.g. {"joker": false}')
    parser.add_argument("--defaults-only", action="store_true", help="only the three defaults")
    parser.add_argument("--background", action="store_true", help="run at a low CPU priority")
    parser.add_argument("--lock-fd", type=int, help="an inherited descriptor holding the lock")
    args = parser.parse_args(argv)
    if args.lock_fd is not None and not args.game:
        parser.error("--lock-fd needs --game")
    if args.background:
        os.nice(10)
        # stopped by StrategyTables.close(): exit through Python so temporary files go away
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    folder = args.folder
    if folder is None:
        from app.settings import Settings

        folder = Settings().var_dir / "strategy"
    if args.game:
        games = [(args.game, json.loads(args.house))]
    else:
        games = list(every_game())[: len(DEFAULT_GAMES) if args.defaults_only else None]
    for ruleset, house in games:
        seconds = build(folder, ruleset, house, locked=args.lock_fd is not None)
        name = table_name(ruleset, **house)
        table = load_table(folder / f"{name}.npz", rules_for(ruleset, **house))
        expected = "" if table is None else f"expected score {table[-1, 0, 0]:.7f}, "
        done = "already current" if seconds is None else f"solved in {seconds:.1f} s"
        print(f"{name:<56} {expected}{done}", flush=True)


if __name__ == "__main__":
    main()
