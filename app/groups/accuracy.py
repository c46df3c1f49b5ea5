"""Each seat's accuracy in a finished game, for the group's results, from the game review's
analysis (app/review; docs/rules.md, "Hints and game analysis"), only when the strategy table
it needs is ready: recording a game never starts a table build."""

from __future__ import annotations

import dataclasses

from starlette.concurrency import run_in_threadpool

from app.groups.record import Accuracy
from app.review.service import Reviews
from app.rooms.games import GAMES
from app.rooms.state import GameInfo
from app.store.models import Game
from app.strategy.tables import room_house_rules


def accuracy_of(reviews: Reviews) -> Accuracy:
    """``accuracy(game)`` (``record.Accuracy``) over the app's ``reviews``."""

    async def accuracy(game: Game) -> dict[int, int]:
        plugin = GAMES.get(game.kind)
        if plugin is None or plugin.review is None:
            return {}
        house = room_house_rules(game.kind, game.options)
        status = await run_in_threadpool(reviews.strategy.status, game.kind, **house)
        if status != "ready":
            return {}
        done = await reviews.analysis(dataclasses.replace(GameInfo.of(game), status="finished"))
        if done is None:
            return {}
        return {seat: summary.accuracy for seat, summary in done.summary.items()
                if summary.accuracy is not None}

    return accuracy
