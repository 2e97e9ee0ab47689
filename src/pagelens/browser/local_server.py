"""Serve a local folder on loopback, so a saved page loads over http:// with its assets."""

from __future__ import annotations

import contextlib
import functools
import os
import socket
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        pass

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        # Without a charset a browser reads a page that has no <meta charset> as
        # windows-1252, which garbles a UTF-8 file; a file that is not UTF-8 is left to
        # the browser's own detection.
        kind = super().guess_type(path)
        if kind.startswith("text/") and "charset" not in kind and _is_utf8(path):
            return f"{kind}; charset=utf-8"
        return kind


def _is_utf8(path: str | os.PathLike[str]) -> bool:
    try:
        Path(path).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return True


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: socket.socket | tuple[bytes, socket.socket], client_address: Any) -> None:
        # A browser that navigates away drops its pending requests: nothing to report.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve_directory(directory: str | Path, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve `directory` on a free loopback port (in a thread, off the event loop);
    yields the base URL, e.g. ``http://127.0.0.1:40123/``."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = _QuietServer((host, 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="pagelens-local-server", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
