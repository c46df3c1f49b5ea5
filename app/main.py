"""The application factory: ``create_app(settings)``; uvicorn runs ``app.main:create_app``."""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware

from app.logging import configure_logging
from app.settings import ROOT, Settings
from app.store.db import Database
from app.web import health, pages
from app.web.errors import install_error_pages
from app.web.middleware import LanguageMiddleware

SESSION_COOKIE = "knobel_session"


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the ASGI app for ``settings`` (read from the environment when None).

    The database schema must already be migrated (``alembic upgrade head``).
    """
    settings = settings or Settings()
    configure_logging(settings.json_logs)
    db = Database(settings.database_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        await db.dispose()

    production = settings.environment == "production"
    app = FastAPI(
        title="Knobel",
        lifespan=lifespan,
        docs_url=None if production else "/docs",
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.db = db

    app.add_middleware(LanguageMiddleware)
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.secret_key,
        session_cookie=SESSION_COOKIE,
        max_age=365 * 24 * 3600,
        same_site="lax",
        https_only=settings.https_only,
    )
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    app.include_router(pages.router)
    app.include_router(health.router)
    install_error_pages(app)
    return app
