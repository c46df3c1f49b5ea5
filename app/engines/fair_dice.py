"""Dice anyone can check (docs/dice.md): every die of a game is a function of one secret seed
and the die's place in the game, and the seed's SHA-256 is shown before the first throw.

The function (version ``knobel-dice-1``)::

    message = f"{game}:{turn}:{throw}:{slot}".encode("ascii")
    digest  = HMAC-SHA256(key=seed, message)             # seed: 32 bytes
    face    = 1 + int.from_bytes(digest, "big") % 6

``game`` names the game (a room game: ``<room code>-<game number>``, e.g. ``KX7Q2M-1``);
``turn`` counts the game's turns from 1; ``throw`` the throws within the turn from 1;
``slot`` the die's place on the table from 0 (Knister: 0 and 1; the Kniffel family: 0..4,
a held die keeps its slot and is not thrown). The commitment is ``SHA-256(seed)`` in hex.
Pure: no randomness (the seed comes in), no I/O.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

VERSION = "knobel-dice-1"
"""The name of the function above, written into a game's public JSON."""
SEED_BYTES = 32


def seed_bytes(seed_hex: str) -> bytes:
    """The 32 seed bytes of ``seed_hex`` (64 hex digits); ``ValueError`` otherwise."""
    raw = bytes.fromhex(seed_hex)
    if len(raw) != SEED_BYTES:
        raise ValueError("a seed is 32 bytes")
    return raw


def commitment(seed_hex: str) -> str:
    """The commitment shown before the first throw: SHA-256 of the seed's bytes, 64 hex
    digits. ``ValueError`` for a seed that is not 64 hex digits."""
    return hashlib.sha256(seed_bytes(seed_hex)).hexdigest()


def face(seed_hex: str, game: str, turn: int, throw: int, slot: int) -> int:
    """The face (1..6) of die ``slot`` in throw ``throw`` of turn ``turn`` of ``game`` (see
    the module's docstring). ``ValueError`` for a bad seed."""
    message = f"{game}:{turn}:{throw}:{slot}".encode("ascii")
    digest = hmac.new(seed_bytes(seed_hex), message, hashlib.sha256).digest()
    return 1 + int.from_bytes(digest, "big") % 6


def faces(seed_hex: str, game: str, turn: int, throw: int, slots: Iterable[int]) -> list[int]:
    """The faces of ``slots`` (in the order given) of one throw (``face`` each)."""
    return [face(seed_hex, game, turn, throw, slot) for slot in slots]
