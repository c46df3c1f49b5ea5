"""A real uvicorn server in its own process, for WebSocket and browser tests, and the ports
the other test servers (Postgres, Redis) listen on.

A server's port is held from the moment it is chosen: the test process binds and listens on
the socket itself and hands it to uvicorn (``--fd``), so no other process (another xdist
worker, another checkout's tests) can take the port before the server listens or while it is
down between ``kill()`` and ``restart()``. Servers that cannot be handed a socket (Postgres,
Redis) get a ``HeldPort``. The server is stopped by its own process id (SIGTERM, then
SIGKILL); ``kill()`` sends SIGKILL at once to simulate a crash.

A server is forked from the test process's fork server (``tests.support.zygote``: the app
imported once) instead of a new interpreter importing everything again: the same code in
its own process, serving in a few tenths of a second instead of 2-3 s of CPU.
``ServerProcess(..., fresh=True)`` starts a new interpreter (``python -m uvicorn``), for the
test that measures a real start.
"""

from __future__ import annotations

import atexit
import errno
import fcntl
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from app.settings import ROOT
from tests.support import http
from tests.support.waiting import until

RESERVED = range(20000, 32000)
"""Ports ``HeldPort`` hands out: below Linux's ephemeral range (``ip_local_port_range``,
32768-60999), so no outgoing connection and no ``bind(port 0)`` is ever given one of them."""
LOCKS = Path(tempfile.gettempdir()) / "knobel-test-ports"


def listening_socket(port: int = 0) -> socket.socket:
    """A TCP socket listening on 127.0.0.1:``port`` (0: a port the kernel picks), inheritable
    by a child process (``pass_fds``). The caller closes it; ``OSError`` when taken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen(2048)
        sock.set_inheritable(True)
    except BaseException:
        sock.close()
        raise
    return sock


class HeldPort:
    """A TCP port on 127.0.0.1 for a server that binds it itself (Postgres, Redis), held for
    this process until ``release()``: a lock file (``LOCKS/<port>``, ``flock``; the kernel
    drops it when the process dies) keeps every other test process off it, and the port lies
    outside the ephemeral range (``RESERVED``), so nothing else is handed it. Free when taken:
    a trial bind succeeded. Raises ``RuntimeError`` when no port could be held."""

    def __init__(self, attempts: int = 200) -> None:
        LOCKS.mkdir(mode=0o1777, exist_ok=True)
        rng = random.Random()
        for _ in range(attempts):
            port = rng.choice(RESERVED)
            lock = os.open(LOCKS / str(port), os.O_RDONLY | os.O_CREAT, 0o666)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(lock)
                continue
            if _bindable(port):
                self.port, self._lock = port, lock
                return
            os.close(lock)
        raise RuntimeError(f"no free port in {RESERVED} after {attempts} tries")

    def release(self) -> None:
        """Give the port back (the lock is dropped; the file stays for the next user)."""
        if self._lock >= 0:
            os.close(self._lock)
            self._lock = -1


def _bindable(port: int) -> bool:
    """True when nothing listens on (or holds) 127.0.0.1:``port``."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return False
            raise
    return True


class Zygote:
    """This test process's fork server (``tests.support.zygote``), started on first use; one
    request at a time (a lock: servers start in threads too). ``Zygote.get()`` gives it."""

    _instance: Zygote | None = None
    _owner = -1
    _guard = threading.Lock()

    def __init__(self) -> None:
        self._ctl, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._lock = threading.Lock()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.zygote", str(theirs.fileno())],
            cwd=ROOT, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL)
        theirs.close()
        self._ctl.settimeout(120)  # the first import of the app, on a loaded machine
        ready = json.loads(self._ctl.recv(4096) or b"{}")
        if not ready.get("ready"):
            raise RuntimeError(f"the fork server did not start (exit {self.proc.wait(10)})")
        self._ctl.settimeout(30)
        atexit.register(self.close)

    def close(self) -> None:
        """End the fork server (it stops the servers it forked that still run), by its own
        process id if it does not go by itself."""
        self._ctl.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    @classmethod
    def get(cls) -> Zygote:
        """The fork server of this process (a new one after ``os.fork``)."""
        with cls._guard:
            if cls._instance is None or cls._owner != os.getpid():
                cls._instance, cls._owner = cls(), os.getpid()
            return cls._instance

    def request(self, message: dict, fds: tuple[int, ...] = ()) -> dict:
        """Send one request (with ``fds`` passed along) and return the answer."""
        with self._lock:
            socket.send_fds(self._ctl, [json.dumps(message).encode()], list(fds))
            return json.loads(self._ctl.recv(4096))


