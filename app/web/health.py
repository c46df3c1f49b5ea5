"""``/healthz``: 200 when the database answers, 503 when it does not."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from app.web.deps import DbDep

router = APIRouter()


@router.get("/healthz", name="health")
async def health(db: DbDep) -> JSONResponse:
    """Run ``SELECT 1`` with a 3 s limit; ``{"status": "ok"}`` or 503 ``{"status": "down"}``."""
    try:
        async with asyncio.timeout(3):
            async with db.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
    except Exception:
        return JSONResponse({"status": "down", "database": "unreachable"}, status_code=503)
    return JSONResponse({"status": "ok", "database": "ok"})
