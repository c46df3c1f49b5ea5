"""Leaderboard queries: ranked pages with ties, keyset pagination, and one player's own row.

Two modes over one board:
- ``players``: one row per player, their best (``knikkers_bests``, one index range per board);
- ``games``: every finished game (``knikkers_scores``).
Order: score descending, then the earlier ``finished_at``, then player id / game id. Rank with
ties (1, 2, 2, 4): ``1 + count(rows with a strictly higher score)``; in players mode that count
is a sum over ``knikkers_score_counts`` (one row per distinct score), in games mode an index range
count over ``knikkers_scores``.
docs/rules.md, Knikkers, "Leaderboards and statistics"; the bench (bench/leaderboard.py) times
these queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, cast

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.knikkers.periods import daily_board, period_board, period_range
from app.store.models import KnikkersBest, KnikkersScore, KnikkersScoreCount, Player

PAGE_SIZE = 50
MODES = ("players", "games")


@dataclass(frozen=True)
class Board:
    """One ranking: a variant plus a period board (``all``, ``month:...``, ...) or a daily date.

    ``key`` selects rows of ``knikkers_bests``; ``since``/``until``/``daily`` select the same
    games from ``knikkers_scores``.
    """

    variant: int
    key: str
    since: datetime | None = None
    until: datetime | None = None
    daily: date | None = None

    @classmethod
    def for_period(cls, variant: int, period: str, now: datetime) -> Board:
        """The board of ``period`` (all, month, week, today) at ``now`` (UTC)."""
        span = period_range(period, now)
        since, until = span if span else (None, None)
        return cls(variant, period_board(period, now), since, until)

    @classmethod
    def for_daily(cls, variant: int, day: date) -> Board:
        """The daily game's board of ``day``."""
        return cls(variant, daily_board(day), daily=day)


@dataclass
class Entry:
    """One leaderboard row: rank (with ties), player, and the game behind the score."""

    rank: int
    player_id: str
    name: str | None
    score: int
    moves: int
    lines: int
    finished_at: datetime
    game_id: int


@dataclass
class Page:
    """A page of entries, the cursor of the next page (None at the end) and the viewer's row."""

    entries: list[Entry]
    next_after: str | None = None
    me: Entry | None = None
    me_on_page: bool = False
    mode: str = "players"
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Source:
    """Where one mode's rows live: the model, its tiebreak column and the board's conditions."""

    model: Any
    tiebreak: Any
    conditions: tuple


def _source(board: Board, mode: str) -> _Source:
    conds: tuple[Any, ...]
    if mode == "players":
        conds = (KnikkersBest.variant == board.variant, KnikkersBest.board == board.key)
        return _Source(KnikkersBest, KnikkersBest.player_id, conds)
    conds = (KnikkersScore.variant == board.variant,)
    if board.daily is not None:
        conds += (KnikkersScore.daily == board.daily,)
    if board.since is not None:
        conds += (KnikkersScore.finished_at >= board.since,)
    if board.until is not None:
        conds += (KnikkersScore.finished_at < board.until,)
    return _Source(KnikkersScore, KnikkersScore.game_id, conds)


def encode_cursor(entry: Entry, mode: str) -> str:
    """The keyset cursor after ``entry``: ``<score>.<finished epoch microseconds>.<tiebreak>``."""
    moment = as_utc(entry.finished_at)
    micros = int(moment.timestamp()) * 1_000_000 + moment.microsecond
    key = entry.player_id if mode == "players" else str(entry.game_id)
    return f"{entry.score}.{micros}.{key}"


def decode_cursor(cursor: str | None, mode: str) -> tuple[int, datetime, Any] | None:
    """``(score, finished_at, tiebreak)`` from a cursor, or None when absent or malformed."""
    if not cursor:
        return None
    parts = cursor.split(".")
    if len(parts) != 3:
        return None
    try:
        score, micros = int(parts[0]), int(parts[1])
        moment = datetime.fromtimestamp(micros // 1_000_000, UTC).replace(
            microsecond=micros % 1_000_000
        )
        key: Any = parts[2] if mode == "players" else int(parts[2])
    except (ValueError, OverflowError, OSError):
        return None
    if not -(2**31) <= score < 2**31:  # the score columns are 32-bit integers
        return None
    if mode == "players" and not (len(key) == 32 and key.isalnum()):
        return None
    if mode == "games" and not 0 < key < 2**31:
        return None
    return score, moment, key


def _before(src: _Source, finished_at: datetime, key: Any) -> Any:
    """Rows of equal score ordered before (finished_at, key)."""
    m = src.model
    return or_(
        m.finished_at < finished_at, and_(m.finished_at == finished_at, src.tiebreak < key)
    )


async def _count(session: AsyncSession, src: _Source, *extra: Any) -> int:
    stmt = select(func.count()).select_from(src.model).where(*src.conditions, *extra)
    return int(await session.scalar(stmt) or 0)


