"""Files a server makes once in ``VAR_DIR`` and then reads (the secret key, the VAPID key):
when several processes start at once, the first file written wins and every process reads
that one (a second writer must not replace it: sessions signed or pushes sent with another
key would fail on the other processes).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def create_once(path: Path, make: Callable[[], bytes]) -> bytes:
    """The content of ``path``; when it is missing (or empty), ``make()``'s bytes are written
    to a private temporary file beside it (mode 0600) and linked into place only if no other
    process got there first (``os.link`` fails then), so ``path`` never changes once it has
    content and is never seen half written. Raises ``OSError`` when the folder cannot be
    written."""
    with contextlib.suppress(FileNotFoundError):
        found = path.read_bytes()
        if found.strip():
            return found
        path.unlink()  # an empty file left by a crash: made again
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(make())
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        os.unlink(temporary)
    return path.read_bytes()
