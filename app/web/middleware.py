"""ASGI middleware: picks each request's (and socket's) UI language."""

from __future__ import annotations

from http.cookies import SimpleCookie

from starlette.types import ASGIApp, Receive, Scope, Send

from app import i18n


class LanguageMiddleware:
    """Sets ``app.i18n``'s current language from the ``lang`` cookie or ``Accept-Language``.

    The chosen language is also stored in ``scope["state"]["lang"]``.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pick the language for an HTTP request or WebSocket, then call the app."""
        if scope["type"] in ("http", "websocket"):
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            cookie_lang = None
            if "cookie" in headers:
                jar = SimpleCookie()
                try:
                    jar.load(headers["cookie"])
                except Exception:  # malformed cookie header: ignore it
                    jar = SimpleCookie()
                if i18n.LANG_COOKIE in jar:
                    cookie_lang = jar[i18n.LANG_COOKIE].value
            lang = i18n.negotiate(headers.get("accept-language"), cookie_lang)
            scope.setdefault("state", {})["lang"] = lang
            i18n.set_language(lang)
        await self.app(scope, receive, send)
