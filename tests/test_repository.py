"""Repository hygiene: no third-party front-end files in git, no CDN references."""

from __future__ import annotations

import re
import subprocess

from app.settings import ROOT

CDN = re.compile(r"(unpkg\.com|cdn\.jsdelivr|cdnjs\.|googleapis\.com|cdn\.)", re.I)


def _tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line]


def test_no_vendored_front_end_files_in_git() -> None:
    tracked = _tracked()
    assert not [p for p in tracked if p.startswith(("static/vendor/", "node_modules/"))]
    assert not [p for p in tracked if re.search(r"htmx(\.min)?\.js$", p)]


def test_no_cdn_reference_in_templates_static_or_code() -> None:
    hits = []
    for rel in _tracked():
        if rel.startswith(("templates/", "static/", "app/")) and rel.endswith(
            (".html", ".js", ".css", ".py")
        ):
            text = (ROOT / rel).read_text(encoding="utf-8", errors="ignore")
            if CDN.search(text):
                hits.append(rel)
    assert hits == []
