"""The web UI: static files (plain ES modules, one CSS file, no build step) served at
/ui. They load without the token, which the page asks for and keeps in the tab's session
storage; every API call it makes carries the token as any client's does (docs/server.md,
"The web UI")."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

PREFIX = "/ui"
FILES = Path(__file__).parent / "ui"
# Only the daemon's own scripts, styles and API; screenshots come as blob: URLs.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def is_ui_path(path: str) -> bool:
    """A path of the UI's files (what needs no token), never one of the API."""
    return path == PREFIX or path.startswith(PREFIX + "/")


class _UiFiles(StaticFiles):
    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers["Content-Security-Policy"] = POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-cache"  # revalidated: a new pagelens serves new files
        return response


def mount(app: FastAPI) -> None:
    app.mount(PREFIX, _UiFiles(directory=FILES, html=True), name="ui")
