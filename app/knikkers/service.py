"""Knikkers game actions over the event log: start, resume, move, undo.

Every action follows the same path: lock the game row (one writer per game, on SQLite and
Postgres alike), load its log, rebuild the state with the engine, let the engine decide, append
one ``game_events`` row, finish and rank the game when it is over, commit. A refused action
raises ``Refused`` and stores nothing. The browser only ever sends (src, dst) or undo; no input
sets a score. Rule source: docs/rules.md, Knikkers, "Server authority".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc, utcnow
from app.engines import knikkers as engine
from app.errors import N_, KnobelError
from app.knikkers import log, ranking
from app.knikkers.seeds import daily_seed, new_seed
from app.knikkers.variants import KIND
from app.players.service import upsert_player
from app.store.models import Game, GameEvent, Player

Cell = tuple[int, int]


class GameNotFound(LookupError):
    """No Knikkers game with that id belongs to this player (answered as 404)."""


_REASONS = {
    "not_a_cell": N_("That is not a cell of the board."),
    "no_ball": N_("Pick a marble first."),
    "taken": N_("That cell is taken."),
    "unreachable": N_("That marble cannot get there."),
    "nothing_to_undo": N_("There is no move to take back."),
    "over": N_("This game is over."),
    "stale": N_("The game changed in another window; this is the current position."),
    "playing": N_("This game is still being played."),
}
_CONFLICTS = frozenset({"over", "stale", "playing"})


class Refused(KnobelError):
    """An action the server turns down; nothing was stored (``app.errors.KnobelError``).

    ``code``: ``not_a_cell``, ``no_ball``, ``taken``, ``unreachable``, ``nothing_to_undo`` (422,
    refused by the rules) or ``over``, ``stale``, ``playing`` (409, the game is not in the state
    the client thought). ``cell`` is the (row, col) to flash red, when there is one.
    """

    def __init__(self, code: str, cell: Cell | None = None) -> None:
        super().__init__(code, _REASONS.get(code, N_("That move is not allowed.")),
                         409 if code in _CONFLICTS else 422)
        self.cell = cell


@dataclass
class Loaded:
    """A game row with its engine state; ``version`` is the seq of its last event (0: none)."""

    row: Game
    game: engine.Game
    version: int


@dataclass
class Outcome:
    """What an accepted action did: the new state, the move's result (None for an undo or a
    repeated ``action_id``) and the board just before the move (for the animation)."""

    loaded: Loaded
    result: engine.MoveResult | None = None
    before: list[list[int | None]] | None = None


async def ensure_player(session: AsyncSession, player_id: str) -> Player:
    """The profile row of ``player_id``, created without a name on first need (no commit)."""
    return await upsert_player(session, player_id)


async def start_game(
    session: AsyncSession,
    player_id: str,
    variant: int,
    *,
    seed: int | None = None,
    daily: date | None = None,
    start: log.Start | None = None,
) -> Game:
    """Create and commit a new game of ``variant`` (5 or 4) for ``player_id``.

    ``seed`` defaults to a fresh random one; ``daily`` marks the daily game of that date;
    ``start`` is a test position ``(board, upcoming)`` (checked by the engine: ValueError when
    malformed). Returns the committed ``games`` row.
    """
    seed = new_seed() if seed is None else seed
    if start is not None:
        engine.Game.from_position(start[0], start[1], variant, seed)
    else:
        engine.Game.new(seed, variant)
    await ensure_player(session, player_id)
    row = Game(
        kind=KIND,
        player_id=player_id,
        options=log.game_options(variant, daily, start),
        seat_ids=[],
        seed=seed,
        status="playing",
        started_at=utcnow(),
    )
    session.add(row)
    await session.commit()
    return row


async def current_game(session: AsyncSession, player_id: str) -> Game | None:
    """The player's most recently started Knikkers game still being played, or None."""
    stmt = (
        select(Game)
        .where(Game.player_id == player_id, Game.kind == KIND, Game.status == "playing")
        .order_by(Game.id.desc())
        .limit(1)
    )
    return (await session.execute(stmt)).scalar_one_or_none()


async def start_daily(
    session: AsyncSession, player_id: str, variant: int, today: date, *, secret: str
) -> Game:
    """Resume the player's unfinished daily game of ``today`` and ``variant``, or start it.

    ``secret`` is the server's ``SECRET_KEY``, which keys the day's seed (``seeds.daily_seed``).
    """
    stmt = select(Game).where(
        Game.player_id == player_id, Game.kind == KIND, Game.status == "playing"
    )
    for row in (await session.execute(stmt)).scalars():
        if log.variant_of(row) == variant and log.daily_of(row) == today:
            return row
    return await start_game(
        session, player_id, variant, seed=daily_seed(secret, variant, today), daily=today
    )


async def play_again(session: AsyncSession, source: Game, today: date) -> Game:
    """"Herspelen": a new game of its own with the same seed, variant and start position.

    Only a finished game can be played again (docs/rules.md, Knikkers: "End screen ... "Herspelen"
    replays the same seed"): a copy of a game still being played would let its player explore
    that game's future. It stays a daily game only while its date is still today.
    Raises Refused ``playing`` (nothing stored) for a game still being played.
    """
    if source.status != "finished":
        raise Refused("playing")
    daily = log.daily_of(source)
    return await start_game(
        session,
        source.player_id or "",
        log.variant_of(source),
        seed=source.seed,
        daily=daily if daily == today else None,
        start=log.start_of(source),
    )


