"""Debian's Chromium through Playwright (never a downloaded browser).

Without ``/usr/bin/chromium`` browser tests skip, or fail with ``REQUIRE_BROWSER=1`` (CI).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from app.settings import ROOT

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = ROOT / "test-artifacts"


def require_chromium() -> None:
    """Skip (or fail under ``REQUIRE_BROWSER=1``) when Debian's chromium is missing."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)")


CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  const target = event.target;
  const element = target && target.outerHTML ? target.outerHTML.slice(0, 300) : "";
  window.__knobelCspViolation({
    directive: event.effectiveDirective || event.violatedDirective,
    blocked: event.blockedURI,
    sample: event.sample || element,
    source: event.sourceFile ? event.sourceFile + ":" + event.lineNumber : "",
    page: location.href,
  });
}, true);
"""
"""Init script of every page of a ``chromium()`` browser: reports each Content-Security-Policy
violation (app/web/security_headers.py) to the test through the exposed binding."""


def csp_report(violations: list[dict[str, str]]) -> str:
    """One line per recorded violation: the directive, what was blocked, where, a sample."""
    return "\n".join(
        f"{v['directive']} blocked {v['blocked'] or '(inline)'} on {v['page']}"
        f"{' at ' + v['source'] if v['source'] else ''}: {v['sample']}" for v in violations)


class CspCheckedBrowser:
    """A Playwright ``Browser`` whose every context (``new_context``, ``new_page``) records
    the page's Content-Security-Policy violations in ``csp_violations`` (dicts: ``directive``,
    ``blocked``, ``sample``, ``source``, ``page``); everything else is the browser's own."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self.csp_violations: list[dict[str, str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    def watch(self, context: Any) -> Any:
        """Record the violations of every page of ``context`` (also of one already open,
        from its next navigation on); returns ``context``."""
        context.expose_binding("__knobelCspViolation",
                               lambda _source, info: self.csp_violations.append(info))
        context.add_init_script(CSP_LISTENER)
        return context

    def new_context(self, **kwargs: Any) -> Any:
        """``Browser.new_context``, watched."""
        return self.watch(self._browser.new_context(**kwargs))

    def new_page(self, **kwargs: Any) -> Any:
        """``Browser.new_page`` (a page in its own context, closed with it), watched: the page
        is still blank, so its first navigation already reports."""
        page = self._browser.new_page(**kwargs)
        self.watch(page.context)
        return page

    def settle(self) -> None:
        """Take in the reports the browser has sent: one round trip per open context (never
        to a page, which a dialog may hold)."""
        for context in self._browser.contexts:
            context.cookies()


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium ``Browser`` (a ``CspCheckedBrowser``); closed (its process
    stopped) on exit. A test that ends with a Content-Security-Policy violation recorded on
    any of its pages fails, naming the directive and what was blocked (a test that failed
    anyway gets them as a note). ``page.wait_for_function`` needs a function (``"() => ..."``):
    Playwright evaluates a bare expression with ``eval`` on every poll, which the policy
    blocks."""
    require_chromium()
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = CspCheckedBrowser(
            pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS))
        try:
            yield browser
            browser.settle()
        except BaseException as exc:
            if browser.csp_violations:
                exc.add_note("Content-Security-Policy violations:\n"
                             + csp_report(browser.csp_violations))
            raise
        finally:
            browser.close()
        if browser.csp_violations:
            pytest.fail("Content-Security-Policy violations:\n"
                        + csp_report(browser.csp_violations), pytrace=False)


def screenshot(page, name: str) -> Path:
    """Save a full-page PNG under ``test-artifacts/`` and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


ONLINE = re.compile(r"\bonline\b")


def create_room(page, server, game: str, name: str) -> str:
    """Open a room of ``game`` from the new-room page as ``name``; returns its code once the
    lobby shows and the page's socket is online."""
    page.goto(server.url + "/rooms/new")
    page.select_option("select[name=game]", game)
    page.fill("input[name=name]", name)
    page.click("form.new-room button[type=submit]")
    wait_css(page, "#live[data-status='lobby']")
    wait_css(page, "body.online")
    return page.url.rsplit("/", 1)[1]


