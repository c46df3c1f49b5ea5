"""A player's finished room games (every game kind) and their numbers per rule set, for the
history page ``/players/<id>/games`` (docs/rules.md, "History").

Score and rank come from the totals stored with each game; accuracy (Kniffel family) from the
summary the analysis stores with it (``Reviews``), once analysed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.review.service import stored_accuracy
from app.rooms.rules import ranking
from app.rooms.state import GameInfo
from app.store.models import Game, Room, Seat

MAX_GAMES = 1000  # the latest games counted on one page


@dataclass
class PlayedGame:
    """One finished room game of the player: when it ended (UTC), its kind, the room and game
    number (for the review link), the player's seat, score and rank among ``players`` seats
    (None: the seat left the game before it ended), and accuracy (None: not analysed yet or
    not a Kniffel-family game)."""

    finished_at: datetime
    kind: str
    code: str
    number: int
    seat: int
    score: int
    rank: int | None
    players: int
    accuracy: int | None
    game: GameInfo


@dataclass
class KindStats:
    """A player's numbers in one game kind: games, average and best score, average accuracy
    (over the analysed games; None without any) and the scores in time order (oldest first,
    with their dates)."""

    kind: str
    games: int = 0
    best: int = 0
    average: float = 0.0
    accuracy: float | None = None
    history: list[tuple[datetime, int]] = field(default_factory=list)


async def played_games(session: AsyncSession, player_id: str) -> list[PlayedGame]:
    """The player's finished room games, oldest first (at most the latest ``MAX_GAMES``)."""
    rows = (await session.execute(
        select(Game, Seat.id, Room.code)
        .join(Seat, Seat.room_id == Game.room_id)
        .join(Room, Room.id == Game.room_id)
        .where(Seat.player_id == player_id, Game.status == "finished")
        .order_by(Game.finished_at.desc(), Game.id.desc())
        .limit(MAX_GAMES))).all()
    played = []
    for game, seat_id, code in reversed(rows):
        info = GameInfo.of(game)
        if seat_id not in game.seat_ids or seat_id not in info.totals:
            continue
        rank, _, score = next(line for line in ranking(info.totals, info.left)
                              if line[1] == seat_id)
        played.append(PlayedGame(
            as_utc(game.finished_at or game.started_at), game.kind, code, game.number, seat_id,
            score, rank, len(info.totals),
            stored_accuracy(game.result, seat_id), info))
    return played


def per_kind(played: list[PlayedGame]) -> list[KindStats]:
    """``KindStats`` per game kind the player played, most played first."""
    stats: dict[str, KindStats] = {}
    accuracies: dict[str, list[int]] = {}
    for game in played:
        entry = stats.setdefault(game.kind, KindStats(game.kind))
        entry.games += 1
        entry.best = max(entry.best, game.score)
        entry.history.append((game.finished_at, game.score))
        if game.accuracy is not None:
            accuracies.setdefault(game.kind, []).append(game.accuracy)
    for kind, entry in stats.items():
        entry.average = sum(score for _, score in entry.history) / entry.games
        values = accuracies.get(kind)
        entry.accuracy = sum(values) / len(values) if values else None
    return sorted(stats.values(), key=lambda s: (-s.games, s.kind))
