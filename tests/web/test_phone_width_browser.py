"""Every page fits a phone (390x844) in Debian Chromium: nothing makes the page wider than the
screen, so it never scrolls sideways; a table too wide for the screen scrolls inside its own
box (a fresh-user trial's finding: the "Check the dice" page was 423 px wide, its last column
"From the seed" cut off).

Every page of ``tests.support.site`` (each room game's lobby, game, result, dice check and
review, the guided rounds, the daily challenges, Knikkers, leaderboards, the player's
statistics and room-game history), as the visitor it is made for, in German and Dutch (the
longest words). One server and one browser for the module; SQLite only.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app import i18n
from tests.support.browser import PHONE, animations_done, chromium, screenshot
from tests.support.site import Site, served_site

pytestmark = [pytest.mark.browser, pytest.mark.server]

WIDEST = r"""() => {
  // the page's width, and the elements reaching past the screen's right edge (the deepest
  // ones: their own content, not the boxes holding them)
  const right = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= right + 0.5) continue;
    if ([...el.children].some((c) => c.getBoundingClientRect().right > right + 0.5)) continue;
    let scrolled = false;  // inside a box that scrolls sideways itself: fine
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (["auto", "scroll", "hidden", "clip"].includes(style.overflowX)) {
        scrolled = true;
        break;
      }
    }
    if (!scrolled) out.push(el.tagName.toLowerCase() + (el.className && typeof el.className ===
      "string" ? "." + el.className.trim().split(/\s+/).join(".") : "") + " " +
      Math.round(box.right));
  }
  return {width: document.documentElement.scrollWidth, out: out.slice(0, 5)};
}"""
"""The page's scroll width and up to five elements (with their right edges) sticking out."""


@pytest.fixture(scope="module")
def site(tmp_path_factory, shared_tables) -> Iterator[Site]:
    """One server on its own SQLite database with every page's state made (the reviews'
    strategy tables in the session's shared folder)."""
    with served_site(tmp_path_factory.mktemp("phone-width"), shared_tables.folder) as built:
        yield built


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Chromium for the module."""
    with chromium() as b:
        yield b


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_every_page_fits_a_phone_without_scrolling_sideways(site: Site, browser,
                                                             lang: str) -> None:
    assert lang in i18n.LANGUAGES
    too_wide: list[str] = []
    contexts = {}
    checked = set()
    try:
        for who, cookies in site.cookies.items():
            ctx = browser.new_context(viewport=PHONE, locale=lang, has_touch=True)
            ctx.add_cookies([{"name": k, "value": v, "url": site.url} for k, v in
                             {**cookies, i18n.LANG_COOKIE: lang}.items()])
            contexts[who] = ctx.new_page()
        for info in site.pages:
            page = contexts[info.who]
            response = page.goto(site.url + info.path)
            assert response is not None and response.status == info.status, info.name
            if page.locator("[ws-connect]").count():  # a live page: its first update is in
                page.wait_for_function("() => document.body.classList.contains('online')")
            animations_done(page)
            found = page.evaluate(WIDEST)
            checked.add(info.name)
            if found["width"] > PHONE["width"] or found["out"]:
                too_wide.append(f"{info.name} ({info.path}): {found['width']} px wide, "
                                f"sticking out: {found['out']}")
                screenshot(page, f"too-wide-{lang}-{info.name}")
    finally:
        for page in contexts.values():
            page.context.close()
    # the pages the trial found, and the other wide tables, were among those checked
    assert {"kniffel-verify", "knister-verify", "kniffel-review", "room-games", "player",
            "leaderboard", "daily-knister"} <= checked
    assert not too_wide, "\n".join(too_wide)
