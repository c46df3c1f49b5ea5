"""Structured logging with structlog: JSON lines in production, readable lines otherwise.

Log events carry ids (room, player, game), never message contents or session secrets. In JSON
mode the standard library's loggers (uvicorn's included) are rendered as JSON lines too.
"""

from __future__ import annotations

import logging
import sys

import structlog

_SHARED: list[structlog.typing.Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.processors.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
    structlog.processors.format_exc_info,
]


LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
          "error": logging.ERROR}
"""The names ``LOG_LEVEL`` takes."""


def configure_logging(json_lines: bool, level: str = "info") -> None:
    """Configure structlog, and in JSON mode the standard library's loggers as well, to
    log events of ``level`` (a key of ``LEVELS``) and above. A filtered call costs nothing
    but the call: each room action's own line is at debug (``app.rooms.service``)."""
    renderer = (
        structlog.processors.JSONRenderer()
        if json_lines
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[*_SHARED, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS[level]),
        logger_factory=structlog.PrintLoggerFactory(sys.stdout),
        cache_logger_on_first_use=False,
    )
    if json_lines:
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[*_SHARED[1:], structlog.stdlib.add_logger_name],
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                        structlog.processors.JSONRenderer()],
        ))
        for name in ("", "uvicorn", "uvicorn.error", "uvicorn.access"):
            logger = logging.getLogger(name)
            logger.handlers = [handler]
            logger.propagate = False
            if name == "":
                logger.setLevel(logging.INFO)


log = structlog.get_logger("knobel")
