"""The group's records kept as games are recorded (``group_records``; docs/rules.md,
"Groups"): per group, month, game kind and record the best member result, so the page reads
a season's records in one statement of a few rows.

Records: ``score`` (a game's points), ``feats`` (``GroupResult.feats``, above 0) and
``accuracy`` (where the game was analysed). Which of them a game kind shows, and under what
name, is the game's own (``GameRecords``, ``GamePlugin.review``); all three are kept for
every kind. A tie keeps the earlier game.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.groups.models import GroupRecord, GroupResult
from app.groups.standings import month_of

WHATS = ("score", "feats", "accuracy")


def value_of(result: GroupResult, what: str) -> int | None:
    """``result``'s value for record ``what`` (one of ``WHATS``), None when it has none
    (no feat thrown, no accuracy)."""
    if what == "score":
        return result.score
    if what == "feats":
        return result.feats if result.feats > 0 else None
    return result.accuracy


def _beats(value: int, result: GroupResult, held: GroupRecord) -> bool:
    """True when ``value`` of ``result`` beats the record ``held`` (higher, or as high in an
    earlier game)."""
    if value != held.value:
        return value > held.value
    return (as_utc(result.finished_at), result.game_id) < (as_utc(held.finished_at),
                                                           held.game_id)


async def add_records(session: AsyncSession, results: Iterable[GroupResult],
                      whats: Iterable[str] = WHATS) -> None:
    """Count the members' ``results`` of one game (same group, kind, month) in the records
    ``whats`` (in the caller's transaction; the rows held are read ``FOR UPDATE``)."""
    results = [r for r in results if r.member]
    if not results:
        return
    first = results[0]
    month = month_of(first.finished_at)
    held = {row.what: row for row in (await session.execute(
        select(GroupRecord).where(GroupRecord.group_id == first.group_id,
                                  GroupRecord.month == month,
                                  GroupRecord.kind == first.kind)
        .with_for_update())).scalars()}
    for what in whats:
        best: tuple[int, GroupResult] | None = None
        for result in results:
            value = value_of(result, what)
            if value is not None and (best is None or value > best[0]):
                best = (value, result)
        if best is None:
            continue
        value, result = best
        row = held.get(what)
        if row is None:
            session.add(GroupRecord(
                group_id=result.group_id, month=month, kind=result.kind, what=what,
                value=value, game_id=result.game_id, player_id=result.player_id,
                name=result.name, code=result.code, number=result.number,
                finished_at=result.finished_at))
        elif _beats(value, result, row):
            row.value, row.game_id, row.player_id, row.name = (
                value, result.game_id, result.player_id, result.name)
            row.code, row.number, row.finished_at = result.code, result.number, \
                result.finished_at
