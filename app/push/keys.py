"""The server's VAPID key pair (RFC 8292), with ``py-vapid``: generated once into
``VAR_DIR/vapid_private.pem`` like the secret key, or given by ``VAPID_PRIVATE_KEY`` (a PEM or
the raw key, base64url). Browsers get the public key to subscribe with
(``applicationServerKey``)."""

from __future__ import annotations

import base64
from pathlib import Path

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid

from app.var_files import create_once


def load_vapid(private_key: str, var_dir: Path) -> Vapid:
    """The VAPID key pair: from ``private_key`` when set (PEM text or base64url raw key),
    else from ``var_dir/vapid_private.pem``, created on first use (mode 0600). Raises
    ``py_vapid.VapidException`` for a key that cannot be read."""
    if private_key.strip():
        return Vapid.from_string(private_key=private_key.strip())
    path = var_dir / "vapid_private.pem"

    def generate() -> bytes:
        vapid = Vapid()
        vapid.generate_keys()
        return bytes(vapid.private_pem())

    create_once(path, generate)  # two processes starting at once: both read the first
    return Vapid.from_file(private_key_file=str(path))


def public_key(vapid: Vapid) -> str:
    """The public key as browsers take it: the uncompressed P-256 point, base64url without
    padding (87 characters)."""
    raw = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