def join(page, server, code: str, name: str) -> None:
    """Take a seat in room ``code`` as ``name``; returns once the lobby shows online."""
    page.goto(f"{server.url}/r/{code}")
    page.fill("input[name=name]", name)
    page.click("form[data-action=join] button[type=submit]")
    wait_css(page, "#live[data-status='lobby']")
    wait_css(page, "body.online")


def caught_up(page, server, code: str) -> None:
    """Wait until ``page`` shows room ``code`` at the version the server holds now
    (state.json): every update already on its way is swapped in, so none replaces a form
    control the test changes next."""
    from tests.support import http

    version = http.get(f"{server.url}/r/{code}/state.json").json()["version"]
    wait_css(page, f"#live[data-version='{version}']")


def wait_css(page, css: str, timeout: float = 10_000) -> None:
    """Wait until an element matching the CSS selector ``css`` is in ``page`` (attached).

    It looks every 25 ms (a timer in the page: no animation frames forced). Playwright's
    ``wait_for_selector`` and ``expect`` look again after 100, 350 and 850 ms and then every
    second: an update that arrives after 120 ms is seen after 350, a 0 armed after 400 ms
    after 850. The loops that play whole games wait with this.
    ``playwright.sync_api.TimeoutError`` after ``timeout`` ms."""
    page.wait_for_function("(css) => document.querySelector(css) !== null", arg=css,
                           timeout=timeout, polling=25)


def wait_css_gone(page, css: str, timeout: float = 10_000) -> None:
    """Wait until no element of ``page`` matches the CSS selector ``css`` (see ``wait_css``)."""
    page.wait_for_function("(css) => document.querySelector(css) === null", arg=css,
                           timeout=timeout, polling=25)


def animations_done(page) -> None:
    """Wait until the short animations on ``page`` (CSS or script: a swap fading in, a die
    turning, at most 2 s long) have run to their end; clocks (countdown rings, endless
    pulses) keep running and are not waited for."""
    page.wait_for_function("""() => document.getAnimations().every((a) =>
        a.playState !== "running" || a.effect.getComputedTiming().endTime > 2000)""")


PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 800}


def host_and_guest(browser, server, game: str, guest_viewport: dict | None = TABLET,
                   locale: str = "en-GB") -> tuple[Any, Any, str]:
    """Anna opens a room of ``game`` on a phone and Bram joins it (``guest_viewport``; None:
    Playwright's default), each in their own browser context; returns ``(anna's page, bram's
    page, room code)`` once both seats show online on Anna's page."""
    from playwright.sync_api import expect

    anna = browser.new_context(locale=locale, viewport=PHONE).new_page()
    bram_kwargs: dict[str, Any] = {"locale": locale}
    if guest_viewport is not None:
        bram_kwargs["viewport"] = guest_viewport
    bram = browser.new_context(**bram_kwargs).new_page()
    code = create_room(anna, server, game, "Anna")
    join(bram, server, code, "Bram")
    expect(anna.locator("#live .seat[data-presence=online]")).to_have_count(2)
    return anna, bram, code


def pdf_pages(pdf: bytes) -> int:
    """The number of pages of a PDF made by Chromium's ``page.pdf()``."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def score_box(page, box: str) -> None:
    """Fill the Kniffel-family box ``box`` on ``page`` by clicking it; a 0 takes the second
    tap it asks for (static/js/feel.js). Waits until the sheet shows the box filled."""
    button = page.locator(f"#live button[data-box='{box}']")
    zero = button.get_attribute("data-points") == "0"
    button.click()
    if zero:
        wait_css(page, f"#live button[data-box='{box}'][data-armed='true']")
        button.click()
    wait_css(page, f"#live [data-slot$='/{box}'][data-filled]")


@contextmanager
def sqlite_server(folder: Path) -> Iterator[object]:
    """A test server (``tests.support.server.ServerProcess``) on a new, migrated SQLite
    database in ``folder``, stopped by its pid on exit."""
    from tests.support import databases as dbs
    from tests.support.server import ServerProcess, server_env_for

    url = dbs.create_sqlite_database(folder)
    dbs.migrate(url)
    with ServerProcess(server_env_for(url, folder), log=folder / "server.log") as proc:
        yield proc


def virtual_authenticator(context, page) -> None:
    """Give ``page`` of ``context`` Chromium's virtual authenticator (DevTools
    ``WebAuthn.addVirtualAuthenticator``): a platform authenticator that holds passkeys and
    says yes at once (user present and verified)."""
    devtools = context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    devtools.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
