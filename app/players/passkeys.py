"""Passkeys (WebAuthn, with the ``webauthn`` library; docs/architecture.md, "Your name on
every device"): a player adds one from "Your devices", and a browser whose cookies were
cleared, or a new one, signs back in as that player with it. No password, no e-mail.

The challenge of each ceremony lives in the visitor's signed session and is used once. The
relying party is the site's host as the browser sees it (``rp_id``; browsers refuse IP
addresses, so a local server is reached as ``localhost``); the origin must be the page's own.
Passkeys are discoverable (resident) credentials: signing in needs no name first.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.errors import N_, KnobelError
from app.players.models import Passkey

RP_NAME = "Knobel"
MAX_PASSKEYS = 10  # per player


class PasskeyRefused(KnobelError):
    """A passkey ceremony the server does not accept (HTTP 400): ``no_challenge`` (none
    started, or used already), ``invalid`` (the browser's answer does not verify),
    ``unknown`` (no such passkey here), ``too_many``."""

    def __init__(self, code: str) -> None:
        message = {"no_challenge": N_("Start again: that passkey request has expired."),
                   "invalid": N_("That passkey could not be checked. Try again."),
                   "unknown": N_("This passkey is not known here. It may have been removed."),
                   "too_many": N_("You have the most passkeys allowed; remove one first.")}[code]
        super().__init__(code, message, 400)


def registration_options(rp_id: str, player_id: str, display_name: str,
                         existing: list[str]) -> tuple[str, bytes]:
    """The options for ``navigator.credentials.create`` (JSON) and their challenge: a
    discoverable passkey for ``player_id`` (its user handle), named ``display_name``, not
    one of the credential ids ``existing``."""
    options = generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_name=display_name, user_id=player_id.encode(),
        user_display_name=display_name,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
                             for c in existing])
    return options_to_json(options), options.challenge


def authentication_options(rp_id: str) -> tuple[str, bytes]:
    """The options for ``navigator.credentials.get`` (JSON, any discoverable passkey of this
    site) and their challenge."""
    options = generate_authentication_options(
        rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
    return options_to_json(options), options.challenge


async def register(session: AsyncSession, player_id: str, credential: dict[str, Any],
                   challenge: bytes, rp_id: str, origin: str | list[str], label: str,
                   now: datetime) -> Passkey:
    """Verify the browser's ``credential`` (``PublicKeyCredential.toJSON()`` of
    ``create``) against ``challenge`` and store it for ``player_id``. Raises
    ``PasskeyRefused`` (``invalid``, ``too_many``). Commits."""
    count = len((await session.execute(select(Passkey.id).where(
        Passkey.player_id == player_id))).all())
    if count >= MAX_PASSKEYS:
        raise PasskeyRefused("too_many")
    try:
        verified = verify_registration_response(
            credential=json.dumps(credential), expected_challenge=challenge,
            expected_rp_id=rp_id, expected_origin=origin)
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise PasskeyRefused("invalid") from None
    passkey = Passkey(id=bytes_to_base64url(verified.credential_id), player_id=player_id,
                      public_key=verified.credential_public_key,
                      sign_count=verified.sign_count, label=label[:60], created_at=now)
    session.add(passkey)
    await session.commit()
    return passkey


async def sign_in(session: AsyncSession, credential: dict[str, Any], challenge: bytes,
                  rp_id: str, origin: str | list[str], now: datetime) -> str:
    """Verify the browser's ``credential`` (``toJSON()`` of ``get``) against ``challenge``
    and a stored passkey: the player id it signs in as. Raises ``PasskeyRefused``
    (``unknown``, ``invalid``). Commits the new sign count."""
    credential_id = credential.get("id") if isinstance(credential, dict) else None
    passkey = await session.get(Passkey, credential_id) if isinstance(
        credential_id, str) and len(credential_id) <= 400 else None
    if passkey is None:
        raise PasskeyRefused("unknown")
    try:
        verified = verify_authentication_response(
            credential=json.dumps(credential), expected_challenge=challenge,
            expected_rp_id=rp_id, expected_origin=origin,
            credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count)
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise PasskeyRefused("invalid") from None
    await session.execute(update(Passkey).where(Passkey.id == passkey.id).values(
        sign_count=verified.new_sign_count, last_used_at=now))
    await session.commit()
    return passkey.player_id


async def of_player(session: AsyncSession, player_id: str) -> list[Passkey]:
    """The player's passkeys, newest first."""
    rows = await session.execute(select(Passkey).where(Passkey.player_id == player_id)
                                 .order_by(Passkey.created_at.desc()))
    return list(rows.scalars())


async def remove(session: AsyncSession, player_id: str, passkey_id: str) -> bool:
    """Remove ``player_id``'s passkey ``passkey_id``; False when they have none such.
    Commits."""
    result = await session.execute(delete(Passkey).where(
        Passkey.id == passkey_id, Passkey.player_id == player_id))
    await session.commit()
    return bool(getattr(result, "rowcount", 0))
