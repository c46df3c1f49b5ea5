"""Comments and docstrings point only at what the repository holds (issue 26, "Names"): a
rule text is cited by its number with docs/rules.md ("rule text 004"), never as a file
outside the repository ("seed 004_….txt"), and no comment sends a reader to an issue."""

from __future__ import annotations

import re

from app.settings import ROOT

OUTSIDE = re.compile(r"\bseed 0\d\d\b|\b0\d\d_[0-9a-f]{16}\.txt|\bissue \d+", re.I)


def test_code_cites_docs_not_issues_or_files_outside_the_repository() -> None:
    found = []
    for folder in ("app", "templates", "static/js", "static/css"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in {".py", ".html", ".js", ".css"} or "vendor" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if OUTSIDE.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
