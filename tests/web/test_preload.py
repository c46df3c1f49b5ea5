"""A long-running server loads its languages and templates at start-up (app/main.py)."""

from __future__ import annotations

import json
import subprocess
import sys

from app import i18n
from app.settings import ROOT
from app.web.templating import compile_all, templates


def _loaded_in_a_fresh_process(preload: bool) -> list[str]:
    """The number of catalogs and the CLDR locales a fresh interpreter holds after importing
    ``app.i18n`` (and calling ``preload`` when ``preload``); in a fresh process, because this one's
    caches (Babel's locales, ``format_number``'s) hold whatever earlier tests loaded."""
    code = ("import json; from babel import localedata; from app import i18n\n"
            + ("i18n.preload()\n" if preload else "")
            + "print(json.dumps([i18n.translations.cache_info().currsize,"
              " sorted(localedata._cache)]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=60).stdout
    catalogs, locales = json.loads(out)
    return [str(catalogs), *locales]


def test_preload_loads_every_language_s_catalog_and_cldr_data() -> None:
    assert _loaded_in_a_fresh_process(preload=False) == ["0"]
    loaded = _loaded_in_a_fresh_process(preload=True)
    assert loaded[0] == str(len(i18n.LANGUAGES)) == "3"
    assert {"nl", "de", "en"} <= set(loaded[1:])
    with i18n.use_language("de"):
        assert i18n.format_number(12345) == "12.345"


def test_compile_all_compiles_every_template() -> None:
    names = [n for n in templates.env.list_templates() if n.endswith(".html")]
    assert templates.env.cache is not None
    templates.env.cache.clear()  # as in a fresh process: nothing compiled yet
    assert compile_all() == len(names) > 40
    compiled = {key[1] for key in templates.env.cache.keys()}
    assert compiled >= set(names)
