"""axe-core over every page (issue 12, accessibility): 0 serious or critical violations.

Every page of ``tests.support.site`` (home, name, each registered room game's lobby, game and
result as host, guest and visitor, Knikkers game and end, replays, leaderboards, player page,
error pages), in nl, de and en, at phone (390x844) and desktop (1280x800) size, light and
dark (``prefers-color-scheme``: the app's only theme switch). axe-core comes from the npm
registry (``package.json``, ``node_modules/axe-core``), never a CDN. One server and one browser;
each page is loaded once per language (the viewport and the colour scheme change without a
reload). Each language runs every rule once, each in another of the four combinations of size
and scheme (``FULL``: nl phone light, de desktop dark, en phone dark), and English runs the
colour rules in the fourth (desktop light): every rule meets every language, and the colour
rules every combination (axe's rules read the markup, names and colours, none of which
depends on the language in one combination and not in another). The site is built once for
the three languages' tests (a fixture of the module; ``make test`` runs a file's tests on one
xdist worker, ``--dist loadfile``).

Screenshots of each game at both sizes, light and dark, go to ``test-artifacts/screenshots/``
(ignored by git).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app import i18n
from app.settings import ROOT
from tests.support.browser import ARTIFACTS, animations_done, chromium
from tests.support.site import Site, SitePage, served_site

pytestmark = [pytest.mark.browser, pytest.mark.server]

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
SCHEMES = ("light", "dark")
BLOCKING = ("serious", "critical")
SHOTS = ARTIFACTS / "screenshots"
FULL = {"nl": ("phone", "light"), "de": ("desktop", "dark"), "en": ("phone", "dark")}
"""The size and scheme in which each language runs every rule."""
COLOURS_ONLY = {"en": ("desktop", "light")}
"""Where a language runs the colour rules alone, so that they meet every combination."""


@pytest.fixture(scope="module")
def site(tmp_path_factory, shared_tables) -> Iterator[Site]:
    """One server on its own SQLite database with every page's state made (the reviews'
    strategy tables in the session's shared folder)."""
    with served_site(tmp_path_factory.mktemp("axe"), shared_tables.folder) as built:
        yield built


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make install` (npm ci) first")
    with chromium() as b:
        yield b


def settle(page) -> None:
    """Wait until a live page's socket is up (its first update is in) and animations end."""
    if page.locator("[ws-connect]").count():
        page.wait_for_function("() => document.body.classList.contains('online')", timeout=10_000)
    animations_done(page)


def axe_problems(page, contrast_only: bool = False) -> list[str]:
    """The serious and critical violations axe finds in the page as it is now, one line each
    (rule, impact, help, and the first few offending elements with axe's summary);
    ``contrast_only``: run the colour rules alone (the rest does not depend on the scheme)."""
    options = {"resultTypes": ["violations"]}
    if contrast_only:
        options["runOnly"] = {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}
    result = page.evaluate("(options) => axe.run(document, options)", options)
    lines = []
    for v in result["violations"]:
        if v["impact"] not in BLOCKING:
            continue
        for node in v["nodes"][:4]:
            lines.append(f"{v['id']} ({v['impact']}): {v['help']} | {' '.join(node['target'])}"
                         f" | {node.get('failureSummary', '').splitlines()[-1:]}")
    return lines


def check(page, info: SitePage, lang: str) -> list[str]:
    """The blocking violations of the loaded page ``info`` in ``lang``: every rule in the
    language's ``FULL`` combination, the colour rules in its ``COLOURS_ONLY`` one; in English
    a screenshot of the game pages in both."""
    problems = []
    runs = [(FULL[lang], False)] + ([(COLOURS_ONLY[lang], True)] if lang in COLOURS_ONLY else [])
    for (size, scheme), contrast_only in runs:
        page.set_viewport_size(SIZES[size])
        page.emulate_media(color_scheme=scheme)
        problems += [f"{info.name} [{lang} {size} {scheme}] {line}"
                     for line in axe_problems(page, contrast_only=contrast_only)]
        if lang == "en" and info.shot:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{info.name}-{size}-{scheme}.png"),
                            full_page=True)
    return problems


def test_every_combination_meets_every_rule_and_every_language() -> None:
    """The plan above: four combinations, each language once with every rule, the colour
    rules in all four."""
    combos = {(size, scheme) for size in SIZES for scheme in SCHEMES}
    assert set(FULL) == set(i18n.LANGUAGES)
    assert set(FULL.values()) | set(COLOURS_ONLY.values()) == combos
    assert len(set(FULL.values())) == len(FULL)


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_every_page_has_no_serious_axe_violation(site: Site, browser, lang: str) -> None:
    problems: list[str] = []
    contexts = {}
    try:
        for who, cookies in site.cookies.items():
            size, scheme = FULL[lang]
            ctx = browser.new_context(viewport=SIZES[size], color_scheme=scheme, locale=lang)
            ctx.add_cookies([{"name": k, "value": v, "url": site.url} for k, v in
                             {**cookies, i18n.LANG_COOKIE: lang}.items()])
            ctx.add_init_script(path=str(AXE))  # axe-core in every page this context loads
            contexts[who] = (ctx, ctx.new_page())
        for info in site.pages:
            page = contexts[info.who][1]
            page.set_viewport_size(SIZES[FULL[lang][0]])
            page.emulate_media(color_scheme=FULL[lang][1])
            response = page.goto(site.url + info.path)
            assert response is not None and response.status == info.status, (
                info.name, response and response.status)
            assert page.get_attribute("html", "lang") == lang
            settle(page)
            problems += check(page, info, lang)
    finally:
        for ctx, _page in contexts.values():
            ctx.close()
    report = ARTIFACTS / f"axe-{lang}.txt"
    report.parent.mkdir(exist_ok=True)
    report.write_text("\n".join(problems) + "\n")
    assert not problems, f"{len(problems)} serious/critical axe violations:\n" + "\n".join(problems)


def test_the_axe_check_finds_a_serious_violation(browser) -> None:
    """The harness itself: a button without a name and low-contrast text are reported."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.set_content('<html lang="en"><body><main><button></button>'
                         '<p style="color:#bbb;background:#fff">faint</p></main></body></html>')
        page.add_script_tag(path=str(AXE))
        problems = axe_problems(page)
        assert any(p.startswith("button-name (critical)") for p in problems), problems
        assert any(p.startswith("color-contrast (serious)") for p in problems), problems
    finally:
        ctx.close()
