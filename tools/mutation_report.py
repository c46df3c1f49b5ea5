"""Which mutants ``make mutate`` runs, and its kill rate per module (docs/testing.md).

    python tools/mutation_report.py [MODULE]             one line per module: killed / total / rate
    python tools/mutation_report.py --patterns [MODULE]  the mutant names to pass to ``mutmut run``

``MODULE``: a path (``app/rooms/rules.py``) or a dotted name (``app.rooms.rules``) from
``TARGETS``; without it, every module there. The results are read from mutmut's files
(``mutants/<path>.meta``, written by ``mutmut run``). A mutant counts as killed when a test
failed on it or it ran out of time (an endless loop the tests caught); "no tests" (no fast test
reaches the function) and "survived" count against the rate.

For a game plug-in only its ``decide`` counts, with the functions and methods of the same
module it reaches (found in the source: calls and references to module functions and to
``self.<method>``); the plug-in's other methods are neither run nor counted.
"""

from __future__ import annotations

import ast
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"

# mutmut's exit codes (mutmut/stats.py, "status_by_exit_code", version 3.8.1).
KILLED = {1: "killed", 3: "killed", 36: "timeout", -24: "timeout", 24: "timeout",
          152: "timeout", 255: "timeout", -9: "timeout", -11: "segfault"}
OTHER = {0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", 35: "suspicious",
         37: "type check", 2: "interrupted", None: "not checked"}


@dataclass(frozen=True)
class Target:
    """A module whose mutants are counted: ``path`` (from the repository root) and, when only
    part of it counts, ``root`` (``Class.method`` or ``function``) whose reach is counted."""

    path: str
    root: str | None = None

    @property
    def module(self) -> str:
        """The dotted module name mutmut prefixes its mutant names with."""
        return self.path.removesuffix(".py").replace("/", ".")


TARGETS = (
    Target("app/rooms/rules.py"),
    Target("app/rooms/room_actions.py"),
    Target("app/rooms/pass_and_play.py"),
    Target("app/rooms/bots/control.py"),
    Target("app/live/origin.py"),
    Target("app/live/presence.py"),
    Target("app/live/idle.py"),
    Target("app/web/ratelimit.py"),
    Target("app/knikkers/disclosure.py"),
    Target("app/rooms/games/knister/plugin.py", "KnisterGame.decide"),
    Target("app/rooms/games/kniffel/plugin.py", "KniffelGame.decide"),
    Target("app/rooms/games/knikkers_race/plugin.py", "KnikkersRaceGame.decide"),
)


def _functions(tree: ast.Module) -> dict[str, ast.AST]:
    """``name`` -> node for module functions, ``Class.name`` -> node for methods."""
    found: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    found[f"{node.name}.{item.name}"] = item
    return found


def reach(source: str, root: str) -> set[str]:
    """The functions of ``source`` that ``root`` reaches: itself, the module functions it
    names and the methods of its class it names through ``self``, transitively."""
    functions = _functions(ast.parse(source))
    if root not in functions:
        raise SystemExit(f"{root} is not a function of this module")
    seen: set[str] = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        cls = name.rpartition(".")[0]
        for node in ast.walk(functions[name]):
            if isinstance(node, ast.Name) and node.id in functions:
                todo.append(node.id)
            elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id == "self" and f"{cls}.{node.attr}" in functions):
                todo.append(f"{cls}.{node.attr}")
    return seen


def mangled(target: Target, name: str) -> str:
    """mutmut's name of function ``name`` (``f`` or ``Class.f``) of ``target``."""
    cls, _, func = name.rpartition(".")
    return f"{target.module}.x\u01c1{cls}\u01c1{func}" if cls else f"{target.module}.x_{func}"


def scope(target: Target) -> set[str] | None:
    """mutmut's names of the functions that count, or None when the whole module does."""
    if target.root is None:
        return None
    source = (ROOT / target.path).read_text(encoding="utf-8")
    return {mangled(target, name) for name in reach(source, target.root)}


def patterns(target: Target) -> list[str]:
    """Mutant-name patterns for ``mutmut run`` covering what counts of ``target``."""
    names = scope(target)
    if names is None:
        return [f"{target.module}.*"]
    return sorted(f"{name}__mutmut_*" for name in names)


def results(target: Target) -> Counter[str]:
    """Status -> number of mutants of ``target`` that count (from its ``.meta`` file)."""
    meta = MUTANTS / f"{target.path}.meta"
    if not meta.exists():
        return Counter()
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    names = scope(target)
    counts: Counter[str] = Counter()
    for key, code in codes.items():
        if names is not None and key.partition("__mutmut_")[0] not in names:
            continue
        counts[KILLED.get(code) or OTHER.get(code, "suspicious")] += 1
    return counts


def line(target: Target) -> str:
    """``path  killed / total  rate  (the other statuses)`` for ``target``."""
    counts = results(target)
    total = sum(counts.values())
    killed = sum(counts[status] for status in set(KILLED.values()))
    label = target.path + (f" ({target.root})" if target.root else "")
    if not total:
        return f"{label:<58} no results (run make mutate MODULE={target.path})"
    rest = ", ".join(f"{status} {n}" for status, n in sorted(counts.items())
                     if status not in KILLED.values())
    return (f"{label:<58} {killed:>4} / {total:<4} {100 * killed / total:5.1f}%"
            + (f"  ({rest})" if rest else ""))


def selected(argument: str | None) -> list[Target]:
    """The targets named by ``argument`` (a path or dotted module name), or all of them."""
    if not argument:
        return list(TARGETS)
    wanted = argument.removesuffix(".py").replace("/", ".")
    chosen = [t for t in TARGETS if t.module == wanted]
    if not chosen:
        raise SystemExit(f"{argument} is not one of: " + ", ".join(t.path for t in TARGETS))
    return chosen


def main(argv: list[str]) -> None:
    """Print the patterns (``--patterns``) or the kill-rate table."""
    show_patterns = "--patterns" in argv
    rest = [a for a in argv if a != "--patterns"]
    targets = selected(rest[0] if rest else None)
    if show_patterns:
        print(" ".join(p for t in targets for p in patterns(t)))
        return
    print(f"{'module':<58} {'killed / total':>11}   rate")
    for target in targets:
        print(line(target))


if __name__ == "__main__":
    main(sys.argv[1:])
