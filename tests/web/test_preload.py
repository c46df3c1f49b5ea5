"""A long-running server loads its languages and templates at start-up (app/main.py)."""

from __future__ import annotations

from babel import localedata

from app import i18n
from app.web.templating import compile_all, templates


def test_preload_loads_every_language_s_catalog_and_cldr_data() -> None:
    i18n.translations.cache_clear()
    localedata._cache.clear()  # as in a fresh process: nothing loaded yet
    assert not {"nl", "de", "en"} & set(localedata._cache)
    i18n.preload()
    assert i18n.translations.cache_info().currsize == len(i18n.LANGUAGES)
    assert {"nl", "de", "en"} <= set(localedata._cache)
    with i18n.use_language("de"):
        assert i18n.format_number(12345) == "12.345"


def test_compile_all_compiles_every_template() -> None:
    names = [n for n in templates.env.list_templates() if n.endswith(".html")]
    assert templates.env.cache is not None
    templates.env.cache.clear()  # as in a fresh process: nothing compiled yet
    assert compile_all() == len(names) > 40
    compiled = {key[1] for key in templates.env.cache.keys()}
    assert compiled >= set(names)
