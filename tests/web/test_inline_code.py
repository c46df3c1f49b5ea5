"""No inline code in what the app sends, so that its Content-Security-Policy (no
``unsafe-inline``, no ``unsafe-eval``: app/web/security_headers.py) holds: the templates, the
HTML built in Python (its string literals) and the markup our scripts build carry no
``<style>``, no ``<script>`` without ``src``, no ``on…=`` handler, no ``style=`` attribute and
no ``javascript:`` URL; our scripts neither ``eval`` nor set a style or handler attribute."""

from __future__ import annotations

import ast
import io
import re
import tokenize

from app.settings import ROOT
from app.web.templating import template_folders

MARKUP = {
    "<style> element": re.compile(r"<style\b", re.I),
    "<script> without src": re.compile(r"<script\b(?![^>]*\bsrc\s*=)", re.I),
    "on…= handler attribute": re.compile(r"(?<![\w.$-])on[a-z]+\s*=\s*[\"'{]", re.I),
    "style= attribute": re.compile(r"(?<![\w.$-])style\s*=\s*[\"'{]", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
    "htmx attribute evaluating code (htmx.config.allowEval is off)": re.compile(
        r"\bhx-on\b|\bhx-on[:-]|\bhx-vars\b|\bhx-vals\s*=\s*[\"']\s*js:"
        r"|\bhx-trigger\s*=\s*[\"'][^\"']*\["),
}
"""What may not be in markup: its name, its pattern."""

SCRIPT = {
    "eval": re.compile(r"(?<![\w.$])eval\s*\(|\bnew\s+Function\s*\("),
    "code in a string to a timer": re.compile(r"\bset(?:Timeout|Interval)\s*\(\s*[\"'`]"),
    "a style or handler set as an attribute":
        re.compile(r"setAttribute\s*\(\s*[\"'](?:style|on[a-z]+)[\"']", re.I),
}
"""What our scripts may not do besides (the browser blocks it under the policy)."""

JINJA = re.compile(r"\{#.*?#\}|\{%.*?%\}", re.S)


def found(text: str, patterns: dict[str, re.Pattern[str]]) -> list[str]:
    """Each match in ``text`` as ``line N: what: the match``."""
    out = []
    for what, pattern in patterns.items():
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            out.append(f"line {line}: {what}: {match.group(0)!r}")
    return out


def template_problems(text: str) -> list[str]:
    """Inline code in a Jinja template (its comments and ``{% … %}`` statements left out,
    keeping the line numbers)."""
    return found(JINJA.sub(lambda m: "\n" * m.group(0).count("\n"), text), MARKUP)


def python_problems(text: str) -> list[str]:
    """Inline code in the string literals of Python source ``text`` (HTML built there)."""
    out = []
    kinds = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in kinds:
            out += [f"line {token.start[0]} {problem}" for problem in found(token.string, MARKUP)]
    return out


def script_problems(text: str) -> list[str]:
    """Inline code in the markup a script builds, and ``eval`` or its kin in the script."""
    return found(text, MARKUP | SCRIPT)


def problems() -> list[str]:
    """Every place of inline code in the templates (the app's and every game's own template
    folder: ``template_folders``), app/ and static/js (not static/vendor)."""
    out = []
    pages = sorted(path for folder in template_folders() for path in folder.rglob("*.html"))
    sources = [(pages, template_problems),
               (sorted((ROOT / "app").rglob("*.py")), python_problems),
               (sorted((ROOT / "static" / "js").rglob("*.js")), script_problems)]
    for paths, check in sources:
        for path in paths:
            name = path.relative_to(ROOT).as_posix()
            out += [f"{name} {p}" for p in check(path.read_text(encoding="utf-8"))]
    return out


def test_no_inline_code_anywhere() -> None:
    assert problems() == []


def test_the_scan_finds_each_kind_of_inline_code() -> None:
    template = """{# <style> in a comment is fine #}{% set online = "x" %}
<link rel="stylesheet" href="/a.css"><script src="/a.js" defer></script>
<style>p {}</style>
<script>alert(1)</script>
<form onsubmit="return false"><input oninput='{{ js }}'></form>
<span style="width: {{ w }}%"></span><span data-style="ok"></span>
<a href="javascript:void(0)">x</a>
<b hx-on:click="go()" hx-vals='js:{a: 1}' hx-trigger="click[ctrlKey]" hx-vals='{"a": 1}'></b>
"""
    assert [p.split(":")[0] for p in template_problems(template)] == [
        "line 3", "line 4", "line 5", "line 5", "line 6", "line 7", "line 8", "line 8", "line 8"]
    python = ('x = f\'<b style="{w}">\'  # style="in a comment" is fine\n'
              'ForeignKey("rooms.id", ondelete="CASCADE")\n'
              '"<td onclick=\'go()\'>"\n')
    assert [p.split(":")[0] for p in python_problems(python)] == ["line 1 line 1", "line 3 line 1"]
    script = ('el.style.width = "3px"; el.innerHTML = \'<i style="x">\';\n'
              'eval("1"); setTimeout("go()", 1); setTimeout(go, 1);\n'
              'el.setAttribute("style", "x"); el.setAttribute("onclick", "x");\n')
    assert len(script_problems(script)) == 5


FUNCTION = re.compile(r"\s*(?:async\b|function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")


def test_browser_tests_wait_for_functions_not_expressions() -> None:
    """``page.wait_for_function`` re-evaluates a bare expression with ``eval`` on every poll
    after the first, which the policy blocks (an ``EvalError`` only when the wait is not over
    at once); a function is evaluated once. Every literal predicate in tests/ is a function."""
    bare = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "wait_for_function" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and not FUNCTION.match(str(node.args[0].value))):
                bare.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert bare == []
