"""Fixtures of the web tests: a browser module that asks for ``server`` and ``browser`` and
defines neither gets the module's own SQLite server and Chromium (``page_server``,
``page_browser`` in tests/conftest.py)."""

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
