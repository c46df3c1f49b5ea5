"""Test-only routes are for the test suite alone (issue 11, part 5).

- Settings refuse ``TEST_HOOKS=true`` together with ``ENVIRONMENT=production``: the settings
  object cannot be built and a server process with that environment exits before serving.
- Every test-only route answers 404 and changes nothing when the settings say production,
  whatever the flag says (settings built without validation, ``model_copy``, keep the flag on).
- Every test-only route is known here: a new one must be added to ``TEST_ROUTES`` and carry
  the ``require_test_routes`` dependency.
"""

from __future__ import annotations

import asyncio

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import func, select

from app.main import create_app
from app.settings import Settings
from app.store.db import Database
from app.store.models import Game
from app.web.deps import require_test_routes
from tests.support.server import ServerProcess

REFUSAL = "TEST_HOOKS must not be set in production"
# method, path template, request body (form or JSON) and the answer with test settings
TEST_ROUTES = {
    "/_test/rooms/{code}/dice": ("POST", {"json": {"faces": [6, 6]}}, 200),
    "/_test/rooms/{code}/finish": ("POST", {}, 409),  # in the lobby: no game to play out
    "/_test/hold-connection": ("POST", {"params": {"seconds": "0"}}, 200),
    "/_test/clock": ("POST", {"json": {"advance_seconds": 0}}, 200),
    "/knikkers/test/near-full": ("POST", {"data": {"free": "9", "seed": "1"}}, 303),
    "/knikkers/test/start": ("POST", {"data": {"seed": "1", "variant": "5"}}, 303),
}


def _is_test_path(path: str) -> bool:
    return path.startswith("/_test/") or "/test/" in path


def _api_routes(routes, prefix: str = "", guards: tuple = ()):
    """``(path, dependency callables)`` of every API route, also inside included routers
    (FastAPI 0.16x keeps an included router as one ``_IncludedRouter`` entry)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            context = route.include_context
            yield from _api_routes(inner.routes, prefix + context.prefix,
                                   guards + tuple(d.dependency for d in context.dependencies))
        elif isinstance(route, APIRoute):
            yield prefix + route.path, guards + tuple(d.dependency for d in route.dependencies)


def _games(database_url: str) -> int:
    async def run() -> int:
        db = Database(database_url)
        try:
            async with db.sessionmaker() as session:
                return await session.scalar(select(func.count()).select_from(Game))
        finally:
            await db.dispose()

    return asyncio.run(run())


def _room(client: TestClient) -> str:
    response = client.post("/rooms", data={"game": "kniffel", "name": "Anna"},
                           follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


def _call(client: TestClient, path: str, code: str):
    method, body, _ = TEST_ROUTES[path]
    return client.request(method, path.replace("{code}", code), follow_redirects=False, **body)


def test_settings_refuse_test_hooks_in_production(tmp_path) -> None:
    with pytest.raises(ValidationError, match=REFUSAL):
        Settings(environment="production", test_hooks=True, var_dir=tmp_path,
                 secret_key="k" * 32)


def test_settings_from_the_environment_refuse_test_hooks_in_production(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("ENVIRONMENT", "production")
    monkeypatch.setenv("TEST_HOOKS", "true")
    with pytest.raises(ValidationError, match=REFUSAL):
        Settings(var_dir=tmp_path, secret_key="k" * 32)


def test_production_without_test_hooks_has_no_test_routes(tmp_path) -> None:
    prod = Settings(environment="production", var_dir=tmp_path, secret_key="k" * 32)
    assert (prod.test_hooks, prod.test_routes) == (False, False)
    test = Settings(environment="test", test_hooks=True, var_dir=tmp_path, secret_key="k" * 32)
    assert test.test_routes is True


@pytest.mark.server
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_production_server_with_test_hooks_does_not_start(settings, backend, tmp_path) -> None:
    log = tmp_path / "server.log"
    env = {"DATABASE_URL": settings.database_url, "SECRET_KEY": "p" * 32,
           "VAR_DIR": str(tmp_path), "ENVIRONMENT": "production", "TEST_HOOKS": "true"}
    server = ServerProcess(env, log=log)
    try:
        with pytest.raises(RuntimeError, match="server exited with"):
            server.start()
    finally:
        server.stop()
    assert REFUSAL in log.read_text()


def test_every_test_route_is_known_and_guarded(settings) -> None:
    routes = list(_api_routes(create_app(settings).routes))
    assert len(routes) >= 25  # the walk reached the included routers
    test_paths = {path for path, _ in routes if _is_test_path(path)}
    guarded = {path for path, guards in routes if require_test_routes in guards}
    assert test_paths == set(TEST_ROUTES)
    assert guarded == set(TEST_ROUTES)


def test_test_routes_answer_with_test_settings(client, settings) -> None:
    code = _room(client)
    for path, (_, _, status) in TEST_ROUTES.items():
        assert _call(client, path, code).status_code == status, path
    assert _games(settings.database_url) == 2  # the two Knikkers test games


def test_every_test_route_refuses_in_production_even_with_the_flag_on(client, settings) -> None:
    code = _room(client)  # a real room: a 404 is the guard, not an unknown room
    prod = settings.model_copy(update={"environment": "production"})  # no validation
    assert prod.test_hooks is True
    app = create_app(prod)
    with TestClient(app, base_url="http://testserver") as production:
        for path in TEST_ROUTES:
            response = _call(production, path, code)
            assert response.status_code == 404, path
            assert "location" not in response.headers, path
        assert app.state.dice.allow_loaded is False
    assert _games(settings.database_url) == 0


def test_every_test_route_refuses_without_the_flag(client, settings) -> None:
    code = _room(client)
    off = settings.model_copy(update={"test_hooks": False})
    app = create_app(off)
    with TestClient(app, base_url="http://testserver") as plain:
        for path in TEST_ROUTES:
            assert _call(plain, path, code).status_code == 404, path
        assert plain.get("/knikkers").status_code == 200  # the game itself is there
        assert app.state.dice.allow_loaded is False
    assert _games(settings.database_url) == 1  # only the game /knikkers started
