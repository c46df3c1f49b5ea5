"""Loaded by the server ``bench/soak.py --arenas`` starts (this folder is put first on its
``PYTHONPATH``): on SIGUSR1 the server writes CPython's allocator statistics
(``sys._debugmallocstats``: pymalloc arenas, bytes in use and free) to
``$KNOBEL_MEMSTATS.<n>``, n = 1, 2, ... Nothing else changes in the server."""

import os
import signal
import sys

_target = os.environ.get("KNOBEL_MEMSTATS")
if _target:
    _count = [0]

    def _dump(signum, frame):  # the statistics go to stderr: point it at a file meanwhile
        _count[0] += 1
        fd = os.open(f"{_target}.{_count[0]}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        saved = os.dup(2)
        os.dup2(fd, 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(fd)
            os.close(saved)

    signal.signal(signal.SIGUSR1, _dump)
