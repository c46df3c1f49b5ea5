"""Fixtures: every database test runs on SQLite and on Postgres (``TEST_POSTGRES_URL``)."""

from __future__ import annotations

import os

# The test-only room games (tests/games/; docs/architecture.md, "Adding a game"): the
# EXTRA_GAMES setting, set before the app is first imported (the registry reads it then) and
# inherited by every server process a test starts. Set in the environment, it wins.
os.environ.setdefault("EXTRA_GAMES", "tests.games.high_throw.plugin:HighThrowGame")

from collections.abc import Iterator
from pathlib import Path

import hypothesis
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.support import databases as dbs
from tests.support.schedule import BrowserCappedScheduling, is_browser_file
from tests.support.strategy import SharedTables

hypothesis.settings.register_profile("knobel", deadline=None)
hypothesis.settings.load_profile("knobel")
"""Hypothesis without its per-example deadline (200 ms by default): on two shared cores under
the suite's browsers an example of the Kniffel fill property took 282 ms and failed the run.
A deadline measures the machine's load, not a rule; pytest-timeout stops a test that hangs."""

LONGEST = ("tests/web/test_axe_browser.py", "tests/rooms/test_faults.py",
           "tests/rooms/test_scale_out.py", "tests/rooms/games/kniffel/test_phone_browser.py",
           "tests/rooms/bots/test_browser.py", "tests/rooms/games/kniffel/test_live.py",
           "tests/rooms/bots/test_bots_server.py", "tests/groups/test_browser.py",
           "tests/web/test_play_feel_browser.py", "tests/rooms/games/knister/test_live.py",
           "tests/engines/test_kniffel_optimal.py", "tests/web/test_phone_width_browser.py")
"""Test files that take half a minute or more (``--durations``, 2026-12-04), longest first:
started in this order, so that the short tests fill in around them at the end instead of a
worker waiting for one of them."""


def one_backend_each(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect one backend of every test marked ``one_backend``: its variants (the test with
    its other parameters) take SQLite and Postgres in turn, in the module's order (the first
    SQLite, the next Postgres, ...), so each backend runs half of the module; all on SQLite
    when Postgres cannot be used (``postgres_problem``) and is not required."""
    postgres = dbs.postgres_required() or dbs.postgres_problem() is None
    seen: dict[str, dict[tuple, int]] = {}
    keep, drop = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        if (item.get_closest_marker("one_backend") is None or callspec is None
                or "backend" not in callspec.params):
            keep.append(item)
            continue
        variant = (getattr(item, "originalname", item.name),
                   tuple(sorted((k, str(v)) for k, v in callspec.params.items()
                                if k != "backend")))
        order = seen.setdefault(item.nodeid.split("::", 1)[0], {})
        turn = order.setdefault(variant, len(order))
        chosen = dbs.BACKENDS[turn % len(dbs.BACKENDS)] if postgres else "sqlite"
        (keep if callspec.params["backend"] == chosen else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the longest files first, then the other browser tests, then the rest (a stable
    sort: the order inside each part stays as collected, the same on every worker).
    A test marked ``browser`` must live in a ``..._browser.py`` file: the scheduler
    (``tests/support/schedule.py``) knows browser files by their name. Tests marked
    ``one_backend`` run on one database backend each (``one_backend_each``)."""
    one_backend_each(config, items)
    misplaced = sorted({item.nodeid.split("::", 1)[0] for item in items
                        if item.get_closest_marker("browser")
                        and not is_browser_file(item.nodeid.split("::", 1)[0])})
    if misplaced:
        raise pytest.UsageError("browser tests outside a ..._browser.py file: "
                                + ", ".join(misplaced))

    def rank(item: pytest.Item) -> tuple[int, int]:
        path = item.nodeid.split("::", 1)[0]
        if path in LONGEST:
            return 0, LONGEST.index(path)
        return (1 if item.get_closest_marker("browser") else 2), 0

    items.sort(key=rank)


