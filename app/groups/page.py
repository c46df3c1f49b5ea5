"""What the group page shows, gathered for its template: the group's open rooms, the
season's table with ratings, head-to-head, records, games, the chart, members and the night
(docs/rules.md, "Groups")."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from markupsafe import Markup
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import N_
from app.groups import history, nights
from app.groups.models import Group
from app.groups.rating_store import ratings_in
from app.groups.rooms import open_rooms
from app.groups.seasons import ALL, Season, season
from app.groups.service import ACTIVE
from app.groups.table import Row, sort_rows, table
from app.i18n import format_number
from app.knikkers.charts import score_line
from app.rooms.games import GAMES

KINDS = [kind for kind in GAMES]  # every registered room game, in the registry's order
CHART_DOTS = 60
"""A season chart marks each game with a dot (its points as a tooltip) up to this many games;
beyond, the dots would lie on top of each other and the line alone shows them."""


@dataclass(frozen=True)
class Counted:
    """What the page shows of game ``kind`` besides points and places, as its plug-in
    declares it: ``feat`` (the msgid of its table column, e.g. "Kniffels thrown", or None),
    ``analysed`` (its games have an accuracy: ``GamePlugin.review``) and ``records``:
    ``(what, msgid)`` of the records it keeps (``app.groups.bests``), in order."""

    feat: str | None
    analysed: bool
    records: tuple[tuple[str, str], ...]


def counted(kind: str) -> Counted:
    """The ``Counted`` of game ``kind`` (nothing beyond points for an unknown kind)."""
    plugin = GAMES.get(kind)
    if plugin is None:
        return Counted(None, False, ())
    declared = plugin.records
    found: list[tuple[str, str]] = []
    if declared is not None and declared.high_score:
        found.append(("score", declared.high_score))
    if declared is not None and declared.feat and declared.feat_record:
        found.append(("feats", declared.feat_record))
    if plugin.review is not None:
        found.append(("accuracy", N_("Best accuracy")))
    return Counted(declared.feat if declared is not None else None, plugin.review is not None,
                   tuple(found))


REVIEWED = frozenset(kind for kind, plugin in GAMES.items() if plugin.review is not None)
"""The kinds whose finished games have a review page (``GamePlugin.review``)."""


@dataclass
class Choice:
    """The page's view: ``season``, game ``kind``, ``sort`` column, head-to-head pair."""

    season: Season
    kind: str
    sort: str
    a: str | None
    b: str | None


def choice(now: datetime, season_key: str | None, kind: str | None, sort: str | None,
           a: str | None, b: str | None) -> Choice:
    """The view asked for by the query string, with defaults for what is missing or unknown
    (this month, the first game kind, most wins)."""
    return Choice(season(season_key, now), kind if kind in KINDS else KINDS[0],
                  sort or "wins", a or None, b or None)


def seasons_offered(now: datetime, since: datetime, back: int = 12) -> list[str]:
    """``all`` and the months (``YYYY-MM``, newest first) from ``now``'s back to ``since``'s
    (the group's creation), at most ``back`` of them."""
    keys, year, month = [ALL], now.year, now.month
    for _ in range(back):
        keys.append(f"{year:04d}-{month:02d}")
        if (year, month) <= (since.year, since.month):
            break
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return keys


async def with_ratings(session: AsyncSession, group: Group, kind: str,
                       rows: list[Row]) -> dict[str, float]:
    """Fill in each row's group rating in ``kind``; returns the players' global ratings
    shown (player id -> ``mu - 3 sigma``)."""
    scope = f"g{group.id}"
    rated = await ratings_in(session, [scope, "all"], kind, [r.player_id for r in rows])
    for row in rows:
        skill = rated[scope].get(row.player_id)
        if skill is not None:
            row.rating, row.provisional = skill.shown, skill.provisional
    return {player: skill.shown for player, skill in rated["all"].items()}


