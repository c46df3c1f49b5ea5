"""Soft hyphens in narrow columns (``app.i18n.hyphenate``, the ``hyphenate`` filter): German and
Dutch compounds get break points from the language's hyphenation dictionary (Pyphen), short
words and markup-significant characters are left alone."""

from __future__ import annotations

from app import i18n

SHY = "\u00ad"


def test_long_words_get_soft_hyphens_in_the_pages_language() -> None:
    with i18n.use_language("de"):
        assert i18n.hyphenate("Dreierpasch") == f"Drei{SHY}er{SHY}pasch"
        assert i18n.hyphenate("Zusatzbonus") == f"Zu{SHY}satz{SHY}bo{SHY}nus"
        assert i18n.hyphenate("Kleine Straße") == "Kleine Straße"  # short words: as they are
    with i18n.use_language("nl"):
        assert i18n.hyphenate("Drie gelijke") == "Drie gelijke"
        assert i18n.hyphenate("Subtotaal boven") == f"Sub{SHY}to{SHY}taal boven"


def test_only_soft_hyphens_are_added() -> None:
    with i18n.use_language("en"):
        for text in ("Three of a kind", "<b>&amp;</b> Extraordinary", "", "  two  spaces "):
            assert i18n.hyphenate(text).replace(SHY, "") == text
