"""The test servers' fork server (tests/support/zygote.py): a forked server is a process of
its own with the environment it was given, a crash shows as SIGKILL, and a stopped one has
exited."""

from __future__ import annotations

import os
import signal
import sqlite3

import pytest

from tests.support import databases as dbs
from tests.support import http
from tests.support.server import ServerProcess, Zygote, server_env_for

pytestmark = pytest.mark.server


def test_a_forked_server_has_its_own_process_environment_and_exit(tmp_path) -> None:
    url = dbs.create_sqlite_database(tmp_path)
    dbs.migrate(url)
    server = ServerProcess(server_env_for(url, tmp_path), log=tmp_path / "server.log")
    with server:
        first = server.proc
        assert first is not None and first.pid not in (os.getpid(), Zygote.get().proc.pid)
        # the settings it was given: a room made through it is in this test's database
        made = http.post(server.url + "/rooms", data={"game": "knister", "name": "Anna"})
        assert made.status_code == 303, made.text
        code = made.headers["location"].rsplit("/", 1)[1]
        with sqlite3.connect(url.split("///", 1)[1]) as db:
            rows = db.execute("SELECT count(*) FROM rooms WHERE code = ?", (code,)).fetchone()
        assert rows == (1,)
        server.kill()
        assert first.poll() == -signal.SIGKILL
        server.restart()  # a new process on the same port
        assert server.proc is not None and server.proc.pid != first.pid
        assert http.get(server.url + "/healthz").status_code == 200
        second = server.proc
    # stopped by SIGTERM: uvicorn shuts down, then ends by the signal it had caught, as
    # ``python -m uvicorn`` does
    assert second.poll() == -signal.SIGTERM
