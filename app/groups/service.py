"""Groups and their members: create, join by invite, rename, remove, hand over the admin
role, renew the invite, leave, and attach a room (docs/rules.md, "Groups").

Every function takes an open session and commits nothing; the routes do. Refusals raise
``GroupError`` (a ``KnobelError``): a group a visitor is not a member of is "not found" (404),
never a list of its members.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import utcnow
from app.errors import N_, KnobelError
from app.groups.models import Group, GroupMember, GroupRoom
from app.players.service import upsert_player
from app.rooms.codes import is_code, new_code
from app.store.models import Room

ACTIVE = "active"


class GroupError(KnobelError):
    """A refused group request (``not_found`` 404, ``not_admin`` 403, ``bad_invite`` 404,
    ``unknown_room`` 404, ``not_host`` 403, ``bad_target`` 400, ``bad_name`` 422; nights:
    ``night_running``, ``no_night`` 409)."""


def _not_found() -> GroupError:
    return GroupError("not_found", N_("This group does not exist."), 404)


async def create_group(session: AsyncSession, player_id: str, player_name: str,
                       name: str) -> Group:
    """A new group called ``name`` (cleaned) with ``player_id`` (seated as ``player_name``)
    as its admin and first member."""
    await upsert_player(session, player_id, player_name)
    group = Group(code=new_code(), name=name, admin_player_id=player_id,
                  invite=secrets.token_urlsafe(12), created_at=utcnow())
    session.add(group)
    await session.flush()
    session.add(GroupMember(group_id=group.id, player_id=player_id, name=player_name,
                            status=ACTIVE, joined_at=utcnow()))
    await session.flush()
    return group


async def group_by_code(session: AsyncSession, code: str) -> Group | None:
    """The group with ``code``, or None (also for a string that is no code)."""
    if not is_code(code):
        return None
    return (await session.execute(select(Group).where(Group.code == code))).scalar_one_or_none()


async def membership(session: AsyncSession, group: Group, player_id: str) -> GroupMember | None:
    """``player_id``'s active membership of ``group``, or None."""
    member = await session.get(GroupMember, (group.id, player_id))
    return member if member is not None and member.status == ACTIVE else None


async def member_group(session: AsyncSession, code: str, player_id: str) -> Group:
    """Group ``code`` for one of its active members; ``GroupError`` not_found (404) for an
    unknown group and for anyone else alike."""
    group = None
    if is_code(code):
        group = (await session.execute(
            select(Group).join(GroupMember, GroupMember.group_id == Group.id)
            .where(Group.code == code, GroupMember.player_id == player_id,
                   GroupMember.status == ACTIVE))).scalar_one_or_none()
    if group is None:
        raise _not_found()
    return group


async def group_and_members(session: AsyncSession, code: str,
                            player_id: str) -> tuple[Group, list[Any]]:
    """Group ``code`` and every member it ever had (also those who left or were removed, by
    name: rows with ``player_id``, ``name``, ``status``, read as columns), for one of its
    active members, in one statement; ``GroupError`` not_found (404) for an unknown group
    and for anyone else alike (as ``member_group``)."""
    found: list[Any] = []
    if is_code(code):
        found = list((await session.execute(
            select(Group, GroupMember.player_id, GroupMember.name, GroupMember.status)
            .join(GroupMember, GroupMember.group_id == Group.id)
            .where(Group.code == code)
            .order_by(GroupMember.name, GroupMember.player_id))).all())
    if not any(row.player_id == player_id and row.status == ACTIVE for row in found):
        raise _not_found()
    return found[0][0], found


async def admin_group(session: AsyncSession, code: str, player_id: str) -> Group:
    """Group ``code`` for its admin; ``GroupError`` not_found (404) or not_admin (403)."""
    group = await member_group(session, code, player_id)
    if group.admin_player_id != player_id:
        raise GroupError("not_admin", N_("Only the group's admin can do that."), 403)
    return group


async def members(session: AsyncSession, group: Group,
                  everyone: bool = False) -> list[GroupMember]:
    """The active members of ``group`` (``everyone``: also those who left or were removed),
    by name."""
    query = select(GroupMember).where(GroupMember.group_id == group.id)
    if not everyone:
        query = query.where(GroupMember.status == ACTIVE)
    rows = await session.execute(query.order_by(GroupMember.name, GroupMember.player_id))
    return list(rows.scalars())