async def rank_of(session: AsyncSession, board: Board, score: int, mode: str = "players") -> int:
    """The rank a ``score`` has on ``board``: 1 + the number of strictly higher scores.

    Players mode sums ``knikkers_score_counts`` over the higher scores (one row per distinct
    score); games mode counts ``knikkers_scores`` rows.
    """
    if mode == "players":
        c = KnikkersScoreCount
        total = await session.scalar(
            select(func.coalesce(func.sum(c.players), 0)).where(
                c.variant == board.variant, c.board == board.key, c.score > score
            )
        )
        return 1 + int(total or 0)
    src = _source(board, mode)
    return 1 + await _count(session, src, src.model.score > score)


def _entry(row: Any, name: str | None, mode: str, rank: int = 0) -> Entry:
    return Entry(
        rank=rank,
        player_id=row.player_id,
        name=name,
        score=row.score,
        moves=row.moves,
        lines=row.lines,
        finished_at=row.finished_at,
        game_id=row.game_id,
    )


async def page(
    session: AsyncSession,
    board: Board,
    *,
    mode: str = "players",
    after: str | None = None,
    viewer: str | None = None,
    limit: int = PAGE_SIZE,
) -> Page:
    """One page of ``board`` in ``mode`` (``players`` or ``games``), after the cursor ``after``.

    Returns the entries with their ranks (ties share a rank; a page that starts inside a tie
    gets the tie's rank), the next cursor, and ``viewer``'s own best row with its rank (None when
    they have no game on the board). Raises ValueError for an unknown mode.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    src = _source(board, mode)
    m = src.model
    stmt = (
        select(m, Player.name)
        .join(Player, Player.id == m.player_id)
        .where(*src.conditions)
        .order_by(m.score.desc(), m.finished_at.asc(), src.tiebreak.asc())
        .limit(limit + 1)
    )
    cursor = decode_cursor(after, mode)
    if cursor is not None:
        score, finished_at, key = cursor
        stmt = stmt.where(
            m.score <= score,  # the index range start; the OR below settles the tie
            or_(m.score < score, and_(m.score == score, _after(src, finished_at, key))),
        )
    rows = list((await session.execute(stmt)).all())
    more = len(rows) > limit
    rows = rows[:limit]
    entries = await _ranked(session, board, src, rows, mode, first_page=cursor is None)
    result = Page(entries, mode=mode)
    if more and entries:
        result.next_after = encode_cursor(entries[-1], mode)
    if viewer:
        result.me = await own_entry(session, board, viewer, mode)
        if result.me is not None:
            keys = {(e.player_id, e.game_id) for e in entries}
            result.me_on_page = (result.me.player_id, result.me.game_id) in keys
    return result


def _after(src: _Source, finished_at: datetime, key: Any) -> Any:
    m = src.model
    return or_(
        m.finished_at > finished_at, and_(m.finished_at == finished_at, src.tiebreak > key)
    )


async def _ranked(
    session: AsyncSession, board: Board, src: _Source, rows: list, mode: str, *, first_page: bool
) -> list[Entry]:
    """Entries with ranks: the first row's rank is counted, the rest follow from the page."""
    if not rows:
        return []
    first = rows[0][0]
    if first_page:
        better = tied_before = 0
    else:
        better = await rank_of(session, board, first.score, mode) - 1
        key = first.player_id if mode == "players" else first.game_id
        tied_before = await _count(
            session, src, src.model.score == first.score, _before(src, first.finished_at, key)
        )
    position = better + tied_before + 1
    entries: list[Entry] = []
    for i, (row, name) in enumerate(rows):
        if entries and row.score == entries[-1].score:
            rank = entries[-1].rank
        else:
            rank = better + 1 if i == 0 else position + i
        entries.append(_entry(row, name, mode, rank))
    return entries


async def own_entry(
    session: AsyncSession, board: Board, player_id: str, mode: str = "players"
) -> Entry | None:
    """``player_id``'s best row on ``board`` with its rank, or None when they have none."""
    src = _source(board, mode)
    m = src.model
    stmt = (
        select(m, Player.name)
        .join(Player, Player.id == m.player_id)
        .where(*src.conditions, m.player_id == player_id)
    )
    if mode != "players":  # players mode is one primary-key row; games mode takes the best
        stmt = stmt.order_by(m.score.desc(), m.finished_at.asc(), src.tiebreak.asc()).limit(1)
    found = (await session.execute(stmt)).first()
    if found is None:
        return None
    row, name = cast(tuple[Any, str | None], found)
    return _entry(row, name, mode, await rank_of(session, board, row.score, mode))


async def record(session: AsyncSession, player_id: str, variant: int) -> int | None:
    """The player's all-time best score in ``variant`` ("Record"), or None before any game."""
    return await session.scalar(
        select(KnikkersBest.score).where(
            KnikkersBest.variant == variant,
            KnikkersBest.board == "all",
            KnikkersBest.player_id == player_id,
        )
    )
