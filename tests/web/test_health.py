"""``/healthz`` reports whether the database answers."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings


def test_health_is_200_with_the_database_up(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def test_health_is_503_with_postgres_unreachable(tmp_path) -> None:
    settings = Settings(
        database_url="postgresql://nobody@127.0.0.1:1/none",
        var_dir=tmp_path,
        secret_key="x" * 32,
        environment="test",
    )
    with TestClient(create_app(settings)) as client:
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "down"


def test_health_is_503_with_sqlite_file_unopenable(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    settings = Settings(
        database_url=f"sqlite:///{blocker}/sub/db.sqlite3",
        var_dir=tmp_path,
        secret_key="x" * 32,
        environment="test",
    )
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").status_code == 503
