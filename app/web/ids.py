"""Bounds of the numbers a URL path names: a row id or a game number beyond the database's
integer column is refused by validation (422), never handed to the database (where it made
a 500: ``OverflowError`` on SQLite, ``DataError`` on Postgres; schemathesis found
``/daily/s/9223372036854775808``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

MAX_ID = 2**31 - 1  # ids and numbers are 32-bit integer columns

RowId = Annotated[int, Path(ge=1, le=MAX_ID, description="a row id (1 .. 2**31 - 1)")]
"""A path's row id (a daily attempt, a Knikkers game)."""

GameNumber = Annotated[int, Path(ge=1, le=MAX_ID,
                                 description="a game's number in its room (1 .. 2**31 - 1)")]
"""A path's game number within a room."""
