"""The group's changes: the admin renames, removes members, hands the role over, renews the
invite and starts or ends a night; a member leaves; a host plays a room for the group
(docs/rules.md, "Groups"). Each answers 303 back to a page; refusals are ``GroupError``s."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.groups import nights, service
from app.groups.models import Group
from app.groups.routes import group_name
from app.web.deps import CurrentPlayer, GuestId, NameField, SessionDep
from app.web.templating import templates

router = APIRouter()

PlayerField = Annotated[str, Form(max_length=40)]


def _back(code: str) -> RedirectResponse:
    return RedirectResponse(f"/groups/{code}", status_code=303)


async def _as_admin(code: str, guest_id: str, session: AsyncSession,
                    change: Callable[[Group], Awaitable[object]]) -> RedirectResponse:
    """Apply ``change`` to group ``code`` as its admin (``GroupError`` 404 for a stranger,
    403 for a member who is not the admin), commit, and answer 303 to the group page."""
    group = await service.admin_group(session, code, guest_id)
    await change(group)
    await session.commit()
    return _back(code)


@router.post("/groups/{code}/rename", name="rename_group")
async def rename(code: str, guest_id: GuestId, session: SessionDep, name: NameField = ""):
    """The admin renames the group (a bad name: 422)."""
    cleaned, error = group_name(name)

    async def change(group: Group) -> None:
        if error:
            raise service.GroupError("bad_name", service.N_("This name cannot be used."), 422)
        await service.rename(group, cleaned)
    return await _as_admin(code, guest_id, session, change)


@router.post("/groups/{code}/remove", name="remove_member")
async def remove(code: str, guest_id: GuestId, session: SessionDep, player: PlayerField = ""):
    """The admin removes the member ``player`` (their results stay)."""
    return await _as_admin(code, guest_id, session,
                           lambda group: service.remove_member(session, group, player))


@router.post("/groups/{code}/admin", name="hand_over_group")
async def hand_over(code: str, guest_id: GuestId, session: SessionDep,
                    player: PlayerField = ""):
    """The admin hands the admin role to the member ``player``."""
    return await _as_admin(code, guest_id, session,
                           lambda group: service.hand_over(session, group, player))


@router.post("/groups/{code}/invite", name="renew_invite")
async def renew(code: str, guest_id: GuestId, session: SessionDep):
    """The admin renews the invite link: the old one stops working."""
    return await _as_admin(code, guest_id, session, service.renew_invite)


@router.post("/groups/{code}/leave", name="leave_group")
async def leave(code: str, guest_id: GuestId, session: SessionDep):
    """The visitor leaves the group (their results stay); 303 to their groups."""
    group = await service.member_group(session, code, guest_id)
    await service.leave(session, group, guest_id)
    await session.commit()
    return RedirectResponse("/groups", status_code=303)


@router.post("/groups/{code}/night", name="start_night")
async def start_night(code: str, guest_id: GuestId, session: SessionDep):
    """The admin starts a night (409 while one runs)."""
    return await _as_admin(code, guest_id, session,
                           lambda group: nights.start_night(session, group.id))


@router.post("/groups/{code}/night/end", name="end_night")
async def end_night(code: str, guest_id: GuestId, session: SessionDep):
    """The admin ends the running night: its standings show the winner."""
    return await _as_admin(code, guest_id, session,
                           lambda group: nights.end_night(session, group.id))


@router.get("/r/{room}/group", response_class=HTMLResponse, name="room_group")
async def room_group_page(request: Request, room: str, player: CurrentPlayer,
                          guest_id: GuestId, session: SessionDep) -> Response:
    """The host's choice of a group to play room ``room`` for (the group it plays for now is
    named to its members only)."""
    current = await service.room_group(session, room)
    if current is not None and await service.membership(session, current, guest_id) is None:
        current = None
    return templates.TemplateResponse(request, "groups/room.html", {
        "player": player, "room_code": room, "current": current,
        "groups": await service.groups_of(session, guest_id)})


@router.post("/r/{room}/group", name="attach_room")
async def attach(room: str, guest_id: GuestId, session: SessionDep,
                 group: Annotated[str, Form(max_length=40)] = ""):
    """Play room ``room`` for ``group`` (the host, an active member); 303 to the room."""
    found = await service.member_group(session, group, guest_id)
    await service.attach_room(session, found, room, guest_id)
    await session.commit()
    return RedirectResponse(f"/r/{room}", status_code=303)
