"""A real daemon for tests: `create_app` served by uvicorn in the test's event loop on a
free port of 127.0.0.1, its lifespan (store, push) run as `pagelens serve` runs it.

    async with running_daemon(ServerConfig(database_url=url), TOKEN) as running:
        async with client(running.base_url) as http:
            await http.post("/api/agent/interact", json=...)

Loaded as a pytest plugin (`pytest_plugins = ["tests.store_support", "tests.server_support"]`) it
gives the fixtures `daemon` (a client of a daemon on the test's `database_url`, whose
model is `openai/scripted`) and `model_env` (points that model at a scripted server)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import uvicorn
from fastapi import FastAPI

from pagelens.server.app import create_app
from pagelens.server.config import ServerConfig
from pagelens.server.serve import listening_socket
from pagelens.server.state import Daemon

TOKEN = "test-daemon-token"
MODEL = "openai/scripted"  # the model of the fixtures' daemons; `model_env` says where it is


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
    sock = listening_socket("127.0.0.1", 0)  # the socket `pagelens serve` listens on
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


def client(base_url: str, token: str = TOKEN) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=base_url, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def sse_events(text: str) -> list[tuple[str, Any]]:
    """(event, parsed data) of each Server-Sent Event in `text`."""
    events = []
    for block in text.replace("\r\n", "\n").strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line)
        events.append((fields.get("event", "message"), json.loads(fields.get("data", "null"))))
    return events


@contextlib.asynccontextmanager
async def daemon_client(config: ServerConfig) -> AsyncIterator[httpx.AsyncClient]:
    async with running_daemon(config, TOKEN) as running, client(running.base_url) as http:
        yield http


DaemonClient = Callable[..., AbstractAsyncContextManager[httpx.AsyncClient]]
Server = Any  # a tests.llm_servers server (its base_url and api_key)


@pytest.fixture
def daemon(database_url: str) -> DaemonClient:
    """`async with daemon(**config) as http:` a client of a running daemon on the test's database."""

    def start(**config: Any) -> AbstractAsyncContextManager[httpx.AsyncClient]:
        return daemon_client(ServerConfig(database_url=database_url, model=MODEL, **config))

    return start


@pytest.fixture
def model_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[..., None]:
    """`model_env(server, key=None)`: MODEL is served by `server` (with its key, or `key`);
    no user config file is in the way."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("PAGELENS_CONFIG", "PAGELENS_MODEL"):
        monkeypatch.delenv(name, raising=False)

    def point(server: Server, key: str | None = None) -> None:
        monkeypatch.setenv("OPENAI_API_KEY", key or server.api_key)
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)

    return point
