"""Knikkers web routes: the game, leaderboards, player pages, the replay viewer, test hooks.

``router`` is included once by ``app.main.create_app``.
"""

from __future__ import annotations

from fastapi import APIRouter

from app.knikkers.routes import boards, play, players, replay, testhooks

router = APIRouter()
for _module in (play, replay, boards, players, testhooks):
    router.include_router(_module.router)
