"""A pytest plugin for the action tests (tests/test_actions_*.py, which load it with
`pytest_plugins`): a loopback server for tests/fixtures/actions, plus a few routes a
static folder cannot give (a redirect, a server error), and a session on a real
Chromium."""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pagelens.actions import Session

PAGES = Path(__file__).parent / "fixtures" / "actions"

ROUTES = {
    # A page behind a login wall: the server sends the visitor to the sign-in page.
    "/account": (302, {"Location": "/login.html?next=/account"}, b""),
    "/broken": (
        500,
        {"Content-Type": "text/html"},
        b"<title>500 Internal Server Error</title><h1>Internal Server Error</h1>",
    ),
    # A 404 whose body says only one word: the status alone tells what it is.
    "/gone": (404, {"Content-Type": "text/html"}, b"Nope"),
}


class _Handler(SimpleHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        route = ROUTES.get(self.path.split("?")[0])
        if route is None:
            super().do_GET()
            return
        status, headers, body = route
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextlib.contextmanager
def serve_actions() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(PAGES)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """Base URL of tests/fixtures/actions (and the extra routes)."""
    with serve_actions() as url:
        yield url


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[Session]:
    """One session per test module. Every test starts by navigating, so none depends on
    another's page. `allowed_hosts` is None, as an agent's session would have it, so a
    name that does not resolve fails in DNS rather than in the network policy."""
    async with await Session.start() as session:
        yield session
