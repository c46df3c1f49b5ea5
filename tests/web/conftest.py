"""Fixtures of the web tests: a browser module that asks for ``server`` and ``browser`` and
defines neither gets the module's own SQLite server and Chromium."""

from tests.support.page_fixtures import browser, server

__all__ = ["browser", "server"]
