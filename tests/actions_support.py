"""A pytest plugin for the action tests (tests/test_actions_*.py, which load it with
`pytest_plugins`): a loopback server for tests/fixtures/actions, plus a few routes a
static folder cannot give (a redirect, a server error, a slow answer, no answer at all,
a body that never ends), and a session on a real Chromium."""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import AsyncIterator, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

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
    # Links that load no document: the browser stays where it was.
    "/no-content": (204, {}, b""),
    "/report.csv": (
        200,
        {"Content-Type": "text/csv", "Content-Disposition": "attachment; filename=report.csv"},
        b"a,b\n1,2\n",
    ),
}


_STREAM_CHUNK_S = 0.2


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, directory: Path) -> None:
        super().__init__(("127.0.0.1", 0), functools.partial(_Handler, directory=str(directory)))
        self.stopping = threading.Event()  # the routes that hold a connection open let go then


class _Handler(SimpleHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        path = urlsplit(self.path).path
        if path in _DYNAMIC:
            _DYNAMIC[path](self)
            return
        route = ROUTES.get(path)
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

    @property
    def stopping(self) -> threading.Event:
        assert isinstance(self.server, _Server)
        return self.server.stopping

    def hang(self) -> None:
        """/hang: a server that never answers (until it stops)."""
        self.stopping.wait()

    def slow(self) -> None:
        """/slow?ms=N&text=T: `text` as plain text after N milliseconds."""
        query = parse_qs(urlsplit(self.path).query)
        time.sleep(int(query.get("ms", ["0"])[0]) / 1000)
        body = query.get("text", [""])[0].encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def stream(self) -> None:
        """/stream: an HTML body, chunked, that keeps coming until the client goes away."""
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        count = 0
        with contextlib.suppress(OSError):  # the browser left
            while not self.stopping.wait(_STREAM_CHUNK_S):
                count += 1
                chunk = f"<p>tick {count}</p>\n".encode()
                self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                self.wfile.flush()


_DYNAMIC = {"/hang": _Handler.hang, "/slow": _Handler.slow, "/stream": _Handler.stream}


@contextlib.contextmanager
def serve_actions() -> Iterator[str]:
    server = _Server(PAGES)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.stopping.set()
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
