"""A pytest plug-in for mutation runs only (``make mutate``; ``[tool.mutmut]`` in
pyproject.toml loads it, docs/testing.md).

mutmut runs pytest many times in one process and in processes forked from it. structlog keeps
the output stream it was last configured with (``app.logging.configure_logging``, called by
``create_app``), and pytest closes that stream when the run that configured it ends: every
later run's first log line would then fail with "I/O operation on closed file", failing the
test for a reason that has nothing to do with the mutant. So each run starts with logging
configured to its own output, as a fresh ``pytest`` process has it.
"""

from __future__ import annotations

import pytest

from app.logging import configure_logging


def pytest_sessionstart(session: pytest.Session) -> None:
    """Point structlog at this run's output (readable lines, as the tests' settings use)."""
    configure_logging(json_lines=False)
