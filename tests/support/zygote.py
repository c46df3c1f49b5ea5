"""The test servers' fork server: one process per test process that has imported the app
once and forks a fresh uvicorn server from that state on request.

A test server started with ``python -m uvicorn`` spends 2-3 s of CPU importing FastAPI,
SQLAlchemy, numpy and the app before it serves; the suite starts servers a few hundred
times (every restart and crash test restarts one). A child forked from this process has all
of that imported already and is serving within a few tenths of a second. It is still a real
server in its own process, on the socket the test holds, with its own environment, log file
and process id (SIGKILL, SIGSTOP and SIGTERM reach it as they would reach ``uvicorn``).

Protocol (``tests.support.server.Zygote`` is the other end): JSON requests over a
``SOCK_SEQPACKET`` socket pair, one message each way per request:

- ``{"op": "spawn", "env": {...}}`` with the listening socket and the log file as passed
  file descriptors: forks a server; answers ``{"pid": N}``.
- ``{"op": "poll", "pid": N}``: ``{"code": None}`` while it runs, else its exit code
  (negative: killed by that signal), as ``Popen.poll`` gives it.

Run as ``python -m tests.support.zygote <fd of its end of the pair>``; it answers
``{"ready": true}`` once the app is imported, and on end of file (the test process is
gone) it stops every server it forked (SIGTERM, as ``ServerProcess.stop`` does) and exits.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys

PRELOAD = (
    "app.main", "uvicorn.main", "uvicorn.loops.auto", "uvicorn.loops.uvloop",
    "uvicorn.protocols.http.auto", "uvicorn.protocols.websockets.auto", "uvicorn.lifespan.on",
    "asyncpg",
    "aiosqlite", "redis.asyncio", "sqlalchemy.dialects.postgresql.asyncpg",
    "sqlalchemy.dialects.sqlite.aiosqlite", "app.strategy.build",
)
"""What every server imports sooner or later: imported here once, before any fork."""


def serve(request: dict, listen_fd: int, log_fd: int) -> None:
    """In the forked child: become ``uvicorn app.main:create_app --factory --fd listen_fd``
    with ``request["env"]`` as the whole environment and ``log_fd`` as stdout and stderr.
    Never returns (``os._exit`` with uvicorn's exit code)."""
    code = 1
    try:
        os.dup2(log_fd, 1)
        os.dup2(log_fd, 2)
        os.close(log_fd)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        os.environ.clear()
        os.environ.update(request["env"])
        import uvicorn

        uvicorn.run("app.main:create_app", factory=True, fd=listen_fd, log_level="warning",
                    ws_max_size=65536, ws_per_message_deflate=False)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported in the server's log, like uvicorn would
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main() -> None:
    """The fork server's loop (see the module docstring)."""
    ctl = socket.socket(fileno=int(sys.argv[1]))
    os.chdir(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    sys.path.insert(0, os.getcwd())
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    children: dict[int, int | None] = {}
    ctl.send(json.dumps({"ready": True}).encode())
    while True:
        message, fds, _flags, _addr = socket.recv_fds(ctl, 1 << 20, 2)
        if not message:
            break
        request = json.loads(message)
        if request["op"] == "spawn":
            listen_fd, log_fd = fds
            pid = os.fork()
            if pid == 0:
                ctl.close()
                serve(request, listen_fd, log_fd)
            os.close(listen_fd)
            os.close(log_fd)
            children[pid] = None
            reply: dict = {"pid": pid}
        else:  # poll
            pid = request["pid"]
            if children.get(pid) is None:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    children[pid] = os.waitstatus_to_exitcode(status)
            reply = {"code": children[pid]}
        ctl.send(json.dumps(reply).encode())
    for pid, code in children.items():
        if code is None:
            try:
                os.kill(pid, signal.SIGTERM)
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass


if __name__ == "__main__":
    main()
