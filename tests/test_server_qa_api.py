"""The daemon as a demanding client and operator meets it, with real parts (`pagelens
serve` in a process of its own or uvicorn in the test's loop, SQLite and PostgreSQL,
Redis, a scripted model on the OpenAI wire): startup errors, the bearer scheme, a stop
while a request waits on its model, and runs left RUNNING by a daemon that died."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect

from pagelens.server.config import ServerConfig
from pagelens.server.runs import ORPHANED
from tests.agent_script import call
from tests.llm_servers import Hang, OpenAIChatServer
from tests.server_support import MODEL, TOKEN, client, running_daemon
from tests.test_server_cli import environment, free_port, read_stderr, serve_process

pytest_plugins = ["tests.store_support", "tests.server_support"]

REDIS_URL = os.environ.get("PAGELENS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


async def test_a_redis_url_that_is_not_one_stops_the_start_with_one_line(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "pagelens.cli.main", "serve", "--port", str(free_port()),
        "--token", "s3cret", "--redis-url", "localhost:6379", env=environment(tmp_path), stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    err = await read_stderr(process)
    assert await asyncio.wait_for(process.wait(), 30) == 1, err
    assert err.startswith("error: [store_unavailable] ") and "localhost:6379" in err, err
    assert len(err.splitlines()) == 1, err  # no traceback


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "Bearer"])
async def test_the_bearer_scheme_is_read_whatever_its_case(database_url: str, scheme: str) -> None:
    config = ServerConfig(database_url=database_url)
    async with running_daemon(config, TOKEN) as daemon, httpx.AsyncClient(base_url=daemon.base_url) as http:
        accepted = await http.get("/api/sessions", headers={"Authorization": f"{scheme} {TOKEN}"})
        assert accepted.status_code == 200, accepted.text
        for refused in (f"{scheme} wrong", f"Basic {TOKEN}", f"{scheme}{TOKEN}", TOKEN):
            answer = await http.get("/api/sessions", headers={"Authorization": refused})
            assert answer.status_code == 401 and answer.json()["error"] == "unauthorized", refused


async def test_a_daemon_asked_to_stop_does_not_wait_for_a_model_that_hangs(tmp_path: Path) -> None:
    asked = asyncio.Event()

    def hang(body: dict[str, Any]) -> Hang:
        asked.set()
        return Hang(600)

    async with OpenAIChatServer([hang]) as model:
        env = {
            **environment(tmp_path),
            "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
            "OPENAI_API_KEY": model.api_key,
            "OPENAI_BASE_URL": model.base_url,
        }
        async with serve_process(env, "--token", "s3cret", "--model", "openai/scripted") as (process, base):
            body = {"url": "https://example.com/", "messages": [{"role": "user", "content": "Hello?"}]}
            headers = {"Authorization": "Bearer s3cret"}
            http = httpx.AsyncClient(base_url=base, headers=headers, timeout=300)
            async with http, http.stream("POST", "/v1/agent", json=body) as answer:
                assert answer.status_code == 200
                await asyncio.wait_for(asked.wait(), 60)  # the stream is open, the model silent
                process.terminate()
                # Stopped after its grace period, while the client still waits and the model
                # hangs (uvicorn ends by raising the signal it handled again).
                assert await asyncio.wait_for(process.wait(), 60) == -signal.SIGTERM


async def _orphan(daemon: Any) -> tuple[str, str]:
    """A run as a daemon killed in the middle of it leaves it: RUNNING, nobody carrying it."""
    store = daemon.state.store
    session = await store.sessions.create(title="example.com: Wait", url="https://example.com/")
    run = await store.runs.create("Wait", session_id=session.id, url=session.url, model="x", status="RUNNING")
    return run.id, session.id


@pytest.mark.parametrize("redis_url", [None, REDIS_URL])
async def test_stopping_a_run_whose_daemon_died_ends_it(database_url: str, redis_url: str | None) -> None:
    async with running_daemon(ServerConfig(database_url=database_url, redis_url=redis_url), TOKEN) as daemon:
        run_id, session_id = await _orphan(daemon)
        async with client(daemon.base_url) as http:
            async with connect(daemon.ws_url(f"/api/session/{session_id}/ws?token={TOKEN}")) as websocket:
                stopped = await http.post(f"/api/runs/{run_id}/stop")
                event = json.loads(await asyncio.wait_for(websocket.recv(), 30))
            final = (await http.get(f"/api/runs/{run_id}")).json()
    assert stopped.status_code == 200 and stopped.json()["status"] == "STOPPED"
    assert event == {"type": "run_finished", "runId": run_id, "status": "STOPPED", "sessionId": session_id}
    assert final["status"] == "STOPPED" and final["result"] == ORPHANED


async def _everything_stored(database_url: str) -> str:
    """Every row of the daemon's tables, as text."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            rows = [
                row
                for table in ("sessions", "messages", "runs", "chat_cache", "meta")
                for row in await connection.execute(text(f"SELECT * FROM {table}"))  # noqa: S608 - our names
            ]
    finally:
        await engine.dispose()
    return json.dumps([list(map(str, row)) for row in rows], ensure_ascii=False)


async def test_what_the_agent_types_stays_with_the_client(database_url: str, model_env: Any) -> None:
    password = "hunter2-Sécret"
    script = [
        call("interact", "I'll type the password.", action="type", element_id="2", text=password),
        call("finish", "Logged in.", result="Logged in"),
    ]
    tree = [{"i": "1", "r": "tbox", "n": "User"}, {"i": "2", "r": "tbox", "n": "Password", "s": "password"}]
    body = {"url": "https://example.com/login", "query": "Log in with my saved password", "interactiveTree": tree}
    async with (
        OpenAIChatServer(script) as model,
        running_daemon(ServerConfig(database_url=database_url, model=MODEL), TOKEN) as daemon,
    ):
        model_env(model)
        async with client(daemon.base_url) as http:
            first = (await http.post("/api/agent/interact", json=body)).json()["data"]
            session_id = first["sessionId"]
            async with connect(daemon.ws_url(f"/api/session/{session_id}/ws?token={TOKEN}")) as websocket:
                await http.post("/api/agent/interact", json={**body, "taskId": first["taskId"]})
                pushed = [await asyncio.wait_for(websocket.recv(), 30) for _ in range(2)]
            listed = (await http.get(f"/api/session/{session_id}/messages")).text
    # The client that types it is told; the session shows •••, as a run's steps do.
    assert first["action"] == f'type(2, "{password}")' and first["actionDetails"]["args"] == {"text": password}
    typed = json.loads(listed)["messages"][1]
    assert (typed["actionString"], typed["actionPayload"]["args"]) == ('type(2, "•••")', {"text": "•••"})
    for seen in (listed, *pushed, await _everything_stored(database_url)):
        assert password not in seen and json.dumps(password)[1:-1] not in seen
