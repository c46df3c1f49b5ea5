"""A private redis-server on a free port for tests that restart Redis (stopped by its pid)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess

import pytest

from tests.support.server import HeldPort
from tests.support.waiting import until


def require_redis_binary() -> str:
    """The redis-server path; skip (or fail in CI, ``REQUIRE_POSTGRES=1``) when missing."""
    path = shutil.which("redis-server")
    if not path:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail("redis-server is required in CI")
        pytest.skip("redis-server not installed")
    return path


class RedisProcess:
    """``redis-server --port N`` with no persistence; ``kill()`` / ``start()`` restart it (on the
    same port, held by this process until the context ends: ``HeldPort``)."""

    def __init__(self) -> None:
        self.binary = require_redis_binary()
        self.held = HeldPort()
        self.port = self.held.port
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:<port>/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisProcess:
        """Start and wait until the port accepts connections."""
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def accepts() -> bool:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            except OSError:
                return False
            return True
        until(accepts, "redis-server accepts connections", 10)
        return self

    def kill(self) -> None:
        """SIGKILL the server by its pid."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def __enter__(self) -> RedisProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill()
        self.held.release()
