"""Real uvicorn servers on the test database, and the services they may need: a Postgres of
this run alone (which tests may restart) and a Redis."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from tests.support.postgres_server import PostgresProcess
from tests.support.redis_server import RedisProcess
from tests.support.server import ServerProcess, server_env_for


@pytest.fixture
def server_env(settings, tmp_path) -> dict[str, str]:
    """Environment for a server process on the test database."""
    return server_env_for(settings.database_url, tmp_path)


@pytest.fixture
def server(server_env, tmp_path):
    """A running server (stopped by its pid afterwards)."""
    with ServerProcess(server_env, log=tmp_path / "server.log") as proc:
        yield proc


@pytest.fixture(scope="session")
def private_postgres() -> Iterator[PostgresProcess]:
    """A Postgres server of this test run alone, which tests may stop and restart (never the
    shared ``TEST_POSTGRES_URL`` one). Started once (about 2 s), deleted at the end."""
    with PostgresProcess() as postgres:
        yield postgres


@pytest.fixture
def restartable_database_url(private_postgres: PostgresProcess) -> Iterator[str]:
    """A fresh migrated database on the private Postgres, which is running again afterwards
    whatever the test did to it."""
    yield private_postgres.create_database(f"knobel_{uuid.uuid4().hex[:12]}")
    if not private_postgres.running:
        private_postgres.start()


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A Redis for tests that do not restart it: ``TEST_REDIS_URL`` (CI's) when set, else a
    private ``redis-server``."""
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        yield url
        return
    with RedisProcess() as redis:
        yield redis.url
