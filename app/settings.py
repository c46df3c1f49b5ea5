"""Application settings, read from the environment (pydantic-settings).

Every variable is documented in README.md's configuration table.
"""

from __future__ import annotations

import secrets
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.var_files import create_once

ROOT = Path(__file__).resolve().parent.parent


def normalise_database_url(url: str) -> str:
    """Return ``url`` with the async driver SQLAlchemy needs.

    ``postgresql://`` / ``postgres://`` become ``postgresql+asyncpg://`` and ``sqlite://``
    becomes ``sqlite+aiosqlite://``; URLs that already name a driver are returned unchanged.
    """
    for plain, driver in (
        ("postgres://", "postgresql+asyncpg://"),
        ("postgresql://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain):]
    return url


class GameSettings(BaseSettings):
    """The settings that decide which room games exist (``app.rooms.games``): read from the
    environment when the registry is first imported, before any ``Settings`` is made (the
    game lists of pages and bots are built from the registry at import). Reading them has no
    side effect (``Settings`` creates a secret key file)."""

    model_config = SettingsConfigDict(env_file=None, extra="ignore")

    extra_games: str = Field(
        default="",
        description=("Comma-separated room games added to the registry besides the built-in "
                     "ones, each ``module.path:ClassName`` (instantiated without arguments) or "
                     "``module.path:instance`` (a plug-in object), e.g. the test-only games "
                     "under tests/games/; empty: the built-in games only"),
    )


class Settings(GameSettings):
    """Process-wide configuration.

    Fields map to upper-case environment variables (``DATABASE_URL``, ``SECRET_KEY``...).
    ``SECRET_KEY`` left unset is generated once and kept in ``VAR_DIR/secret_key`` so guest
    sessions survive a restart.
    """

    var_dir: Path = ROOT / "var"
    database_url: str = ""
    secret_key: str = ""
    broadcast_url: str = "memory://"
    db_pool_size: int = Field(default=20, ge=1, description="Pooled database connections kept")
    db_max_overflow: int = Field(default=10, ge=0,
                                 description="Connections opened beyond the pool under load")
    db_pool_timeout: float = Field(default=30.0, gt=0,
                                   description="Seconds a request waits for a free connection")
    allowed_origins: str = Field(
        default="",
        description="Comma-separated origins allowed to open a WebSocket; empty = same host only",
    )
    environment: Literal["development", "production", "test"] = "development"
    https_only: bool = False
    test_hooks: bool = False
    gc_tuning: bool = Field(
        default=True,
        description="Tune the garbage collector for a long-running server (app/gc_tuning.py); "
        "off for apps that run inside a test process, whose heap is not theirs",
    )
    ws_message_rate: str = "15/second;300/minute"
    rate_limit_rooms: str = "10/minute;100/day"
    rate_limit_joins: str = "30/minute"
    rate_limit_misses: str = "30/minute"
    rate_limit_push: str = "20/minute;200/day"
    rate_limit_links: str = "10/minute;60/day"
    vapid_private_key: str = Field(
        default="", description="The VAPID private key (PEM or raw base64url); empty: "
        "generated once into VAR_DIR/vapid_private.pem")
    vapid_subject: str = Field(
        default="mailto:push@knobel.invalid",
        description="Who push services may contact about our pushes (mailto: or https URL)")
    push_hosts: str = Field(
        default="fcm.googleapis.com,updates.push.services.mozilla.com,*.notify.windows.com,"
        "web.push.apple.com,*.push.apple.com",
        description="Comma-separated hosts of push services the server posts to (*.: any "
        "subdomain); nothing else, never loopback or private addresses")
    log_json: bool | None = None
    log_level: Literal["debug", "info", "warning", "error"] = Field(
        default="info",
        description="Log events of this level and above; each room action's own line is at "
        "debug (a slow one, over 50 ms, at warning)",
    )
    live_check_seconds: float = Field(
        default=2.0, ge=0,
        description="Seconds between checks of open rooms' versions in the database; 0: off",
    )

    presence_ttl_seconds: float = Field(
        default=15.0, gt=0,
        description="How long another process's announcement of who is online stays valid; "
        "each process re-announces every third of it (seconds)",
    )
    deadline_check_seconds: float = Field(
        default=5.0, gt=0,
        description="Seconds between looks for turn-based rooms whose deadline or push is due "
        "(any process may take them; the test clock wakes it at once)",
    )
    room_idle_seconds: float = Field(
        default=300.0, gt=0,
        description="A room with no open page here this long leaves memory (seconds)",
    )
    strategy_dir: Path | None = Field(
        default=None,
        description="Folder of the solved Kniffel strategy tables; default VAR_DIR/strategy",
    )
    template_cache_dir: Path | None = Field(
        default=None,
        description=("Folder of the compiled page templates (Jinja2 bytecode), kept across "
                     "restarts so a server starts without compiling them; default "
                     "VAR_DIR/cache/templates"),
    )
    host_grace_seconds: float = Field(
        default=30.0, gt=0,
        description="A host away this long outside a game hands the host role on (seconds)",
    )

    bot_delay_min: float = Field(
        default=0.5, ge=0, description="Shortest wait before a bot's move in a room (seconds)")
    bot_delay_max: float = Field(
        default=1.5, ge=0, description="Longest wait before a bot's move in a room (seconds)")
    bot_takeover_seconds: float = Field(
        default=30.0, ge=0,
        description="A player away this long during a game is played by a bot (seconds)")

    @model_validator(mode="after")
    def _no_test_hooks_in_production(self) -> Settings:
        """Refuse ``TEST_HOOKS=true`` with ``ENVIRONMENT=production``: test routes load dice
        and start games from fixed positions, and must never be served to players.

        Raises ``ValueError`` (a pydantic ``ValidationError``) at construction.
        """
        if self.test_hooks and self.environment == "production":
            raise ValueError("TEST_HOOKS must not be set in production (ENVIRONMENT=production)")
        return self

    def model_post_init(self, __context: object) -> None:  # noqa: D401 - pydantic hook
        """Fill the derived defaults (database file and secret key under ``var_dir``)."""
        if not self.database_url:
            self.database_url = f"sqlite:///{self.var_dir / 'knobel.sqlite3'}"
        self.database_url = normalise_database_url(self.database_url)
        if not self.secret_key:
            self.secret_key = _load_or_create_secret(self.var_dir / "secret_key")
        if self.strategy_dir is None:
            self.strategy_dir = self.var_dir / "strategy"
        if self.template_cache_dir is None:
            self.template_cache_dir = self.var_dir / "cache" / "templates"

    @property
    def push_host_list(self) -> tuple[str, ...]:
        """``push_hosts`` as a tuple of host patterns."""
        return tuple(h.strip() for h in self.push_hosts.split(",") if h.strip())

    @cached_property
    def origins(self) -> frozenset[str]:
        """The allowed WebSocket origins as a set (empty: only the request's own host)."""
        parts = self.allowed_origins.split(",")
        return frozenset(o.strip().rstrip("/") for o in parts if o.strip())

    @property
    def test_routes(self) -> bool:
        """True when the test-only routes may answer: ``test_hooks`` on and the environment
        is not production. Checked by every test route on every request, so settings made
        without validation (``model_copy``) still keep them closed in production."""
        return self.test_hooks and self.environment != "production"

    @property
    def is_sqlite(self) -> bool:
        """True when the database is SQLite."""
        return self.database_url.startswith("sqlite")

    @property
    def json_logs(self) -> bool:
        """One JSON line per log event (production default) instead of console lines."""
        return self.environment == "production" if self.log_json is None else self.log_json


def _load_or_create_secret(path: Path) -> str:
    """Read the secret in ``path``, creating it (32 random bytes, URL-safe) on first use; two
    processes starting at once read the same one (``var_files.create_once``)."""
    return create_once(path, lambda: secrets.token_urlsafe(32).encode()).decode().strip()
