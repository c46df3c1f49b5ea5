"""Small JSON request bodies read with a size limit (push subscriptions, passkey answers)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import HTTPException, Request


async def json_object(request: Request, limit: int, what: str) -> dict[str, Any]:
    """The request's body as a JSON object of at most ``limit`` bytes (read no further).
    Raises ``HTTPException`` 413 when larger, 400 when not JSON or not an object (``what``
    names what was expected)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, detail=f"{what} too large")
    try:
        data = json.loads(bytes(body))
    except (ValueError, UnicodeDecodeError):
        raise HTTPException(400, detail="not JSON") from None
    if not isinstance(data, dict):
        raise HTTPException(400, detail=f"not a {what}")
    return data
