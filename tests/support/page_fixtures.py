"""``server`` and ``browser`` for a browser module: the module's own SQLite server process and
headless Chromium (``page_server``, ``page_browser`` in tests/conftest.py). A module (or a
conftest) takes them by importing them."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def server(page_server):
    """The module's server process (SQLite)."""
    return page_server


@pytest.fixture(scope="module")
def browser(page_browser):
    """The module's headless Chromium."""
    return page_browser
