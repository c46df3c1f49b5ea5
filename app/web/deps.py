"""Request dependencies as ``Annotated`` aliases: settings, database session, guest identity,
and the app's services (the room service, the live hub, the rendered-parts cache, the
strategy tables and the game reviews), for HTTP
routes and the room socket alike."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from typing import Annotated, TypeVar

from fastapi import Depends, Form, HTTPException, Request
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.live.hub import Hub
from app.players.service import get_player
from app.review.service import Reviews
from app.rooms.service import RoomService
from app.rooms.your_games import TurnCounts
from app.settings import Settings
from app.store.db import Database
from app.store.models import Player
from app.strategy.tables import StrategyTables
from app.talk.service import TalkService
from app.web.part_cache import PartCache

SESSION_PLAYER_KEY = "pid"
T = TypeVar("T")


def get_settings(request: Request) -> Settings:
    """The application's settings."""
    return request.app.state.settings


def require_test_routes(request: Request) -> None:
    """Dependency of every test-only route: 404 (as if the route did not exist) unless the
    settings allow test routes (``Settings.test_routes``: ``TEST_HOOKS`` on, not production).
    """
    if not get_settings(request).test_routes:
        raise HTTPException(status_code=404)


def get_db(request: Request) -> Database:
    """The application's database."""
    return request.app.state.db


async def get_session(db: Annotated[Database, Depends(get_db)]) -> AsyncIterator[AsyncSession]:
    """One database session per request."""
    async with db.sessionmaker() as session:
        yield session


def guest_id_from_session(session: dict) -> str:
    """The guest's player id from the signed cookie session, creating one on first visit.

    A tampered cookie never gets here (the signature check drops it), so that visitor is
    simply a new guest. Ids are 32 lowercase hex characters (a random UUID).
    """
    pid = session.get(SESSION_PLAYER_KEY)
    if not isinstance(pid, str) or len(pid) != 32:
        pid = uuid.uuid4().hex
        session[SESSION_PLAYER_KEY] = pid
    return pid


def get_guest_id(request: Request) -> str:
    """Dependency form of ``guest_id_from_session``."""
    return guest_id_from_session(request.session)


async def get_current_player(
    conn: HTTPConnection,
    db: Annotated[Database, Depends(get_db)],
    guest_id: Annotated[str, Depends(get_guest_id)],
) -> Player | None:
    """The guest's profile, or None while the guest has not chosen a name.

    A named player's count of games waiting for them (the header's badge, ``TurnCounts``:
    kept a few seconds per player) is read in the same session into
    ``conn.state.your_turn_count`` (``your_turn_count`` gives it to the templates).

    Read in a session of its own, closed before the route runs: a request must never hold a
    pooled connection while it waits for another (the room service opens its own), or as
    many simultaneous requests as the pool has connections wait for each other until the pool
    times out (found by bench/soak.py: 32 room creations at once)."""
    async with db.sessionmaker() as session:
        player = await get_player(session, guest_id)
        counts: TurnCounts | None = getattr(conn.app.state, "turn_counts", None)
        if player is not None and player.name and counts is not None:
            conn.state.your_turn_count = await counts.get(session, guest_id)
        return player


def get_language(request: Request) -> str:
    """The request's UI language code (``nl``, ``de`` or ``en``)."""
    return request.scope.get("state", {}).get("lang", "en")


def _from_app_state(name: str, kind: type[T], doc: str) -> Callable[[HTTPConnection], T]:
    """A dependency returning the app's service ``app.state.<name>`` (of type ``kind``),
    documented by ``doc``."""

    def get(conn: HTTPConnection) -> T:
        service: T = getattr(conn.app.state, name)
        return service

    get.__name__ = get.__qualname__ = f"get_{name}"
    get.__doc__ = doc
    return get


get_rooms = _from_app_state("rooms", RoomService, "The app's room service.")
get_hub = _from_app_state("hub", Hub, "The app's live hub (sockets, presence, fan-out).")
get_parts = _from_app_state("parts", PartCache, "The app's cache of rendered room parts.")
get_strategy = _from_app_state(
    "strategy", StrategyTables,
    "The app's Kniffel strategy tables (built in the background on first use).")
get_reviews = _from_app_state("reviews", Reviews, "The app's game analyses and hints (app/review).")
get_talk = _from_app_state("talk", TalkService, "The app's chat and reactions (app/talk).")


SettingsDep = Annotated[Settings, Depends(get_settings)]
RoomsDep = Annotated[RoomService, Depends(get_rooms)]
HubDep = Annotated[Hub, Depends(get_hub)]
PartsDep = Annotated[PartCache, Depends(get_parts)]
StrategyDep = Annotated[StrategyTables, Depends(get_strategy)]
ReviewsDep = Annotated[Reviews, Depends(get_reviews)]
TalkDep = Annotated[TalkService, Depends(get_talk)]
DbDep = Annotated[Database, Depends(get_db)]
SessionDep = Annotated[AsyncSession, Depends(get_session)]
GuestId = Annotated[str, Depends(get_guest_id)]
CurrentPlayer = Annotated[Player | None, Depends(get_current_player)]
Language = Annotated[str, Depends(get_language)]
NameField = Annotated[str, Form()]
"""A form's name field (a player's, a seat's, a group's): no length limit of its own, so a
name of any length reaches ``app.players.names.clean_name`` and is refused with the form's
own message ("A name can be at most 24 characters long"), never a bare validation error."""

