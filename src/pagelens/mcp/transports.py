"""Serving the MCP server: stdio (one client, the default) or streamable HTTP on
loopback. Either way a stop signal closes the browser before the process ends."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import Callable, Iterator

import uvicorn
from mcp.server.stdio import stdio_server

from pagelens.errors import ErrorCode, PagelensError
from pagelens.mcp.holder import BrowserOptions, SessionHolder
from pagelens.mcp.server import build_server

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


async def serve_stdio(options: BrowserOptions) -> None:
    """Serve one client over stdin/stdout until it closes stdin (or SIGTERM/SIGINT)."""
    holder = SessionHolder(options)
    server = build_server(holder)
    with _exit_on_stop_signals(holder):
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


async def serve_http(
    options: BrowserOptions, *, host: str, port: int, on_ready: Callable[[str], None] | None = None
) -> None:
    """Serve streamable HTTP at http://host:port/mcp (port 0: any free port). `on_ready`
    gets the URL once the socket accepts connections."""
    server = build_server(SessionHolder(options))
    app = server.streamable_http_app(host=host)
    sock = _listening_socket(host, port)
    bound_port = sock.getsockname()[1]
    url = f"http://{_url_host(host)}:{bound_port}/mcp"
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    if on_ready is not None:
        on_ready(url)  # connections made from now on wait in the backlog
    await _Uvicorn(config).serve(sockets=[sock])


class _Uvicorn(uvicorn.Server):
    """uvicorn, except that a stop signal ends it with status 0: uvicorn re-raises the
    signal after its graceful shutdown, which reports a clean stop as a kill."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        loop = asyncio.get_running_loop()
        for sig in STOP_SIGNALS:
            loop.add_signal_handler(sig, self._stop)
        try:
            yield
        finally:
            for sig in STOP_SIGNALS:
                loop.remove_signal_handler(sig)

    def _stop(self) -> None:
        self.force_exit = self.should_exit  # a second signal does not wait for clients
        self.should_exit = True


@contextlib.contextmanager
def _exit_on_stop_signals(holder: SessionHolder) -> Iterator[None]:
    """SIGTERM/SIGINT close the browser, then end the process at once. Cancelling the
    server instead would hang: the SDK reads stdin in a thread that nothing interrupts."""
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    async def stop() -> None:
        await holder.close()
        sys.stderr.flush()
        os._exit(0)

    def on_signal() -> None:
        if not stopping:
            stopping.append(loop.create_task(stop()))

    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, on_signal)
    try:
        yield
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)


def _listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise PagelensError(f"cannot listen on {host}:{port}: {exc.strerror}", code=ErrorCode.LISTEN_FAILED) from None
    sock.listen(128)
    sock.set_inheritable(False)
    return sock


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def print_ready(url: str) -> None:
    sys.stderr.write(f"pagelens MCP server on {url}\n")
    sys.stderr.flush()