class ForkedServer:
    """A server forked by the ``Zygote``, with the part of ``subprocess.Popen`` the tests use:
    ``pid``, ``returncode``, ``poll()``, ``wait(timeout)``."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self._zygote, self.pid = zygote, pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit code (negative: the signal that ended it), or None while it runs."""
        if self.returncode is None:
            self.returncode = self._zygote.request({"op": "poll", "pid": self.pid})["code"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait until it has exited; ``subprocess.TimeoutExpired`` after ``timeout`` s."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0)
            time.sleep(0.01)
        return code


TEMPLATE_CACHE = ROOT / "var" / "cache" / "templates"
"""The compiled templates every test server shares (as ``make run``'s server keeps them): a
server compiles only templates that changed, instead of all of them (2-3 s of CPU) at each
of the suite's hundreds of starts."""


def server_env_for(database_url: str, tmp_path: Path, **extra: str) -> dict[str, str]:
    """Environment for a server process on ``database_url`` (rate limits out of the way);
    ``extra``: more settings (``BROADCAST_URL=...``)."""
    return {"DATABASE_URL": database_url, "SECRET_KEY": "s" * 32,
            "VAR_DIR": str(tmp_path / "var"), "TEST_HOOKS": "true",
            "TEMPLATE_CACHE_DIR": str(TEMPLATE_CACHE),
            "WS_MESSAGE_RATE": "1000/second", "RATE_LIMIT_ROOMS": "1000/minute",
            "RATE_LIMIT_JOINS": "1000/minute", **extra}


class ServerProcess:
    """``uvicorn app.main:create_app --factory`` on ``127.0.0.1:port`` with ``env`` settings.

    ``env`` holds setting variables (``DATABASE_URL``...). Use as a context manager or call
    ``start()`` / ``stop()``; ``kill()`` is SIGKILL, ``restart()`` starts again on the same port
    (held by this process all along: see the module docstring). ``stop()`` gives it back.
    """

    def __init__(self, env: dict[str, str], log: Path | None = None, fresh: bool = False):
        self.sock: socket.socket | None = listening_socket()
        self.port: int = self.sock.getsockname()[1]
        self.env = {**os.environ, "ENVIRONMENT": "test", "TEST_HOOKS": "true", **env}
        self.log_path = log
        self.fresh = fresh
        self.proc: subprocess.Popen[bytes] | ForkedServer | None = None

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """``ws://127.0.0.1:<port>``."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> ServerProcess:
        """Start the process on the held socket and wait until ``/healthz`` answers 200.
        Raises ``RuntimeError`` when the process exits or never answers (then stopped)."""
        if self.sock is None:  # stopped before: hold the same port again
            self.sock = listening_socket(self.port)
        fd = self.sock.fileno()
        with open(self.log_path or os.devnull, "ab") as out:
            if self.fresh:
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory",
                     "--fd", str(fd), "--log-level", "warning",
                     "--ws-max-size", "65536", "--ws-per-message-deflate", "false"],
                    cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                    pass_fds=(fd,))
            else:
                zygote = Zygote.get()
                pid = zygote.request({"op": "spawn", "env": self.env}, (fd, out.fileno()))["pid"]
                self.proc = ForkedServer(zygote, pid)
        proc = self.proc

        def healthy() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}")
            try:
                return http.get(self.url + "/healthz", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False
        try:
            until(healthy, "the server answers /healthz", timeout, every=0.1)
        except AssertionError as exc:
            self.stop()
            raise RuntimeError("server did not become healthy") from exc
        return self

    def kill(self) -> None:
        """SIGKILL the process (a crash: nothing is flushed or closed). The port stays held:
        connections made before ``restart()`` wait for the new process."""
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
        """SIGTERM the process by its pid, SIGKILL after 10 s; then give the port back."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            os.kill(self.proc.pid, signal.SIGCONT)  # in case a test left it paused
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def restart(self) -> ServerProcess:
        """Start again on the same port after ``kill()`` or ``stop()``."""
        return self.start()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
