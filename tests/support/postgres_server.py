"""A private Postgres server for tests that stop and restart the database.

The shared test Postgres (``TEST_POSTGRES_URL``) must never be restarted: other test runs use
it. ``PostgresProcess`` runs its own cluster (``initdb`` into a temporary folder, trust
authentication, listening on 127.0.0.1 on a free port), started and stopped by the pid of its
``postgres`` process. Postgres refuses to run as root, so under root it runs as the ``postgres``
OS user. Without the server binaries the test is skipped, or fails when ``REQUIRE_POSTGRES=1``
(CI).
"""

from __future__ import annotations

import asyncio
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest
from sqlalchemy import text

from app.store.db import make_engine
from tests.support.databases import migrate, postgres_required
from tests.support.server import HeldPort
from tests.support.waiting import until


def postgres_bin_dir() -> Path:
    """The newest ``/usr/lib/postgresql/<version>/bin`` with ``initdb`` and ``postgres``;
    skips (fails with ``REQUIRE_POSTGRES=1``) when there is none."""
    found = sorted(
        (Path(d) for d in glob.glob("/usr/lib/postgresql/*/bin")
         if Path(d, "initdb").exists() and Path(d, "postgres").exists()),
        key=lambda d: int(d.parent.name) if d.parent.name.isdigit() else 0,
    )
    if not found:
        if postgres_required():
            pytest.fail("REQUIRE_POSTGRES=1 but no Postgres server binaries "
                        "under /usr/lib/postgresql/*/bin")
        pytest.skip("Postgres server binaries not installed")
    return found[-1]


class PostgresProcess:
    """A throwaway Postgres cluster: ``start()`` / ``stop()`` / ``restart()``, ``close()``.

    ``url(database)`` is the async SQLAlchemy URL of one of its databases;
    ``create_database()`` makes a fresh one migrated to head. Use as a context manager: the
    cluster is initialised and started on entry, stopped and deleted on exit.
    """

    def __init__(self) -> None:
        self.bin = postgres_bin_dir()
        self.held = HeldPort()  # released by close()
        self.port = self.held.port
        self.root = Path(tempfile.mkdtemp(prefix="knobel-pg-"))
        self.data = self.root / "data"
        self.sockets = self.root / "run"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = self.root / "postgres.log"
        self.user: str | None = "postgres" if os.geteuid() == 0 else None
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        try:
            self._run([str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                       "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
            self.sockets.mkdir()
            if self.user:
                os.chown(self.sockets, entry.pw_uid, entry.pw_gid)
        except BaseException:
            shutil.rmtree(self.root, ignore_errors=True)
            raise

    def _run(self, args: list[str]) -> None:
        subprocess.run(args, check=True, capture_output=True, timeout=120, user=self.user,
                       cwd=self.root)

    def url(self, database: str = "postgres") -> str:
        """``postgresql+asyncpg://postgres@127.0.0.1:<port>/<database>``."""
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    @property
    def running(self) -> bool:
        """True while the server process is alive."""
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = 30) -> PostgresProcess:
        """Start the server and wait until it accepts connections."""
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port),
                 "-k", str(self.sockets), "-c", "listen_addresses=127.0.0.1",
                 "-c", "fsync=off", "-c", "max_connections=100"],
                stdout=log, stderr=subprocess.STDOUT, user=self.user, cwd=self.root)
        proc = self.proc

        def ready() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"postgres exited with {proc.returncode}: "
                                   f"{self.log.read_text(errors='replace')[-2000:]}")
            return subprocess.run([str(self.bin / "pg_isready"), "-q", "-h", "127.0.0.1",
                                   "-p", str(self.port)], timeout=10).returncode == 0
        try:
            until(ready, "postgres accepts connections", timeout)
        except AssertionError as exc:
            self.stop()
            raise RuntimeError("postgres did not accept connections") from exc
        return self

    def stop(self) -> None:
        """Fast shutdown (SIGINT: open connections are cut, the data is kept), by pid."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)

    def restart(self) -> None:
        """``stop()`` then ``start()``."""
        self.stop()
        self.start()

    def create_database(self, name: str) -> str:
        """Create database ``name`` and migrate it to head; returns its URL."""
        async def create() -> None:
            engine = make_engine(self.url())
            try:
                async with engine.connect() as conn:
                    conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                    await conn.execute(text(f'CREATE DATABASE "{name}"'))
            finally:
                await engine.dispose()

        asyncio.run(create())
        migrate(self.url(name))
        return self.url(name)

    def close(self) -> None:
        """Stop the server and delete its folder."""
        self.stop()
        self.held.release()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PostgresProcess:
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc: object) -> None:
        self.close()
