"""A real server on the test database for the daily challenges' tests."""

from __future__ import annotations

import pytest

from tests.support.server import ServerProcess, server_env_for


@pytest.fixture
def server(settings, tmp_path):
    """A running server (stopped by its pid afterwards)."""
    env = server_env_for(settings.database_url, tmp_path)
    with ServerProcess(env, log=tmp_path / "server.log") as proc:
        yield proc
