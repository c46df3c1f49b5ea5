"""The application factory: ``create_app(settings)``; uvicorn runs ``app.main:create_app``."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from datetime import timedelta

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp

from app import i18n
from app.clock import ServerClock
from app.daily import routes as daily_routes
from app.gc_tuning import BUSY_SOCKETS, keep_frozen, released, tune
from app.groups import admin_routes as group_admin_routes
from app.groups import routes as group_routes
from app.groups.accuracy import accuracy_of
from app.groups.record import Recorder
from app.knikkers.routes import play as knikkers_play
from app.knikkers.routes import router as knikkers_router
from app.knikkers.service import Refused
from app.live.broadcast import make_broadcast
from app.live.direct import RawSend
from app.live.hub import Hub
from app.live.idle import IdleRooms
from app.live.presence import Presence
from app.logging import configure_logging
from app.players.devices import RevokedDevices
from app.players.middleware import DeviceMiddleware
from app.push import routes as push_routes
from app.push.keys import load_vapid
from app.push.sender import PushSender
from app.push.turns import TurnNotifier
from app.review import guide_routes
from app.review import routes as review_routes
from app.review.service import Reviews
from app.rooms.bots import install as install_bots
from app.rooms.bots.deadline import DeadlinePlayer
from app.rooms.deadlines import TurnScheduler
from app.rooms.dice import DiceSource
from app.rooms.games import require_registered
from app.rooms.games.base import ActionError
from app.rooms.service import RoomService
from app.rooms.your_games import TurnCounts
from app.settings import ROOT, Settings
from app.store.db import Database
from app.strategy.tables import StrategyTables
from app.talk.service import TalkService
from app.talk.store import ChatStore
from app.web import bot_rooms, dice_proof, form_urls, health, pages, pwa, socket
from app.web import devices as device_routes
from app.web import passkeys as passkey_routes
from app.web import rooms as rooms_routes
from app.web import your_games as your_games_routes
from app.web.errors import install_error_pages
from app.web.middleware import LanguageMiddleware
from app.web.part_cache import PartCache
from app.web.ratelimit import RateLimits, SocketRates
from app.web.room_frames import RoomRenderer
from app.web.same_origin import refuse_cross_site
from app.web.security_headers import SecurityHeadersMiddleware
from app.web.talk_view import TalkRenderer
from app.web.templating import compile_all, use_bytecode_cache

SESSION_COOKIE = "knobel_session"


class Knobel(FastAPI):
    """FastAPI with the security headers (``app.web.security_headers``) outside its whole
    middleware stack, so that they are also on the 500 page that Starlette's outermost
    ``ServerErrorMiddleware`` sends for an unhandled error (``add_middleware`` would put them
    inside it)."""

    def build_middleware_stack(self) -> ASGIApp:
        """The usual stack, wrapped in ``SecurityHeadersMiddleware`` and, outermost,
        ``RawSend`` (a socket's server ``send``, for the hub's direct writes)."""
        return RawSend(SecurityHeadersMiddleware(super().build_middleware_stack()))


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the ASGI app for ``settings`` (read from the environment when None).

    The database schema must already be migrated (``alembic upgrade head``). Raises
    ``RuntimeError`` when ``settings.extra_games`` names a game the registry does not hold
    (``app.rooms.games.require_registered``: it reads ``EXTRA_GAMES`` when first imported).
    """
    settings = settings or Settings()
    require_registered(settings.extra_games)
    configure_logging(settings.json_logs, settings.log_level)
    db = Database(settings.database_url, settings.db_pool_size, settings.db_max_overflow,
                  settings.db_pool_timeout)

    dice = DiceSource(allow_loaded=settings.test_routes, secret=settings.secret_key)
    broadcast = make_broadcast(settings.broadcast_url)
    presence = Presence(ttl=settings.presence_ttl_seconds)
    assert settings.strategy_dir is not None  # filled in by Settings
    assert settings.template_cache_dir is not None
    use_bytecode_cache(settings.template_cache_dir)
    strategy = StrategyTables(settings.strategy_dir)
    reviews = Reviews(db, strategy)
    recorder = Recorder(db, accuracy_of(reviews))  # groups' results, ratings (app/groups)

    def forget(code: str) -> bool:
        """Release a room nobody here has open: the service's state, the hub's records and
        the rendered parts (False while it has a socket here or an action runs)."""
        if code in hub.rooms or not rooms.forget(code):
            return False
        hub.forget_room(code)
        talk.forget(code)
        parts.forget(code)
        released(1)  # its frozen garbage is collected soon (app/gc_tuning.py)
        return True

    idle = IdleRooms(forget, after=settings.room_idle_seconds)
    clock = ServerClock()  # moved on only by the test routes (POST /_test/clock)
    rooms = RoomService(db, broadcast.publish, dice, presence=presence, clock=clock,
                        host_grace=timedelta(seconds=settings.host_grace_seconds),
                        finished=recorder.notify, loaded=idle.emptied,
                        bots=lambda service: install_bots(service, strategy.for_options,
                                                          settings))
    bots = rooms.bots  # started and closed with the app
    parts = PartCache()
    talk = TalkService(rooms, ChatStore(db), broadcast.publish_talk, broadcast.publish_reaction)
    hub = Hub(broadcast, rooms.snapshot, RoomRenderer(parts),
              rooms.presence_changed,
              versions=rooms.versions if settings.live_check_seconds else None,
              check_every=settings.live_check_seconds, idle=idle, presence=presence,
              talk=talk, talk_renderer=TalkRenderer(parts))
    vapid = load_vapid(settings.vapid_private_key, settings.var_dir)
    revoked_devices = RevokedDevices(db, clock)
    pusher = PushSender(db, vapid, settings.vapid_subject, clock=clock)
    # turn-based rooms: missed turns played by the bot, "your turn" pushes and reminders
    deadline_player = DeadlinePlayer(rooms, strategy.for_options)
    turn_notifier = TurnNotifier(db, clock, presence.online, pusher.wake)
    scheduler = TurnScheduler(db, clock, deadline_player.play, turn_notifier.notify,
                              interval=settings.deadline_check_seconds)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await broadcast.connect()
        hub.start()
        idle.start()
        freezer = None
        if settings.gc_tuning:  # a long-running server:
            i18n.preload()  # what it keeps for its life is loaded before the first room
            compile_all()
            tune()  # the garbage collector (app/gc_tuning.py)
            freezer = asyncio.create_task(keep_frozen(
                busy=lambda: hub.socket_count() >= BUSY_SOCKETS))
        if bots is not None:
            bots.start()
        recorder.start()
        pusher.start()
        scheduler.start()
        yield
        await scheduler.stop()
        await pusher.stop()
        if freezer:
            freezer.cancel()
        await recorder.close()
        if bots is not None:
            await bots.close()
        rooms.close()
        strategy.close()
        reviews.close()
        await idle.stop()
        await hub.stop()
        await broadcast.disconnect()
        await db.dispose()

    app = Knobel(
        title="Knobel",
        lifespan=lifespan,
        # no API pages: FastAPI's load their scripts and styles from a CDN, which the pages'
        # policy refuses (the product serves nothing from one); /openapi.json describes the API
        docs_url=None,
        redoc_url=None,
        dependencies=[Depends(refuse_cross_site)],
    )
    app.state.settings = settings
    app.state.db = db
    app.state.dice = dice
    app.state.rooms = rooms
    app.state.hub = hub
    app.state.parts = parts
    app.state.strategy = strategy
    app.state.bots = bots
    app.state.reviews = reviews
    app.state.recorder = recorder
    app.state.talk = talk
    app.state.vapid = vapid
    app.state.clock = clock
    app.state.revoked_devices = revoked_devices
    app.state.pusher = pusher
    app.state.scheduler = scheduler
    app.state.turn_counts = TurnCounts()  # the header's "your turn" count per player
    app.state.limits = RateLimits(settings)
    app.state.socket_rates = SocketRates(settings)

    app.add_middleware(LanguageMiddleware)
    app.add_middleware(DeviceMiddleware, revoked=revoked_devices)  # inside the session's
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.secret_key,
        session_cookie=SESSION_COOKIE,
        max_age=365 * 24 * 3600,
        same_site="lax",
        https_only=settings.https_only,
    )
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    app.include_router(pages.router)
    app.include_router(your_games_routes.router)
    app.include_router(health.router)
    app.include_router(knikkers_router)
    app.include_router(rooms_routes.router)
    app.include_router(bot_rooms.router)
    app.include_router(review_routes.router)
    app.include_router(dice_proof.router)
    app.include_router(daily_routes.router)
    app.include_router(group_routes.router)
    app.include_router(group_admin_routes.router)
    app.include_router(guide_routes.router)
    app.include_router(socket.router)
    app.include_router(push_routes.router)
    app.include_router(device_routes.router)
    app.include_router(passkey_routes.router)
    app.include_router(form_urls.router)  # last: a form's address opened as a page
    app.include_router(pwa.router)
    install_error_pages(app, {Refused: knikkers_play.refused_page,
                              ActionError: rooms_routes.refused_page})
    return app
