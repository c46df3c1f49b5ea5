"""The browser enforces the Content-Security-Policy (app/web/security_headers.py) and the test
browser (``tests.support.browser.chromium``) reports every violation: inline code put on a
real page is blocked and recorded, and a test that leaves one recorded fails."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.web.security_headers import CONTENT_SECURITY_POLICY
from tests.support.browser import chromium, sqlite_server

pytestmark = [pytest.mark.browser, pytest.mark.server]

INLINE = {
    # what is put on the page: the directive that must block it
    """() => { const s = document.createElement("script");
               s.textContent = "window.inlineRan = true"; document.body.append(s); }""":
        "script-src-elem",
    """() => { const s = document.createElement("style");
               s.textContent = "body { color: red }"; document.head.append(s); }""":
        "style-src-elem",
    """() => document.body.setAttribute("style", "color: red")""": "style-src-attr",
    """() => document.body.setAttribute("onclick", "window.inlineRan = true")""":
        "script-src-attr",
}


def violated(page, insert: str) -> str:
    """Run ``insert`` on ``page``; the directive of the violation it caused (once the
    browser's event about it has fired)."""
    return page.evaluate(f"""() => new Promise((resolve) => {{
        document.addEventListener("securitypolicyviolation",
                                  (event) => resolve(event.effectiveDirective), {{once: true}});
        ({insert})();
        document.body.click();
    }})""")


def test_inline_code_on_a_page_is_blocked_and_recorded(tmp_path) -> None:
    with sqlite_server(tmp_path) as server, chromium() as browser:
        page = browser.new_page()
        response = page.goto(server.url + "/")
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        page.wait_for_function("() => typeof htmx === 'object'")
        assert page.evaluate("document.querySelectorAll('style').length") == 0  # htmx's own
        # htmx swaps in a successor of an element a script styled (the CSSOM is allowed):
        # it does not copy the old style attribute over (htmx.config.attributesToSettle)
        page.evaluate("""() => {
            const old = document.createElement("div");
            old.id = "swapped";
            old.style.color = "red";
            document.querySelector("main").append(old);
            htmx.swap("#swapped", '<div id="swapped">new</div>', {swapStyle: "outerHTML"});
        }""")
        expect(page.locator("#swapped")).to_have_text("new")
        browser.settle()
        assert browser.csp_violations == []

        for insert, directive in INLINE.items():
            assert violated(page, insert) == directive
        browser.settle()
        assert page.evaluate("window.inlineRan") is None
        recorded = [(v["directive"], v["page"]) for v in browser.csp_violations]
        assert recorded == [(d, server.url + "/") for d in INLINE.values()]
        assert "window.inlineRan = true" in browser.csp_violations[0]["sample"]
        browser.csp_violations.clear()  # this test made them on purpose


def test_a_test_leaving_a_violation_fails(tmp_path) -> None:
    with sqlite_server(tmp_path) as server, pytest.raises(pytest.fail.Exception) as failed:
        with chromium() as browser:
            page = browser.new_context().new_page()
            page.goto(server.url + "/")
            violated(page, next(iter(INLINE)))
    message = str(failed.value)
    assert "Content-Security-Policy violations" in message
    assert "script-src-elem blocked inline" in message
    assert "window.inlineRan = true" in message
