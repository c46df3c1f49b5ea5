"""Who is online in each room, over every process: this process's sockets, the other
processes' announcements (which expire), and since when each player has been away."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime

from app.clock import utcnow


class Presence:
    """Presence per room. One object per app, given to the hub (which reports sockets and
    announcements) and to the room service (which reads who is online and since when a player
    is away). ``ttl``: seconds an announcement of another process stays valid; ``clock()``:
    monotonic seconds."""

    def __init__(self, ttl: float = 15.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.clock = clock
        self._local: dict[str, Counter[str]] = {}
        self._remote: dict[str, dict[str, tuple[frozenset[str], float]]] = {}
        self._away: dict[str, dict[str, datetime]] = {}

    def local(self, code: str) -> frozenset[str]:
        """Player ids with an open socket in room ``code`` on this process."""
        return frozenset(self._local.get(code, ()))

    def online(self, code: str) -> frozenset[str]:
        """Player ids with an open socket in room ``code`` on any process."""
        now = self.clock()
        remote = [players for players, expires in self._remote.get(code, {}).values()
                  if expires > now]
        return self.local(code).union(*remote)

    def away_since(self, code: str) -> dict[str, datetime]:
        """When each player of room ``code`` was last seen going away (UTC)."""
        return self._away.get(code, {})

    def opened(self, code: str, player: str) -> None:
        """A socket of ``player`` opened here."""
        self._local.setdefault(code, Counter())[player] += 1

    def closed(self, code: str, player: str) -> None:
        """A socket of ``player`` closed here."""
        sockets = self._local.get(code)
        if sockets is None:
            return
        sockets[player] -= 1
        if sockets[player] <= 0:
            del sockets[player]
        if not sockets:
            del self._local[code]

    def announced(self, code: str, process: str, players: frozenset[str]) -> None:
        """Another ``process`` says ``players`` have a socket in ``code`` there (valid for
        ``ttl`` seconds from now; an empty set withdraws its announcement at once)."""
        if players:
            self._remote.setdefault(code, {})[process] = (players, self.clock() + self.ttl)
            return
        processes = self._remote.get(code, {})
        processes.pop(process, None)
        if not processes:
            self._remote.pop(code, None)

    def next_expiry(self) -> float | None:
        """The earliest moment (``clock()`` seconds) an announcement runs out, or None."""
        return min((expires for processes in self._remote.values()
                    for _, expires in processes.values()), default=None)

    def expire(self) -> list[tuple[str, frozenset[str]]]:
        """Drop announcements past their time; returns each room whose presence that may
        change, with who was online before."""
        now = self.clock()
        changed = []
        for code, processes in list(self._remote.items()):
            gone = [process for process, (_, expires) in processes.items() if expires <= now]
            if gone:
                before = self.local(code).union(*(pl for pl, _ in processes.values()))
                for process in gone:
                    del processes[process]
                if not processes:
                    del self._remote[code]
                changed.append((code, before))
        return changed

    def settle(self, code: str, before: frozenset[str]) -> bool:
        """After a possible change in ``code``: note who went away (now) and who came back;
        True when who is online changed."""
        after = self.online(code)
        if after == before:
            return False
        away = self._away.setdefault(code, {})
        for player in before - after:
            away[player] = utcnow()
        for player in after - before:
            away.pop(player, None)
        return True

    def forget(self, code: str) -> None:
        """Drop what is kept for room ``code`` (it left memory)."""
        self._remote.pop(code, None)
        self._away.pop(code, None)
