"""A real daemon for tests: `create_app` served by uvicorn in the test's event loop on a
free port of 127.0.0.1, its lifespan (store, push) run as `pagelens serve` runs it."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import uvicorn
from fastapi import FastAPI

from pagelens.server.app import create_app
from pagelens.server.config import ServerConfig
from pagelens.server.state import Daemon


@dataclass(frozen=True)
class RunningDaemon:
    base_url: str  # http://127.0.0.1:PORT
    app: FastAPI

    @property
    def state(self) -> Daemon:
        """What the routes share (store, broker): for calling the services as a route would."""
        state: Daemon = self.app.state.daemon
        return state

    def ws_url(self, path: str) -> str:
        return "ws" + self.base_url.removeprefix("http") + path


@contextlib.asynccontextmanager
async def running_daemon(config: ServerConfig, token: str) -> AsyncIterator[RunningDaemon]:
    """The daemon, started (its store open and migrated) when this enters, shut down as
    uvicorn does on SIGTERM when it leaves."""
    app = create_app(config, token)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = _Uvicorn(uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=5))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
                raise RuntimeError("the daemon stopped while starting (see the log above)")
            await asyncio.sleep(0.01)
        yield RunningDaemon(base_url=f"http://127.0.0.1:{port}", app=app)
    finally:
        server.should_exit = True
        await task
        sock.close()


class _Uvicorn(uvicorn.Server):
    """uvicorn without its signal handlers: Ctrl-C stays the test runner's."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield
