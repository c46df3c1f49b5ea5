"""The suite's xdist scheduler: a test file at a time (``--dist loadfile``), with at most
``BROWSER_FILES`` browser test files running at once.

Why: the browser files keep the machine's two cores busy (Chromium's renderers, Playwright's
driver, a server each), while most other files mostly wait (sockets, servers starting, a
database). With two workers, both ran browser files for the first half of a run and then sat
half idle for the second half (``vmstat``: 3-5 % idle, then 50-60 %). With one or two more
workers and this cap, the waiting files run beside the browser files instead of after them,
and the browsers never get more company of their own kind than on two workers.

A browser test file is one whose name ends in ``_browser.py`` (the suite's convention: every
test that starts Chromium lives in such a file; ``tests/test_conventions.py`` checks it).
Files are handed out in the collected order (``tests/conftest.py`` puts the longest first),
skipping a browser file while the cap is reached; a worker with nothing it may take waits
until a browser file ends.
"""

from __future__ import annotations

from typing import Any

from xdist.scheduler import LoadFileScheduling

BROWSER_FILES = 2
"""Browser test files running at the same time (the machines' cores)."""


def is_browser_file(scope: str) -> bool:
    """True for a test file that drives Chromium (``..._browser.py``); ``scope`` is a file's
    node id (``tests/web/test_axe_browser.py``)."""
    return scope.endswith("_browser.py")


class BrowserCappedScheduling(LoadFileScheduling):
    """xdist's ``loadfile`` scheduling with at most ``browsers`` browser files at once."""

    def __init__(self, config: Any, log: Any = None, browsers: int = BROWSER_FILES) -> None:
        super().__init__(config, log)
        self.browsers = browsers

    def _running_browser_files(self) -> int:
        """Browser files handed out whose tests have not all finished, except on a worker
        that holds a single unfinished test: xdist's worker runs a test only once it holds
        the next one (or is told to shut down), so that worker waits for more work and its
        browser is idle (counting it, two workers each down to their last browser test
        waited for each other forever)."""
        running = 0
        for work in self.assigned_work.values():
            if sum(not done for unit in work.values() for done in unit.values()) <= 1:
                continue
            running += sum(1 for scope, unit in work.items()
                           if is_browser_file(scope) and not all(unit.values()))
        return running

    def _pick(self) -> str | None:
        """The first file in the queue a worker may take now (None: only browser files are
        left and the cap is reached)."""
        browser_ok = self._running_browser_files() < self.browsers
        for scope in self.workqueue:
            if browser_ok or not is_browser_file(scope):
                return scope
        return None

    def _assign_work_unit(self, node: Any) -> None:
        """Give ``node`` the next file it may take, if any."""
        scope = self._pick()
        if scope is None:
            return
        work_unit = self.workqueue.pop(scope)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        collection = self.registered_collections[node]
        node.send_runtest_some([collection.index(nodeid) for nodeid, done in work_unit.items()
                                if not done])

    def mark_test_complete(self, node: Any, item_index: int | str,
                           duration: float = 0) -> None:
        """As xdist does; then, since a browser file may just have ended, offer work to every
        worker that is running low (not only to ``node``)."""
        super().mark_test_complete(node, item_index, duration)
        for other in self.nodes:
            if other is not node:
                self._reschedule(other)
