"""A real daemon for the server's tests: uvicorn serving `create_app` in the test's event
loop on a free port of 127.0.0.1, with its lifespan (store, push) from start to end.

    async with running_daemon(ServerConfig(database_url=url), TOKEN) as base_url:
        async with client(base_url) as http:
            await http.post("/api/agent/interact", json=...)

Loaded as a pytest plugin (`pytest_plugins = ["store_support", "server_support"]`) it
gives the fixtures `daemon` (a client of a daemon on the test's `database_url`, whose
model is `openai/scripted`) and `model_env` (points that model at a scripted server).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import uvicorn

from pagelens.server.app import create_app
from pagelens.server.config import ServerConfig

TOKEN = "test-daemon-token"
MODEL = "openai/scripted"  # the model of the fixtures' daemons; `model_env` says where it is


class _Uvicorn(uvicorn.Server):
    """uvicorn without its signal handlers: Ctrl-C stays the test runner's."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@contextlib.asynccontextmanager
async def running_daemon(config: ServerConfig, token: str = TOKEN) -> AsyncIterator[str]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = _Uvicorn(uvicorn.Config(create_app(config, token), log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()
            raise RuntimeError("the daemon stopped before it started")
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


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
    async with running_daemon(config) as base_url, client(base_url) as http:
        yield http


Daemon = Callable[..., AbstractAsyncContextManager[httpx.AsyncClient]]
Server = Any  # a tests.llm_servers server (its base_url and api_key)


@pytest.fixture
def daemon(database_url: str) -> Daemon:
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
