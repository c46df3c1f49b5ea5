"""The contract every room game implements (a plug-in), and the shared value types.

A plug-in turns client actions into events (``decide``), folds stored events into its state
(``apply``), proposes automatic events when a timer runs out (``on_timer``), and gives the
template its view. It never touches the database, the clock or a random source of its own:
``Dice`` and ``now`` come in as arguments. The room service does everything else.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from app.errors import N_, KnobelError
from app.rooms.games.capabilities import DiceLog, GameGuide, GameRecords, GameReview, GameSheet
from app.rooms.games.capabilities import Strategies as Strategies  # games and bots name it here

Dice = Callable[[int], list[int]]
"""``dice(n)`` returns ``n`` faces 1..6 drawn by the server (or a test source)."""


class ActionError(KnobelError):
    """An action that the rules refuse (``app.errors.KnobelError``): ``code`` is a stable id,
    ``message`` the reason (gettext msgid ``msgid``); reported over the socket, or as HTTP
    ``status`` (409 unless given).

    ``behind``: the page that sent the action shows an older table than the current one (its
    basis differs), so besides the reason it is sent the table as it is now; set by the room
    service."""

    behind: bool = False

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(code, message, status)


class OptionError(ActionError):
    """A room option outside its allowed values (``field`` names it); reported as
    ``bad_option`` (HTTP 400)."""

    def __init__(self, field: str) -> None:
        super().__init__("bad_option", N_("That option is not available."), 400)
        self.field = field


def is_turn_based(options: dict[str, Any]) -> bool:
    """Whether a room (or game) with ``options`` is played in turns over days (the room
    option ``pace``: ``app.rooms.pace``; docs/rules.md, "Turn-based rooms")."""
    return options.get("pace") == "turns"


_TRUE = ("1", "true", "on", "yes")
_FALSE = ("0", "false", "off", "no", "")


def parse_switch(form: dict[str, Any], field: str, default: bool = True) -> bool:
    """A lobby switch ``field`` of ``form`` (a checkbox after a hidden ``false``: a list
    counts by its last value; absent: ``default``). Raises ``OptionError`` for another
    value."""
    raw = form.get(field, default)
    if isinstance(raw, list | tuple):
        raw = raw[-1] if raw else ""
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text not in _TRUE + _FALSE:
        raise OptionError(field)
    return text in _TRUE


@dataclass(frozen=True)
class Event:
    """One event to store: ``type`` (``roll``, ``place``, ``hold``...), its JSON ``payload``,
    the acting seat (None for the server), and when it happened (UTC)."""

    type: str
    payload: dict[str, Any]
    seat_id: int | None
    at: datetime | None = None

    @property
    def seat(self) -> int:
        """The acting seat of a player's event; ``ValueError`` for one without a seat."""
        if self.seat_id is None:
            raise ValueError(f"a {self.type} event needs a seat")
        return self.seat_id


@dataclass
class Presence:
    """Who is at the table, as a plug-in knows it: seat ids in play order, who is online now,
    and since when each away seat has been away (when this process saw it leave). Not to be
    confused with table mode (real dice: ``real_dice``) nor with seats without a phone
    (``app.rooms.pass_and_play``).

    ``started_at``: when the current game started (a first turn's timer starts there).
    ``watching_since``: since when this process has tracked the room's presence; an away
    seat with no ``away_since`` entry (not seen since a restart) is away at least since then.
    """

    seat_ids: Sequence[int]
    online: frozenset[int] = field(default_factory=frozenset)
    away_since: dict[int, datetime] = field(default_factory=dict)
    started_at: datetime | None = None
    watching_since: datetime | None = None