def pytest_xdist_make_scheduler(config, log):
    """Under ``--dist loadfile`` (``make test``): xdist's file-at-a-time scheduling with at
    most two browser files running at once (``tests/support/schedule.py``)."""
    if config.getoption("dist") == "loadfile":
        return BrowserCappedScheduling(config, log)
    return None


def pytest_report_header(config) -> list[str]:
    """Say on which databases the suite runs."""
    pg = dbs.postgres_base_url()
    backends = "sqlite" + (" + postgres" if pg else " (no TEST_POSTGRES_URL: postgres skipped)")
    return [f"knobel databases: {backends}"]


@pytest.fixture(scope="session")
def _migrated_urls(tmp_path_factory) -> Iterator[dict[str, str]]:
    """One migrated database per backend for the whole run, created lazily."""
    made: dict[str, str] = {}
    folder = tmp_path_factory.mktemp("db")

    def get(backend: str) -> str:
        if backend not in made:
            if backend == "sqlite":
                url = dbs.create_sqlite_database(folder)
            else:
                url = dbs.create_postgres_database()
            dbs.migrate(url)
            made[backend] = url
        return made[backend]

    yield get  # type: ignore[misc]
    if "postgres" in made:
        dbs.drop_postgres_database(made["postgres"])


def require_backend(backend: str) -> None:
    """Skip (or, with ``REQUIRE_POSTGRES=1``, fail) when ``backend`` is not available."""
    if backend == "postgres" and (problem := dbs.postgres_problem()):
        if dbs.postgres_required():
            pytest.fail(f"REQUIRE_POSTGRES=1 but Postgres cannot be used: {problem}")
        pytest.skip(f"postgres not available ({problem})")


@pytest.fixture(params=dbs.BACKENDS)
def backend(request) -> str:
    """The database backend under test: ``sqlite`` or ``postgres``."""
    require_backend(request.param)
    return request.param


@pytest.fixture
def database_url(backend: str, _migrated_urls) -> str:
    """A migrated, empty database of the current backend."""
    url = _migrated_urls(backend)
    dbs.truncate_all(url)
    return url


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    """Test settings on the current backend's database."""
    return Settings(
        database_url=database_url,
        var_dir=tmp_path / "var",
        secret_key="test-secret-key-not-for-production",
        environment="test",
        test_hooks=True,
        gc_tuning=False,  # the test process's heap is not the app's (app/gc_tuning.py)
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """An HTTP client for a fresh app (lifespan run) on the current backend."""
    with TestClient(create_app(settings), base_url="http://testserver") as test_client:
        yield test_client


@pytest.fixture(scope="session")
def shared_tables(tmp_path_factory, worker_id: str) -> SharedTables:
    """Strategy tables shared by the whole run (each built once, on first use): under
    pytest-xdist one folder for every worker (the run's own temporary folder; the builder's
    lock, app/strategy/build.py, lets one worker build a table while the other waits)."""
    base = tmp_path_factory.getbasetemp()
    folder = (base if worker_id == "master" else base.parent) / "strategy-shared"
    folder.mkdir(exist_ok=True)
    return SharedTables(folder)


@pytest.fixture(scope="session")
def kniffel_strategy(shared_tables: SharedTables):
    """The optimal Kniffel strategy (default house rules), built once per session into the
    shared folder (``shared_tables.folder``)."""
    return shared_tables.ensure("kniffel")


@pytest.fixture(scope="module")
def page_server(tmp_path_factory, request) -> Iterator[object]:
    """One server process on SQLite for a browser module (``tests.support.browser``), in a
    folder named after the module; stopped by its process id when the module is done."""
    from tests.support.browser import sqlite_server

    with sqlite_server(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])) \
            as proc:
        yield proc


@pytest.fixture(scope="module")
def page_browser(page_server) -> Iterator[object]:
    """One headless Chromium for a browser module (after its ``page_server``)."""
    from tests.support.browser import chromium

    with chromium() as browser:
        yield browser
