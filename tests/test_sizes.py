"""Size limits of the application code (issue 15): no module in ``app/`` over 400 lines and no
class over 200 lines (a class's length: ``end_lineno - lineno + 1``, decorators excluded).
Bench scripts are outside ``app/`` and not checked."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"
MAX_MODULE_LINES = 400
MAX_CLASS_LINES = 200


def oversized(root: Path = APP) -> list[str]:
    """Every module over ``MAX_MODULE_LINES`` and class over ``MAX_CLASS_LINES`` under
    ``root``, as ``path: N lines`` / ``path:Class: N lines``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(root.parent).as_posix()
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            found.append(f"{name}: {lines} lines (module limit {MAX_MODULE_LINES})")
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if isinstance(node, ast.ClassDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_CLASS_LINES:
                    found.append(f"{name}:{node.name}: {length} lines "
                                 f"(class limit {MAX_CLASS_LINES})")
    return found


def test_no_module_or_class_over_the_limits() -> None:
    assert oversized() == []


def test_the_check_names_every_oversized_module_and_class(tmp_path: Path) -> None:
    package = tmp_path / "app"
    package.mkdir()
    big_class = "class Big:\n" + "    x = 1\n" * 200
    (package / "big.py").write_text(big_class + "y = 2\n" * 200)
    (package / "small.py").write_text("class Small:\n    x = 1\n")
    assert oversized(package) == [
        "app/big.py: 401 lines (module limit 400)",
        "app/big.py:Big: 201 lines (class limit 200)",
    ]