async def by_invite(session: AsyncSession, token: str) -> Group:
    """The group whose current invite token is ``token``; ``GroupError`` bad_invite (404)
    for an old or unknown one."""
    group = None
    if is_code(token):
        group = (await session.execute(
            select(Group).where(Group.invite == token))).scalar_one_or_none()
    if group is None:
        raise GroupError("bad_invite", N_("This invite link no longer works."), 404)
    return group


async def join(session: AsyncSession, group: Group, player_id: str, name: str) -> None:
    """``player_id`` joins ``group`` as ``name`` (again, after leaving or being removed: an
    invite link is the admin's word)."""
    await upsert_player(session, player_id, name)
    member = await session.get(GroupMember, (group.id, player_id))
    if member is None:
        session.add(GroupMember(group_id=group.id, player_id=player_id, name=name,
                                status=ACTIVE, joined_at=utcnow()))
    else:
        member.status, member.name = ACTIVE, name
    await session.flush()


async def rename(group: Group, name: str) -> None:
    """Give ``group`` the (cleaned) ``name``."""
    group.name = name


async def renew_invite(group: Group) -> str:
    """A new invite token for ``group``; the old link stops working. Returns the token."""
    group.invite = secrets.token_urlsafe(12)
    return group.invite


async def remove_member(session: AsyncSession, group: Group, target: str) -> None:
    """The admin takes ``target`` out of ``group`` (their past results stay). ``GroupError``
    bad_target (400) for the admin themself or someone who is no member."""
    member = await membership(session, group, target)
    if member is None or target == group.admin_player_id:
        raise GroupError("bad_target", N_("That is not a member you can remove."), 400)
    member.status = "removed"


async def hand_over(session: AsyncSession, group: Group, target: str) -> None:
    """Make the active member ``target`` the admin of ``group``; ``GroupError`` bad_target
    (400) otherwise."""
    if target == group.admin_player_id or await membership(session, group, target) is None:
        raise GroupError("bad_target", N_("That is not another member of this group."), 400)
    group.admin_player_id = target


async def leave(session: AsyncSession, group: Group, player_id: str) -> None:
    """``player_id`` leaves ``group`` (their past results stay, with their name as it was).
    The admin hands the role to the longest-standing other member first; the last member
    leaving leaves the group without anyone."""
    member = await membership(session, group, player_id)
    if member is None:
        raise _not_found()
    member.status = "left"
    if group.admin_player_id == player_id:
        others = await members(session, group)
        heirs = sorted((m for m in others if m.player_id != player_id),
                       key=lambda m: (m.joined_at, m.player_id))
        if heirs:
            group.admin_player_id = heirs[0].player_id


async def attach_room(session: AsyncSession, group: Group, room_code: str,
                      player_id: str) -> None:
    """Play room ``room_code`` for ``group``: its games finished from now on count there.
    Only an active member who hosts the room may; a room already playing for another group
    moves to this one. ``GroupError``: not_found (404: no such group for them, or no such
    room), not_host (403)."""
    if await membership(session, group, player_id) is None:
        raise _not_found()
    room = (await session.execute(
        select(Room).where(Room.code == room_code))).scalar_one_or_none() \
        if is_code(room_code) else None
    if room is None:
        raise GroupError("unknown_room", N_("This room does not exist."), 404)
    if room.host_player_id != player_id:
        raise GroupError("not_host", N_("Only the host can do that."), 403)
    link = await session.get(GroupRoom, room.id)
    if link is None:
        session.add(GroupRoom(room_id=room.id, group_id=group.id, attached_at=utcnow()))
    else:
        link.group_id = group.id


async def groups_of(session: AsyncSession, player_id: str) -> list[Group]:
    """The groups ``player_id`` is an active member of, by name."""
    rows = await session.execute(
        select(Group).join(GroupMember, GroupMember.group_id == Group.id)
        .where(GroupMember.player_id == player_id, GroupMember.status == ACTIVE)
        .order_by(Group.name, Group.id))
    return list(rows.scalars())


async def room_group(session: AsyncSession, room_code: str) -> Group | None:
    """The group room ``room_code`` plays for, or None."""
    return (await session.execute(
        select(Group).join(GroupRoom, GroupRoom.group_id == Group.id)
        .join(Room, Room.id == GroupRoom.room_id).where(Room.code == room_code))
    ).scalar_one_or_none()


__all__ = ["N_", "GroupError"]
