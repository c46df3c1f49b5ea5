"""A real uvicorn server in its own process, for WebSocket and browser tests.

The server is stopped by its own process id (SIGTERM, then SIGKILL); ``kill()`` sends SIGKILL
at once to simulate a crash.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.settings import ROOT
from tests.support import http


def free_port() -> int:
    """An unused TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env_for(database_url: str, tmp_path: Path, **extra: str) -> dict[str, str]:
    """Environment for a server process on ``database_url`` (rate limits out of the way);
    ``extra``: more settings (``BROADCAST_URL=...``)."""
    return {"DATABASE_URL": database_url, "SECRET_KEY": "s" * 32,
            "VAR_DIR": str(tmp_path / "var"), "TEST_HOOKS": "true",
            "WS_MESSAGE_RATE": "1000/second", "RATE_LIMIT_ROOMS": "1000/minute",
            "RATE_LIMIT_JOINS": "1000/minute", **extra}


class ServerProcess:
    """``uvicorn app.main:create_app --factory`` on ``127.0.0.1:port`` with ``env`` settings.

    ``env`` holds setting variables (``DATABASE_URL``...). Use as a context manager or call
    ``start()`` / ``stop()``; ``kill()`` is SIGKILL, ``restart()`` starts again on the same port.
    """

    def __init__(self, env: dict[str, str], port: int | None = None, log: Path | None = None):
        self.port = port or free_port()
        self.env = {**os.environ, "ENVIRONMENT": "test", "TEST_HOOKS": "true", **env}
        self.log_path = log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """``ws://127.0.0.1:<port>``."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> ServerProcess:
        """Start the process and wait until ``/healthz`` answers 200."""
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory",
             "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
             "--ws-max-size", "65536", "--ws-per-message-deflate", "false"],
            cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}")
            try:
                if http.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not become healthy")

    def kill(self) -> None:
        """SIGKILL the process (a crash: nothing is flushed or closed)."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def pause(self) -> None:
        """SIGSTOP the process: it hears nothing and answers nothing until ``resume()``."""
        assert self.proc and self.proc.poll() is None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT the process stopped by ``pause()``."""
        assert self.proc and self.proc.poll() is None
        os.kill(self.proc.pid, signal.SIGCONT)

    def stop(self) -> None:
        """SIGTERM the process by its pid, SIGKILL after 10 s."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            os.kill(self.proc.pid, signal.SIGCONT)  # in case a test left it paused
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)

    def restart(self) -> ServerProcess:
        """Start again on the same port after ``kill()`` or ``stop()``."""
        return self.start()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