def next_in_order(order: Sequence[int], after: int, gone: Collection[int]) -> int | None:
    """The first seat of ``order`` (seat ids in table order) after ``after``, going round the
    table, that is not in ``gone``; ``after`` itself when it is the only one left; None when
    every seat is gone. ``after`` must be in ``order``.

    The turn order of every room game (docs/rules.md, "Turn order"): whoever joined, left or
    was removed, play passes to the next remaining seat after the last one who played.
    """
    start = order.index(after)
    ring = list(order[start + 1:]) + list(order[:start + 1])
    return next((seat for seat in ring if seat not in gone), None)


class Part(NamedTuple):
    """One separately updatable piece of a running game's live area.

    ``id``: its DOM id, unique in the page (the element the macro renders carries it);
    ``key``: a hashable value holding everything the piece's HTML depends on except the
    language, so equal keys mean equal HTML; ``macro``: the macro's name in the plug-in's
    ``parts_template`` (or the room's ``rooms/_parts.html``); ``args``: its arguments.
    A viewer whose key for a part did not change is not sent that part again.
    ``within``: the id of the part whose HTML holds this one (e.g. the offers inside a score
    sheet); such a part is not rendered on its own in a whole page, and is not sent when its
    container is (the container brings it). Its macro may render several elements, each
    with its own id, swapped one by one: ``elements`` lists their ids (empty: the one element
    ``id``), so a page can tell which elements are a part of its own
    (``app/web/room_frames.py``).
    """

    id: str
    key: Hashable
    macro: str
    args: tuple[Any, ...]
    within: str | None = None
    elements: tuple[str, ...] = ()

    def element_ids(self) -> tuple[str, ...]:
        """The ids of the elements the part's macro renders at its top level."""
        return self.elements or (self.id,)


def parse_cell(raw: object, size: int) -> tuple[int, int] | None:
    """A board cell sent by a page: ``"r,c"`` or ``[r, c]`` with both in ``0..size-1``, as
    ``(row, column)``; None when malformed or off the board."""
    try:
        if isinstance(raw, str):
            parts: list[Any] = raw.split(",")
        elif isinstance(raw, list | tuple):
            parts = list(raw)
        else:
            return None
        if len(parts) != 2:
            return None
        r, c = (int(p) for p in parts)
    except (TypeError, ValueError):
        return None
    return (r, c) if 0 <= r < size and 0 <= c < size else None


def parse_int_options(form: dict[str, Any], options: dict[str, Any],
                      choices: Sequence[tuple[str, Collection[int]]]) -> dict[str, Any]:
    """Set in ``options`` (returned) each integer option of a lobby form that is present:
    ``choices`` lists ``(key, allowed values)``; a value is a form string or a number (the
    last one when a list). Raises ``OptionError(key)`` when one is not an integer or not
    allowed."""
    for key, allowed in choices:
        if key not in form:
            continue
        raw = form[key]
        if isinstance(raw, list | tuple):
            raw = raw[-1] if raw else None
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise OptionError(key) from None
        if value not in allowed:
            raise OptionError(key)
        options[key] = value
    return options


class ViewsFromModule:
    """The ``view`` and ``parts`` of a plug-in whose view lives in a module of its package
    (``view_module``, with ``view(state, viewer_seat_id)`` and ``parts(context,
    viewer_seat_id, seat_labels)``): a room game's plug-ins inherit them instead of writing
    the same two forwarding methods."""

    view_module: Any
    """The game's view module (e.g. ``app.rooms.games.knister.view``)."""

    def view(self, state: Any, viewer_seat_id: int | None) -> dict[str, Any]:
        """Template context as ``viewer_seat_id`` sees ``state`` (see the view module)."""
        result: dict[str, Any] = self.view_module.view(state, viewer_seat_id)
        return result

    def parts(self, context: dict[str, Any], viewer_seat_id: int | None,
              seat_labels: dict[int, str]) -> list[Part]:
        """The game area's live parts as ``viewer_seat_id`` sees them (see the view module)."""
        result: list[Part] = self.view_module.parts(context, viewer_seat_id, seat_labels)
        return result

    def view_group(self, state: Any, viewer_seat_id: int | None) -> Hashable:
        """Viewers with equal groups are shown the same ``view`` and ``parts`` of ``state``
        (the room builds them once per version for each group): the view module's
        ``view_group`` when it has one, else every seat its own group."""
        group = getattr(self.view_module, "view_group", None)
        return ("seat", viewer_seat_id) if group is None else group(state, viewer_seat_id)


