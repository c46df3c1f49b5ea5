"""The in-memory storage of every rate limit's counters (``limits``): the web layer's
(``app.web.ratelimit``) and the talk service's (``app.talk.service``)."""

from __future__ import annotations

import threading

from limits.storage import MemoryStorage


class SparseExpiryStorage(MemoryStorage):
    """``limits``' in-memory storage whose walk over every key, to drop expired ones, runs
    at most once every ``EXPIRE_EVERY`` seconds instead of 10 ms after any hit.

    Expired counters are also dropped when read (``MemoryStorage.get``), so the walk decides
    nothing: it only bounds memory. At 2,000 open sockets (about 8,000 keys of sliding
    windows) the library's 10 ms walk, on a thread holding the GIL, took about a tenth of
    the server's CPU (bench/README.md, "rooms_load.py").
    """

    EXPIRE_EVERY = 1.0  # seconds

    def _MemoryStorage__schedule_expiry(self) -> None:  # the library's private hook
        if not self.timer.is_alive():
            walk = getattr(self, "_MemoryStorage__expire_events")  # noqa: B009 (the library's walk, name-mangled)
            self.timer = threading.Timer(self.EXPIRE_EVERY, walk)
            self.timer.daemon = True
            self.timer.start()
