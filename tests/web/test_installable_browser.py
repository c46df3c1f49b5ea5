"""The installable web app (issue 27): the manifest is valid and the service worker registers
at the root scope, as Chromium itself reports (DevTools ``Page.getAppManifest`` and
``Page.getInstallabilityErrors``); the service worker and manifest are served as such."""

from __future__ import annotations

import pytest

from tests.support import http
from tests.support.page_fixtures import browser, server  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser


def test_chromium_finds_the_app_installable(server, browser) -> None:  # noqa: F811
    site = server.url.replace("127.0.0.1", "localhost")  # a secure context, as HTTPS would be
    page = browser.new_page()
    page.goto(site + "/")
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == site + "/"
    devtools = page.context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"] == site + "/manifest.webmanifest"
    errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito profiles, where Chromium never installs apps: that
    # one is about the profile; every check of the site itself must pass.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors
    page.close()


def test_the_worker_and_manifest_are_served_with_their_types(server) -> None:  # noqa: F811
    worker = http.get(server.url + "/sw.js")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "notificationclick" in worker.text
    manifest = http.get(server.url + "/manifest.webmanifest", headers={"Accept-Language": "nl"})
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["display"] == "standalone" and body["start_url"] == "/"
    assert {i["sizes"] for i in body["icons"]} == {"192x192", "512x512"}
    for icon in body["icons"]:
        png = http.get(icon["src"])
        assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"
