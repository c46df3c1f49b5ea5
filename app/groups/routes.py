"""Group pages: the list and the new-group form, a group's page, the invite link and joining
(docs/rules.md, "Groups"). The admin's actions are in ``app.groups.admin_routes``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.clock import utcnow
from app.groups import service
from app.groups.page import choice, group_context
from app.i18n import gettext as _
from app.players.names import InvalidName, clean_name
from app.rooms.games import GAMES
from app.web.deps import CurrentPlayer, GuestId, NameField, SessionDep
from app.web.pages import name_error_message, seat_name
from app.web.qr import qr_svg
from app.web.templating import templates

router = APIRouter()

def group_name(raw: str) -> tuple[str, str | None]:
    """A group name cleaned by the player-name rules (1..24 visible characters), or
    ``("", message)``."""
    try:
        return clean_name(raw), None
    except InvalidName as exc:
        return "", name_error_message(exc.code)


@router.get("/groups", response_class=HTMLResponse, name="groups")
async def groups_page(request: Request, player: CurrentPlayer, guest_id: GuestId,
                      session: SessionDep) -> Response:
    """The visitor's groups and the form to make one."""
    return templates.TemplateResponse(request, "groups/list.html", {
        "player": player, "groups": await service.groups_of(session, guest_id)})


@router.post("/groups", name="create_group")
async def create_group(request: Request, player: CurrentPlayer, guest_id: GuestId,
                       session: SessionDep, name: NameField = "", you: NameField = ""):
    """Make a group called ``name`` with the visitor (as ``you``, else their saved name) as
    its admin; 303 to its page. A bad name re-shows the form (422)."""
    cleaned, error = group_name(name)
    member_name, member_error = seat_name(you, player)
    if error is None and member_error is not None:
        member_name, member_error = _("Admin"), None
    if error:
        return templates.TemplateResponse(request, "groups/list.html", {
            "player": player, "groups": await service.groups_of(session, guest_id),
            "error": error, "value": name}, status_code=422)
    request.app.state.limits.hit("create_room", request)
    group = await service.create_group(session, guest_id, member_name, cleaned)
    await session.commit()
    return RedirectResponse(f"/groups/{group.code}", status_code=303)


@router.get("/groups/{code}", response_class=HTMLResponse, name="group_page")
async def group_page(request: Request, code: str, player: CurrentPlayer, guest_id: GuestId,
                     session: SessionDep, season: str | None = None, kind: str | None = None,
                     sort: str | None = None, a: str | None = None,
                     b: str | None = None) -> Response:
    """The group's page for its members (404 for anyone else): the season's table per game
    kind with ratings, head-to-head of ``a`` and ``b``, records, games, chart, members,
    invite and night."""
    group, everyone = await service.group_and_members(session, code, guest_id)
    now = utcnow()
    context = await group_context(session, group, everyone, guest_id,
                                  choice(now, season, kind, sort, a, b), now)
    invite = str(request.url_for("group_invite", token=group.invite))
    context.update({"player": player, "invite_url": invite, "qr_svg": qr_svg(invite),
                    "games_offered": list(GAMES)})
    return templates.TemplateResponse(request, "groups/group.html", context)


@router.get("/groups/join/{token}", response_class=HTMLResponse, name="group_invite")
async def invite_page(request: Request, token: str, player: CurrentPlayer, guest_id: GuestId,
                      session: SessionDep) -> Response:
    """The invite link: a form to join with a name (members go straight to the group)."""
    group = await service.by_invite(session, token)
    if await service.membership(session, group, guest_id) is not None:
        return RedirectResponse(f"/groups/{group.code}", status_code=303)
    return templates.TemplateResponse(request, "groups/join.html", {
        "player": player, "group": group, "token": token,
        "value": (player.name or "") if player else ""})


@router.post("/groups/join/{token}", name="join_group")
async def join_group(request: Request, token: str, player: CurrentPlayer, guest_id: GuestId,
                     session: SessionDep, name: NameField = ""):
    """Join the group of the invite ``token`` as ``name``; 303 to the group. A bad name
    re-shows the form (422); an old link is 404."""
    group = await service.by_invite(session, token)
    request.app.state.limits.hit("join", request)
    cleaned, error = seat_name(name, None)
    if error:
        return templates.TemplateResponse(request, "groups/join.html", {
            "player": player, "group": group, "token": token, "value": name,
            "error": error}, status_code=422)
    await service.join(session, group, guest_id, cleaned)
    await session.commit()
    return RedirectResponse(f"/groups/{group.code}", status_code=303)
