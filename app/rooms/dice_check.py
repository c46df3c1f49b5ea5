"""Checking a room game's dice (docs/dice.md): its public record (``/r/<code>/games/<n>.json``)
and every server throw recomputed from the revealed seed.

Secrecy: the seed of a game leaves the server only once the game is over (``revealed``); before
that the record holds the commitment and the throws already made, nothing else of the seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import utcnow
from app.engines.fair_dice import VERSION, commitment, faces
from app.rooms.dice import dice_game
from app.rooms.games.base import GamePlugin
from app.rooms.games.capabilities import LoggedThrow, dice_log_of
from app.rooms.repository import to_event
from app.rooms.state import GameInfo
from app.store.models import GameEvent


@dataclass(frozen=True)
class ThrowCheck:
    """One logged server throw and, once the seed is revealed, the faces the seed gives
    (``expected``; None before the end): ``ok`` when they are the logged ones."""

    throw: LoggedThrow
    expected: tuple[int, ...] | None

    @property
    def ok(self) -> bool:
        """True when the recomputed faces equal the logged ones."""
        return self.expected == self.throw.faces


@dataclass(frozen=True)
class DiceRecord:
    """A game's dice as anyone may see them: the function's name (``fair_dice.VERSION``),
    the game's name in it (``game``), the ``commitment`` (SHA-256 of the seed), the ``seed``
    (None until the game is over), the logged ``events`` (``base.Event``) and its ``throws``."""

    game: str
    commitment: str
    seed: str | None
    events: list[Any]
    throws: list[ThrowCheck]

    @property
    def mismatches(self) -> list[ThrowCheck]:
        """The throws whose logged faces the seed does not give (empty before the end)."""
        return [t for t in self.throws if t.expected is not None and not t.ok]

    @property
    def seed_matches(self) -> bool:
        """True when the revealed seed's SHA-256 is the commitment shown during the game."""
        return self.seed is not None and commitment(self.seed) == self.commitment


def checkable(plugin: GamePlugin, game: GameInfo) -> bool:
    """True when ``game`` drew its dice from a committed seed (a ``DiceLog`` and a seed)."""
    return dice_log_of(plugin) is not None and game.dice_seed is not None


def revealed(game: GameInfo, today: str | None = None) -> str | None:
    """``game``'s seed when it may be shown (the game is over), else None. A daily
    challenge's seed (``options["daily"]``) is the whole day's: shown only once ``today``
    (``YYYY-MM-DD``, UTC; now when None) is a later day."""
    if game.status != "finished":
        return None
    day = game.options.get("daily")
    if day and str(day) >= (today or utcnow().date().isoformat()):
        return None
    return game.dice_seed


def shown(plugin: GamePlugin, game: GameInfo | None) -> tuple[str | None, str | None]:
    """What a room page shows of ``game``'s dice: ``(commitment, seed)``, the seed None
    until the game is over, both None for a game that is not ``checkable`` (or no game)."""
    if game is None or game.dice_seed is None or not checkable(plugin, game):
        return None, None
    return commitment(game.dice_seed), revealed(game)


async def game_events(session: AsyncSession, game_id: int) -> list[Any]:
    """The stored events of game ``game_id`` in order (``base.Event``)."""
    rows = (await session.execute(select(GameEvent).where(GameEvent.game_id == game_id)
                                  .order_by(GameEvent.seq))).scalars()
    return [to_event(row) for row in rows]


def record(plugin: GamePlugin, code: str, game: GameInfo, events: list[Any]) -> DiceRecord:
    """The dice record of ``game`` of room ``code`` from its stored ``events``: each server
    throw (``DiceLog.logged`` on the game folded up to it) and, once the game is over, the
    faces its seed gives. ``ValueError`` for a game that is not ``checkable``."""
    log = dice_log_of(plugin)
    if log is None or game.dice_seed is None:
        raise ValueError("this game's dice have no seed")
    name, seed = dice_game(code, game.number, game.options, game.kind), revealed(game)
    state = plugin.new_state(game.options, game.seat_ids, 0)
    throws = []
    for event in events:
        logged = log.logged(state, event)
        if logged is not None:
            expected = None if seed is None else tuple(
                faces(seed, name, logged.at.turn, logged.at.throw, logged.at.slots))
            throws.append(ThrowCheck(logged, expected))
        plugin.apply(state, event)
    return DiceRecord(name, commitment(game.dice_seed), seed, events, throws)


def public_json(code: str, game: GameInfo, dice: DiceRecord) -> dict[str, Any]:
    """The game's public record as JSON (``/r/<code>/games/<n>.json``, docs/dice.md): what a
    stdlib-only script needs to recompute every throw (``scripts/verify_dice.py``)."""
    return {
        "function": VERSION, "room": code, "number": game.number, "kind": game.kind,
        "game": dice.game, "status": game.status, "options": game.options,
        "order": game.seat_ids, "commitment": dice.commitment, "seed": dice.seed,
        "totals": {str(k): v for k, v in game.totals.items()},
        "events": [{"seq": i, "type": e.type, "seat": e.seat_id, "payload": e.payload}
                   for i, e in enumerate(dice.events, start=1)],
        "throws": [{"turn": t.throw.at.turn, "throw": t.throw.at.throw,
                    "slots": list(t.throw.at.slots), "seat": t.throw.seat,
                    "faces": list(t.throw.faces),
                    **({"expected": list(t.expected), "ok": t.ok}
                       if t.expected is not None else {})} for t in dice.throws],
    }
