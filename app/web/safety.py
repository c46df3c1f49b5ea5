"""Small guards shared by the web routes."""

from __future__ import annotations


def safe_next(target: str | None, default: str = "/") -> str:
    """Return ``target`` when it is a local path (``/x``), else ``default``.

    Blocks open redirects: ``//evil``, ``/\\evil``, absolute URLs and control characters.
    """
    if (
        not target
        or not target.startswith("/")
        or target.startswith("//")
        or target.startswith("/\\")
        or any(ord(ch) < 32 for ch in target)
    ):
        return default
    return target
