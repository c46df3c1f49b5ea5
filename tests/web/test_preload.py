"""A long-running server loads its languages and templates at start-up (app/main.py)."""

from __future__ import annotations

from babel import localedata

from app import i18n
from app.web.templating import compile_all, templates


def test_preload_loads_every_language_s_catalog_and_cldr_data() -> None:
    i18n.translations.cache_clear()
    i18n.preload()
    assert i18n.translations.cache_info().currsize == len(i18n.LANGUAGES)
    assert {"nl", "de", "en"} <= set(localedata._cache)
    with i18n.use_language("de"):
        assert i18n.format_number(12345) == "12.345"


def test_compile_all_compiles_every_template() -> None:
    names = [n for n in templates.env.list_templates() if n.endswith(".html")]
    assert compile_all() == len(names) > 40
    assert all(templates.env.cache is not None and any(k[1] == n for k in templates.env.cache)
               for n in names)
