"""A real uvicorn server on the current backend's database, per test."""

from __future__ import annotations

import pytest

from tests.support.server import ServerProcess


@pytest.fixture
def server_env(settings, tmp_path) -> dict[str, str]:
    """Environment for a server process on the test database."""
    return {"DATABASE_URL": settings.database_url, "SECRET_KEY": "s" * 32,
            "VAR_DIR": str(tmp_path / "var"), "TEST_HOOKS": "true",
            "WS_MESSAGE_RATE": "1000/second", "RATE_LIMIT_ROOMS": "1000/minute",
            "RATE_LIMIT_JOINS": "1000/minute"}


@pytest.fixture
def server(server_env, tmp_path):
    """A running server (stopped by its pid afterwards)."""
    with ServerProcess(server_env, log=tmp_path / "server.log") as proc:
        yield proc
