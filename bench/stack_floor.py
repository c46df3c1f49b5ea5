"""The stack's floor for ``bench/rooms_load.py``: the bare fan-out, served the way the app is.

``bench/fanout_baseline.py`` is the cost of moving the bytes (the ``websockets`` library's own
server). This server does the same job on the app's fixed stack (FastAPI and uvicorn, as
``bench/rooms_load.py`` starts the app: ``--fd``, no per-message deflate) and, unless
``FLOOR_DATABASE_URL`` is empty, stores every action as the app must (nothing lost: one row
appended to Postgres and committed before the acknowledgement), with no rules, no rendering,
no presence, no locks:

- a client connects to ``/r/<room>/ws`` (any room name); FastAPI's ``WebSocket`` accepts it;
- each message is read with ``WebSocket.receive()`` (the app's socket loop), parsed as JSON;
- one ``INSERT`` per action through a raw ``asyncpg`` pool (a prepared statement, autocommit,
  one round trip: cheaper than anything SQLAlchemy adds on top);
- the sender gets the acknowledgement, the others the payload, each written straight to
  uvicorn's socket transport by the app's own ``app.live.direct.DirectWrite`` (the hub's
  fastest path), frames encoded once per message.

Its CPU per action, over the bare baseline's measured in the same run, is the lowest ratio
any implementation of the hub on this stack can reach: whatever the app does beyond it (rules,
the room lock, rendering, presence, timers) comes on top. Started by ``rooms_load.py --floor``
(wire protocol of the baseline: ``data-ack``/``data-version`` acknowledgement, a live fragment
with its version to the others), or on its own::

    FLOOR_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/knobel_bench \\
    FLOOR_PAYLOAD_FILE=live.html .venv/bin/uvicorn bench.stack_floor:create_app --factory
"""

from __future__ import annotations

import json
import os
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from app.live.direct import RAW_SEND, RawSend, direct_write
from bench.fanout_baseline import payload_parts

TABLE = ("CREATE UNLOGGED TABLE IF NOT EXISTS floor_events (id bigserial PRIMARY KEY, "
         "room text NOT NULL, version integer NOT NULL, body text NOT NULL)")
# the app's events table is logged (durable): so is this one, unless FLOOR_UNLOGGED=1
INSERT = "INSERT INTO floor_events (room, version, body) VALUES ($1, $2, $3)"


async def _keep(connection: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is: every statement here commits on its own
    (asyncpg's default reset is one more round trip per action: no session state to reset)."""


def create_app() -> Any:
    """The floor server (an ASGI app: FastAPI inside the app's ``RawSend`` middleware)."""
    url = os.environ.get("FLOOR_DATABASE_URL", "").replace("postgresql+asyncpg://", "postgresql://")
    prefix, rest = payload_parts(os.environ.get("FLOOR_PAYLOAD_FILE"),
                                 int(os.environ.get("FLOOR_PAYLOAD_BYTES", "48000")))
    members: dict[str, dict[WebSocket, Any]] = {}
    versions: dict[str, int] = {}
    db: dict[str, asyncpg.Pool] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI):  # type: ignore[no-untyped-def]
        if url:
            pool = db["pool"] = await asyncpg.create_pool(
                url, min_size=4, max_size=10, reset=_keep if os.environ.get("FLOOR_RESET") != "1"
                else None)
            async with pool.acquire() as conn:
                await conn.execute(TABLE.replace("UNLOGGED ", "")
                                   if os.environ.get("FLOOR_UNLOGGED") != "1" else TABLE)
            print("floor ready", flush=True)
            yield
            await pool.close()
        else:
            print("floor ready", flush=True)
            yield

    api = FastAPI(lifespan=lifespan)

    @api.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @api.websocket("/r/{room}/ws")
    async def socket(websocket: WebSocket, room: str) -> None:
        await websocket.accept()
        writer = direct_write(websocket.scope.get(RAW_SEND))
        room_members = members.setdefault(room, {})
        room_members[websocket] = writer
        pool = db.get("pool")
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text") or ""
                try:
                    action_id = str(json.loads(text).get("action_id", ""))
                except (ValueError, AttributeError):
                    action_id = ""
                version = versions.get(room, 0) + 1
                versions[room] = version
                if pool is not None:
                    await pool.execute(INSERT, room, version, text)
                ack = (f'<div id="room-ack" hx-swap-oob="true" hidden data-ack="{action_id}" '
                       f'data-version="{version}" data-duplicate="false"></div>').encode()
                frame = f"{prefix}{version}{rest}".encode()
                for ws, direct in list(room_members.items()):
                    data = ack if ws is websocket else frame
                    if direct is None or not direct.write(data):
                        await ws.send_text(data.decode())
        except WebSocketDisconnect:
            pass
        finally:
            room_members.pop(websocket, None)
            if not room_members:
                members.pop(room, None)

    return RawSend(api)