def places_html(places: list[tuple[int, str, int]]) -> Markup:
    """A game's places as the game list shows them: ``1. Anna (250), 2. Bram (200)`` (names
    escaped, numbers in the current language), built at once instead of a template loop of
    three expressions a seat (the list has 50 games)."""
    return Markup(", ").join(
        Markup("{}. {} ({})").format(format_number(rank), name, format_number(score))
        for rank, name, score in places)


KEPT = 512
"""Pieces of history (a season's games, records of a kind, a viewer's series) kept per
process, the latest of each."""
_kept: OrderedDict[tuple, Any] = OrderedDict()


async def _kept_or(key: tuple, read: Callable[[], Awaitable[Any]]) -> Any:
    """What ``read()`` gives, kept under ``key`` (the latest ``KEPT`` keys)."""
    found = _kept.get(key, _kept)
    if found is not _kept:
        _kept.move_to_end(key)
        return found
    found = _kept[key] = await read()
    if len(_kept) > KEPT:
        _kept.popitem(last=False)
    return found


async def _history(session: AsyncSession, group: Group, kind: str, season: Season,
                   viewer: str) -> tuple:
    """``(records, games, series)`` of ``group`` in ``season`` (``records`` of ``kind``;
    ``series``: ``viewer``'s points per game of ``kind``, all time their average per month):
    each read once per ``group.results_version`` (they change only when a game is recorded
    or its accuracies are stored), then kept; the games and records once for every viewer.
    Callers must not change what they get."""
    version = (group.id, group.results_version, season.key)
    return (
        await _kept_or(("records", *version, kind),
                       lambda: history.records(session, group.id, season, kind)),
        await _kept_or(("games", *version), lambda: history.games(session, group.id, season)),
        await _kept_or(("series", *version, kind, viewer),
                       lambda: history.monthly_series(session, group.id, kind, viewer)
                       if season.key == ALL else
                       history.score_series(session, group.id, kind, season, viewer)))


async def group_context(session: AsyncSession, group: Group, everyone: list[Any],
                        viewer: str, view: Choice, now: datetime) -> dict[str, Any]:
    """Everything ``groups/group.html`` shows for ``viewer`` (an active member) at ``now``;
    ``everyone``: the group's members, those who left or were removed too (rows with
    ``player_id``, ``name`` and ``status``: ``service.group_and_members``)."""
    people = [m for m in everyone if m.status == ACTIVE]
    rows = await table(session, group.id, view.kind, view.season,
                       {m.player_id: m.name for m in everyone})
    global_ratings = await with_ratings(session, group, view.kind, rows)
    a, b = view.a or viewer, view.b
    known = {m.player_id for m in everyone}
    pair = None
    if b and a != b and a in known and b in known:  # anyone else: no comparison
        pair = await history.head_to_head(session, group.id, view.kind, view.season, a, b)
    records, games, series = await _history(session, group, view.kind, view.season, viewer)
    shown = counted(view.kind)
    night = await nights.latest_night(session, group.id)
    night_games, standing = (await nights.standings(session, night.id)
                             if night is not None else (0, []))
    return {
        "group": group, "view": view, "rows": sort_rows(rows, view.sort),
        "global_ratings": global_ratings,
        "members": people, "is_admin": group.admin_player_id == viewer, "viewer": viewer,
        "names": {m.player_id: m.name for m in people},
        "a": a, "b": b, "pair": pair,
        "counted": shown, "reviewed": REVIEWED,
        "records": [(label, records[what]) for what, label in shown.records if what in records],
        "games": [(game, places_html(game.places)) for game in games],
        "chart": (score_line([s for _, s in series], max_dots=CHART_DOTS)
                  if len(series) > 1 else None),
        "series": series,
        "night": night, "night_games": night_games, "standing": standing,
        "open_rooms": await open_rooms(session, group.id, now),
        "kinds": KINDS, "seasons": seasons_offered(now, group.created_at),
    }
