"""Jinja2 templates (with jinja2-fragments, so a page and its live fragments share blocks).

Visible text goes through gettext in the templates (``{% trans %}`` / ``_()``), translated into
the language current when rendering (see ``app.i18n``); every printed number and date goes
through the ``number``, ``decimal``, ``date`` and ``datetime`` filters (``app.i18n.format_*``).
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import ChoiceLoader, FileSystemBytecodeCache, FileSystemLoader
from jinja2_fragments.fastapi import Jinja2Blocks
from starlette.requests import HTTPConnection

from app import i18n
from app.rooms.bots.identity import GAMES as BOT_GAMES
from app.rooms.games import GAMES
from app.rooms.rules import ONCE_ACTIONS
from app.settings import ROOT
from app.web import labels
from app.web.dice_html import die
from app.web.form_urls import page_address

TEMPLATE_DIR: Path = ROOT / "templates"


def template_folders() -> list[Path]:
    """Where templates are looked up, in order: the app's ``templates/``, then the template
    folder of each game that keeps its own (``GamePlugin.template_dir``: a game added by the
    ``EXTRA_GAMES`` setting), in the registry's order."""
    folders = [TEMPLATE_DIR]
    for game in GAMES.values():
        if game.template_dir is not None and Path(game.template_dir) not in folders:
            folders.append(Path(game.template_dir))
    return folders


def your_turn_count(conn: HTTPConnection) -> int | None:
    """The number of games waiting for the request's player (the header's badge), as
    ``app.web.deps.get_current_player`` read it; None on a page that did not read it (no
    player, no name yet, or a page without the player)."""
    count = getattr(conn.state, "your_turn_count", None)
    return count if isinstance(count, int) else None


def make_templates() -> Jinja2Blocks:
    """Build the template renderer with gettext and the language helpers installed; its
    templates come from ``template_folders()``."""
    templates = Jinja2Blocks(directory=str(TEMPLATE_DIR))
    env = templates.env
    env.loader = ChoiceLoader([FileSystemLoader(str(folder)) for folder in template_folders()])
    # Templates are read once per process: checking each file's modification time on every
    # use cost a stat call per rendered part (restart the server to see edited templates).
    env.auto_reload = False
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals["current_language"] = i18n.current_language
    env.globals["LANGUAGES"] = i18n.LANGUAGES
    env.globals["your_turn_count"] = your_turn_count
    env.globals["page_address"] = page_address
    env.globals["game_label"] = labels.game_label
    env.globals["game_tagline"] = labels.game_tagline
    env.globals["game_picture_of"] = labels.game_picture_of
    env.globals["die"] = die  # one die's picture (app/web/dice_html.py)
    env.globals["bot_games"] = lambda: BOT_GAMES  # the games bots play (app/rooms/bots)
    env.globals["once_actions"] = ONCE_ACTIONS  # sent once per room version (app.rooms.rules)
    for game in GAMES.values():  # each game's own helpers (box names, grid cells...)
        env.globals.update(game.template_globals())
    # Every number and date a page prints goes through these (the page's language, Babel):
    # {{ score|number }}, {{ average|decimal }}, {{ day|date }}, {{ finished_at|datetime }}.
    env.filters["number"] = i18n.format_number
    env.filters["decimal"] = i18n.format_decimal
    env.filters["date"] = i18n.format_date
    env.filters["datetime"] = i18n.format_datetime
    env.filters["duration"] = i18n.format_timedelta  # {{ left|duration }}: "5 hours"
    env.filters["ago"] = i18n.format_ago  # {{ passed|ago }}: "5 hours ago"
    env.filters["hyphenate"] = i18n.hyphenate
    env.globals["decimal"] = i18n.format_decimal
    env.filters["pick"] = lambda keys, mapping: [mapping[k] for k in keys]
    return templates


templates = make_templates()


def use_bytecode_cache(folder: Path) -> None:
    """Keep compiled templates in ``folder`` (made if missing) across processes: a server
    starting loads each template's bytecode from there instead of compiling it (2-3 s of
    CPU at start-up for every template). Jinja2 checks each entry against the template's
    source and writes new ones atomically, so processes can share the folder. It holds code
    the server runs: it must be writable by the server's user only (VAR_DIR)."""
    folder.mkdir(parents=True, exist_ok=True)
    cache = templates.env.bytecode_cache
    if not (isinstance(cache, FileSystemBytecodeCache) and cache.directory == str(folder)):
        templates.env.bytecode_cache = FileSystemBytecodeCache(str(folder))


def compile_all() -> int:
    """Compile every page and fragment template now (a long-running server does at
    start-up, as ``i18n.preload`` does for its reason); the number compiled."""
    env = templates.env
    names = [n for n in env.list_templates() if n.endswith(".html")]
    for name in names:
        env.get_template(name)
    return len(names)


def render_block(template_name: str, block_name: str, /, **context: object) -> str:
    """Render one block of a template to a string (for WebSocket fragments)."""
    tpl = templates.env.get_template(template_name)
    return "".join(tpl.blocks[block_name](tpl.new_context(dict(context))))