async def load(session: AsyncSession, game_id: int, player_id: str | None = None) -> Loaded:
    """The Knikkers game ``game_id`` with its state rebuilt from its log.

    With ``player_id`` the game must be theirs. Raises GameNotFound otherwise.
    """
    row = await session.get(Game, game_id)
    if row is None or row.kind != KIND or (player_id is not None and row.player_id != player_id):
        raise GameNotFound(game_id)
    events = await _events(session, game_id)
    actions = [log.event_action(e) for e in events]
    return Loaded(row, log.rebuild(row, actions), events[-1].seq if events else 0)


async def load_actions(session: AsyncSession, game_id: int) -> list[dict[str, Any]]:
    """The game's log as engine action dicts, in order."""
    return [log.event_action(e) for e in await _events(session, game_id)]


async def move(
    session: AsyncSession,
    game_id: int,
    player_id: str,
    src: Cell,
    dst: Cell,
    *,
    version: int | None = None,
    action_id: str | None = None,
) -> Outcome:
    """Move the ball on ``src`` to ``dst`` in the player's game; commit the event.

    ``version``: the seq the client last saw (stale -> Refused ``stale``); ``action_id``: the
    client's id for this action, so a repeated send is applied once. Raises GameNotFound or
    Refused (nothing stored). When the move ends the game it is verified and ranked in the same
    transaction. Rule source: docs/rules.md, Knikkers ("Anything else is rejected and changes
    nothing").
    """
    return await _act(session, game_id, player_id, ("move", src, dst), version, action_id)


async def undo(
    session: AsyncSession,
    game_id: int,
    player_id: str,
    *,
    version: int | None = None,
    action_id: str | None = None,
) -> Outcome:
    """Take back the player's last move ("Terug"); commit the event.

    Raises Refused ``nothing_to_undo`` when the last action was not a move (docs/rules.md, Knikkers:
    "takes back the last move only (not two in a row)"), plus the errors of ``move``.
    """
    return await _act(session, game_id, player_id, ("undo",), version, action_id)


async def _act(
    session: AsyncSession,
    game_id: int,
    player_id: str,
    action: tuple,
    version: int | None,
    action_id: str | None,
) -> Outcome:
    try:
        return await _apply(session, game_id, player_id, action, version, action_id)
    except BaseException:
        await session.rollback()
        raise


async def _apply(
    session: AsyncSession,
    game_id: int,
    player_id: str,
    action: tuple,
    version: int | None,
    action_id: str | None,
) -> Outcome:
    await _lock(session, game_id, player_id)
    row = (
        await session.execute(
            select(Game).where(Game.id == game_id).execution_options(populate_existing=True)
        )
    ).scalar_one()
    events = await _events(session, game_id)
    actions = [log.event_action(e) for e in events]
    current = events[-1].seq if events else 0
    if action_id and any(e.action_id == action_id for e in events):
        await session.commit()  # a repeated send: already applied, answer with the state
        return Outcome(Loaded(row, log.rebuild(row, actions), current))
    if row.status != "playing":
        raise Refused("over")
    if version is not None and version != current:
        raise Refused("stale")
    game = log.rebuild(row, actions)
    result = before = None
    if action[0] == "move":
        src, dst = action[1], action[2]
        before = game.board
        result = _checked_move(game, src, dst)
        payload: dict[str, Any] = {"src": list(src), "dst": list(dst)}
    else:
        if not game.can_undo:
            raise Refused("nothing_to_undo")
        game.undo()
        payload = {}
    entry = {"type": action[0], **payload}  # the engine's dict form of the new event
    session.add(
        GameEvent(game_id=game_id, seq=current + 1, type=action[0], payload=payload,
                  action_id=action_id or None, created_at=utcnow())
    )
    await session.flush()
    if game.over:
        await ranking.finish(session, row, [*actions, entry], utcnow())
    await session.commit()
    return Outcome(Loaded(row, game, current + 1), result, before)


def _checked_move(game: engine.Game, src: Cell, dst: Cell) -> engine.MoveResult:
    """``game.move(src, dst)`` with the reason for a refusal named (as ``Refused``)."""
    board = game.board
    for cell in (src, dst):
        if not (0 <= cell[0] < 9 and 0 <= cell[1] < 9):
            raise Refused("not_a_cell")
    if board[src[0]][src[1]] is None:
        raise Refused("no_ball", src)
    if board[dst[0]][dst[1]] is not None:
        raise Refused("taken", dst)
    try:
        return game.move(src, dst)
    except engine.IllegalMove as exc:
        raise Refused("unreachable", dst) from exc


async def _lock(session: AsyncSession, game_id: int, player_id: str) -> None:
    """Take the game row's write lock for this transaction (a no-op UPDATE), or GameNotFound.

    Postgres: a row lock held until commit; SQLite: the database write lock, taken before any
    read so the log read next is the latest. Concurrent actions on one game are serialised.
    """
    stmt = (
        update(Game)
        .where(Game.id == game_id, Game.player_id == player_id, Game.kind == KIND)
        .values(status=Game.status)
        .execution_options(synchronize_session=False)
    )
    if cast(CursorResult[Any], await session.execute(stmt)).rowcount != 1:
        await session.rollback()
        raise GameNotFound(game_id)


async def _events(session: AsyncSession, game_id: int) -> Sequence[GameEvent]:
    stmt = select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.seq)
    return (await session.execute(stmt)).scalars().all()


def elapsed_seconds(row: Game, now: datetime | None = None) -> int:
    """Seconds from the game's start to its end (or to ``now`` while it is being played)."""
    end = row.finished_at or now or utcnow()
    return max(0, int((as_utc(end) - as_utc(row.started_at)).total_seconds()))
