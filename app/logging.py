"""Structured logging with structlog: JSON lines in production, readable lines otherwise.

Log events carry ids (room, player, game), never message contents or session secrets.
"""

from __future__ import annotations

import logging

import structlog


def configure_logging(json_lines: bool) -> None:
    """Configure structlog and the standard library logger once per process."""
    renderer = (
        structlog.processors.JSONRenderer()
        if json_lines
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO),
        cache_logger_on_first_use=True,
    )


log = structlog.get_logger("knobel")