class GameBot(Protocol):
    """A game's bot (``GamePlugin.bot``): the move a bot of a level makes, as the message a
    page would send (docs/rules.md, "Bots")."""

    def move(self, state: Any, seat: int, level: str, key: str, last_seq: int,
             options: dict[str, Any], strategies: Strategies) -> dict[str, Any] | None:
        """``seat``'s next move in ``state`` at ``level`` (``strong``/``casual``) as
        ``{"type": ..., ...}`` without the basis, or None when it has nothing to do now.
        ``key`` (``"<game id>.<seat>"``) and ``last_seq`` (the last event's number) seed its
        random choices, so the same state gives the same move in every process; ``options``:
        the game's options (what ``strategies`` is asked for)."""


class GamePlugin(Protocol):
    """One game kind in rooms. Register an instance in ``app.rooms.games.BUILT_IN``, or name
    it in the ``EXTRA_GAMES`` setting (docs/architecture.md, "Adding a game")."""

    kind: str
    label: str
    parts_template: str
    """The template of macros rendering ``parts`` (one folder per game, named by it)."""
    actions: frozenset[str]
    """The message types of its game actions (``decide`` gets only these)."""
    folder: str
    """Its template folder's name: its templates are ``rooms/<folder>/...`` (``game.html``,
    ``_parts.html``, ``options.html``, ``rules.html``, optionally ``result_extra.html``)."""
    template: str
    template_dir: Path | None
    """Where its templates live when not under the app's ``templates/``: a folder holding
    ``rooms/<folder>/``, searched after ``templates/`` (a game added by the ``EXTRA_GAMES``
    setting keeps its templates in its own folder); None for the built-in games."""
    styles: tuple[str, ...]
    """The stylesheets its room pages load besides the room's own (paths under ``static/``:
    ``css/<folder>.css`` and what it shares, e.g. the Knikkers board's); may be empty (the
    room's own styles then dress its parts)."""
    scripts: tuple[str, ...]
    """The scripts its room pages load (``js/games/<folder>.js``: what only its pages do,
    registered with ``static/js/app.js`` through ``window.knobelGames``); may be empty (its
    buttons then send their moves with htmx's ``ws-send`` alone)."""
    review: GameReview | None
    """Its hints and game analysis (``capabilities.GameReview``; Kniffel family), None
    without: a finished game then has no analysis or review page (``app/review``)."""
    dice_log: DiceLog | None
    """Where its server dice sit (``capabilities.DiceLog``): its dice then come from a secret
    seed per game, committed to at the start and revealed at the end (docs/dice.md); None
    for a game whose dice are not checkable that way."""
    guide: GameGuide | None
    """Its guided first round (``capabilities.GameGuide``; ``POST /learn``), None without."""
    records: GameRecords | None
    """What a group's table and records count of it beyond points
    (``capabilities.GameRecords``: a highest-score record, a feat thrown), None without."""
    sheet: GameSheet | None
    """A seat's finished score sheet as lines (``capabilities.GameSheet``), shown on a daily
    challenge's preview image once the day is over; None for a game without one (Knister's
    grid is drawn from its placements by ``app/daily``)."""
    solo_practice: bool
    """True when the home page offers it to play alone, with hints (docs/rules.md, "Solo
    practice")."""
    pass_and_play: bool
    """True when its rooms can seat players without a phone, filled in from the host's device
    when the game waits for them (``awaiting``; docs/rules.md, "Table mode")."""
    bot: GameBot | None
    """Its bot, None for a game bots do not play (they are offered only where there is one)."""
    turn_based: bool
    """True when its rooms may be played in turns over days (the room option ``pace``,
    ``app.rooms.pace``): its ``awaiting`` names whose turn it is, and its bot can play a
    turn whose deadline passed (docs/rules.md, "Turn-based rooms")."""
    tagline: str
    """The game in one line for a newcomer (an English gettext msgid; the home page)."""
    picture: str
    """Its small picture on the home page: ``grid``, ``dice`` or ``marbles``
    (``templates/_game_pictures.html``)."""

    def default_options(self) -> dict[str, Any]:
        """The room options a new room starts with."""

    def parse_options(self, form: dict[str, Any]) -> dict[str, Any]:
        """Validate the host's option form; raises ``OptionError``."""

    def new_state(self, options: dict[str, Any], seat_ids: Sequence[int], start: int) -> Any:
        """A fresh game for ``seat_ids`` (table order); ``start`` is the start player's index."""

    def apply(self, state: Any, event: Event) -> None:
        """Fold one stored event into ``state`` (events were validated before storing)."""

    def decide(self, state: Any, seat_id: int, action: dict[str, Any], dice: Dice) -> list[Event]:
        """The events a seat's action causes; raises ``ActionError`` and changes nothing."""

    def basis(self, state: Any) -> dict[str, int]:
        """What a page showing ``state`` decided its game actions on (e.g. the roll number):
        the room service refuses a game action whose fields differ as ``stale``."""

    def awaiting(self, state: Any) -> Sequence[int]:
        """The seats the game waits for now, in the order it wants them (empty when it waits
        for nobody in particular, or is over)."""

    def turn_key(self, state: Any) -> int:
        """A number that changes whenever the game moves on to a new turn (a turn-based
        room's waits then start again, ``app.rooms.turns``); the same within one turn."""

    def remove_seat(self, state: Any, seat_id: int) -> list[Event]:
        """Events taking ``seat_id`` out of a running game (host removed it or it left)."""

    def deadline(self, state: Any, table: Presence, now: datetime) -> datetime | None:
        """When the server must act for someone next (timers, an away roller), or None."""

    def away_deadlines(self, state: Any, table: Presence, now: datetime) -> dict[int, datetime]:
        """Per away seat the table waits for, when the server acts for it (a countdown)."""

    def on_timer(self, state: Any, table: Presence, now: datetime, dice: Dice) -> list[Event]:
        """Automatic events due at ``now`` (marked ``auto``); empty when nothing is due."""

    def is_over(self, state: Any) -> bool:
        """True when the game has ended."""

    def totals(self, state: Any) -> dict[int, int]:
        """Points per seat id (final when the game is over)."""

    def left_game(self, state: Any) -> frozenset[int]:
        """Seats taken out of the game before it ended (they left or the host removed
        them): listed after the ranked seats, without a rank (docs/rules.md, "Results and
        personal bests")."""

    def public(self, state: Any) -> dict[str, Any]:
        """The game as JSON-ready data anyone may see (``/r/<code>/state.json``)."""

    def view(self, state: Any, viewer_seat_id: int | None) -> dict[str, Any]:
        """Template context for the game area as seen by ``viewer_seat_id`` (None: spectator)."""

    def template_globals(self) -> dict[str, Any]:
        """Functions and values the game's templates call (e.g. translated box names),
        installed in the template environment once at start-up."""

    def parts(self, view: dict[str, Any], viewer_seat_id: int | None,
              labels: dict[int, str]) -> list[Part]:
        """The running game's area as parts (macros of ``parts_template``), so a new version
        sends each viewer only the parts that changed for them (``view``: this plug-in's
        ``view`` with ``room_code`` added by the room; ``labels``: seat id -> display label)."""

    def view_group(self, state: Any, viewer_seat_id: int | None) -> Hashable:
        """Viewers with equal groups get the same ``view`` and ``parts`` (built once per
        version and group; ``ViewsFromModule`` gives every seat its own unless the game's
        view module says otherwise)."""
