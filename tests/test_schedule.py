"""The suite's xdist scheduler (tests/support/schedule.py): a file at a time, never more
than two browser files at once, every test run exactly once, idle workers served again when a
browser file ends."""

from __future__ import annotations

from types import SimpleNamespace

from tests.support.schedule import BrowserCappedScheduling, is_browser_file

FILES = {  # in the collected order: the longest first
    "tests/web/test_axe_browser.py": 3,
    "tests/rooms/test_faults.py": 4,
    "tests/rooms/bots/test_browser.py": 2,
    "tests/a/test_one_browser.py": 2,
    "tests/a/test_two_browser.py": 1,
    "tests/b/test_plain.py": 5,
    "tests/b/test_other.py": 1,
}
COLLECTION = [f"{path}::test_{i}" for path, n in FILES.items() for i in range(n)]


class Node:
    """A stand-in for xdist's WorkerController: what it was sent to run."""

    def __init__(self, name: str) -> None:
        self.name, self.shutting_down, self.queue = name, False, []
        self.gateway = SimpleNamespace(id=name)

    def send_runtest_some(self, indices: list[int]) -> None:
        self.queue.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def scheduler(workers: int, collection: list[str] = COLLECTION
              ) -> tuple[BrowserCappedScheduling, list[Node]]:
    config = SimpleNamespace(getvalue=lambda name: [f"{workers}*popen"],
                             option=SimpleNamespace(loadscopereorder=False))
    sched = BrowserCappedScheduling(config)
    nodes = [Node(f"gw{i}") for i in range(workers)]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()
    return sched, nodes


def running_browser_files(sched: BrowserCappedScheduling, nodes: list[Node]) -> set[str]:
    return {COLLECTION[i].split("::")[0] for node in nodes for i in node.queue
            if is_browser_file(COLLECTION[i].split("::")[0])}


def test_browser_files_are_known_by_their_name() -> None:
    assert is_browser_file("tests/web/test_axe_browser.py")
    assert is_browser_file("tests/knikkers/test_browser.py")
    assert not is_browser_file("tests/web/test_browser_smoke.py")
    assert not is_browser_file("tests/rooms/test_faults.py")


def test_three_workers_run_every_test_once_with_at_most_two_browser_files_at_once() -> None:
    sched, nodes = scheduler(3)
    ran: list[str] = []
    most = 0
    while len(ran) < len(COLLECTION):
        # as xdist's worker: a test runs once the worker holds the next one (or shuts down)
        busy = [n for n in nodes if len(n.queue) > 1 or (n.queue and n.shutting_down)]
        assert busy, "no worker can run a test, yet tests are left"
        most = max(most, sum(is_browser_file(COLLECTION[n.queue[0]].split("::")[0])
                             for n in busy))  # browser tests running at this moment
        node = busy[0]  # the first busy worker finishes its next test
        index = node.queue.pop(0)
        ran.append(COLLECTION[index])
        sched.mark_test_complete(node, index)
    assert sorted(ran) == sorted(COLLECTION)
    assert most == 2
    assert not sched.workqueue and all(n.shutting_down for n in nodes)
    # the first three files went out at once: two browser files and the plain one between
    first = {COLLECTION[n.queue[0]].split("::")[0] for n in scheduler(3)[1] if n.queue}
    assert first == {"tests/web/test_axe_browser.py", "tests/rooms/test_faults.py",
                     "tests/rooms/bots/test_browser.py"}


def plain(index: int) -> bool:
    return not is_browser_file(COLLECTION[index].split("::")[0])


def test_a_worker_left_with_only_browser_files_waits_and_is_served_when_one_ends() -> None:
    sched, nodes = scheduler(3)
    # run everything that is not a browser test; the browser files stay unfinished
    while any(plain(i) for n in nodes for i in n.queue):
        node = next(n for n in nodes if any(plain(i) for i in n.queue))
        index = next(i for i in node.queue if plain(i))
        node.queue.remove(index)
        sched.mark_test_complete(node, index)
    assert len(running_browser_files(sched, nodes)) == 2
    idle = [n for n in nodes if not n.queue]
    assert len(idle) == 1 and len(sched.workqueue) == 2  # two browser files wait
    # one browser file ends on its worker: an idle worker (or that one) takes the next
    owner = next(n for n in nodes if n.queue)
    while owner.queue:
        index = owner.queue.pop(0)
        sched.mark_test_complete(owner, index)
        if not any(COLLECTION[i].split("::")[0] == COLLECTION[index].split("::")[0]
                   for i in owner.queue):
            break
    assert len(running_browser_files(sched, nodes)) == 2


def test_workers_left_with_browser_files_only_never_wait_for_each_other() -> None:
    """An xdist worker runs a test only once it holds the next one (or was told to shut
    down): a worker down to the last test of its browser file waits for more work, so that
    file must not count against the cap, or two workers each down to their last browser test
    wait for each other forever (``pytest -m browser -n 2`` hung so, session 16)."""
    browser_only = [c for c in COLLECTION if is_browser_file(c.split("::")[0])]
    for workers in (2, 3):
        sched, nodes = scheduler(workers, browser_only)
        ran: list[str] = []
        while len(ran) < len(browser_only):
            ready = [n for n in nodes if len(n.queue) > 1 or (n.queue and n.shutting_down)]
            assert ready, ("every worker waits for its next test", [n.queue for n in nodes])
            node = ready[0]
            index = node.queue.pop(0)
            ran.append(browser_only[index])
            sched.mark_test_complete(node, index)
        assert sorted(ran) == sorted(browser_only)


def test_the_longest_files_named_in_conftest_exist() -> None:
    """A renamed file would silently lose its early start."""
    from app.settings import ROOT
    from tests.conftest import LONGEST

    assert [path for path in LONGEST if not (ROOT / path).is_file()] == []
