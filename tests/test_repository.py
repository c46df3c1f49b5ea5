"""Repository hygiene: no third-party front-end files in git, no CDN references."""

from __future__ import annotations

import re
import subprocess

from app.settings import ROOT

CDN = re.compile(r"(unpkg\.com|cdn\.jsdelivr|cdnjs\.|(?<!fcm\.)googleapis\.com|cdn\.)", re.I)
"""Front-end files served from elsewhere. ``fcm.googleapis.com`` is Chrome's push service,
which the server posts notifications to (app/push/endpoints.py), not a file a page loads."""


def _tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line]


def test_no_vendored_front_end_files_in_git() -> None:
    tracked = _tracked()
    assert not [p for p in tracked if p.startswith(("static/vendor/", "node_modules/"))]
    assert not [p for p in tracked if re.search(r"htmx(\.min)?\.js$", p)]


def test_the_cdn_pattern_tells_a_cdn_from_the_push_service() -> None:
    assert CDN.search("https://fonts.googleapis.com/css2") and CDN.search("ajax.googleapis.com")
    assert not CDN.search("https://fcm.googleapis.com/fcm/send/x")


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
