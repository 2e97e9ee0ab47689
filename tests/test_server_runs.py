"""Runs: the daemon's own agent on its own browser, started, watched on the session's
WebSocket, read and stopped over HTTP, with a scripted model on the OpenAI wire."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

import pagelens
from pagelens.server.config import ServerConfig
from tests.agent_script import SHOP_TASK, call, plan, shop_script
from tests.llm_servers import Hang, OpenAIChatServer
from tests.server_support import MODEL, TOKEN, RunningDaemon, client, running_daemon

pytest_plugins = ["tests.store_support", "tests.server_support"]

SHOP = Path(__file__).parent / "fixtures" / "agent"
REDIS_URL = os.environ.get("PAGELENS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
LOOPBACK = ("127.0.0.1", "localhost")


@pytest.fixture(scope="module")
def shop() -> Iterator[str]:
    with pagelens.serve_directory(SHOP) as url:
        yield url


def config(database_url: str, **extra: Any) -> ServerConfig:
    return ServerConfig(database_url=database_url, model=MODEL, allowed_hosts=LOOPBACK, **extra)


def watch(daemon: RunningDaemon, session_id: str) -> Any:
    return connect(daemon.ws_url(f"/api/session/{session_id}/ws?token={TOKEN}"))


def hanging(thinking: asyncio.Event) -> Callable[[dict[str, Any]], Hang]:
    """A model turn that never answers, and says when it was asked."""

    def turn(body: dict[str, Any]) -> Hang:
        thinking.set()
        return Hang(60)

    return turn


async def events_until(websocket: ClientConnection, kind: str) -> list[dict[str, Any]]:
    seen = []
    while True:
        event = json.loads(await asyncio.wait_for(websocket.recv(), 60))
        seen.append(event)
        if event["type"] == kind:
            return seen


async def test_a_run_completes_and_its_session_tells_the_story(
    database_url: str, model_env: Callable[..., None], shop: str
) -> None:
    async with OpenAIChatServer(shop_script()) as model, running_daemon(config(database_url), TOKEN) as daemon:
        model_env(model)
        async with client(daemon.base_url) as http:
            started = await http.post("/api/runs", json={"task": SHOP_TASK, "url": shop + "index.html"})
            assert started.status_code == 202, started.text
            run = started.json()
            assert run["status"] == "RUNNING" and run["model"] == MODEL and run["sessionId"]
            async with watch(daemon, run["sessionId"]) as websocket:
                events = await events_until(websocket, "run_finished")
            finished = (await http.get(f"/api/runs/{run['id']}")).json()
            messages = (await http.get(f"/api/session/{run['sessionId']}/messages")).json()
            session = (await http.get("/api/session/latest")).json()["session"]
    assert events[-1] == {
        "type": "run_finished",
        "runId": run["id"],
        "status": "COMPLETED",
        "sessionId": run["sessionId"],
    }
    assert any(e["type"] == "run_event" and e["event"]["type"] == "plan_updated" for e in events)
    assert any(e["type"] == "new_message" for e in events)
    assert finished["status"] == "COMPLETED" and "Blue Kettle" in finished["result"]
    assert [step["status"] for step in finished["plan"]["steps"]] == ["completed"] * 4
    roles = [m["role"] for m in messages["messages"]]
    assert roles[0] == "user" and messages["messages"][0]["content"] == SHOP_TASK
    assert roles.count("assistant") == 14  # 13 steps and the verdict
    assert any(m["actionString"] and m["actionString"].startswith("interact(") for m in messages["messages"])
    assert "Is it blue inside too?" not in json.dumps(messages)  # typed text stays out
    assert session["title"] == f"127.0.0.1: {SHOP_TASK}"


async def test_a_run_stopped_through_another_daemon_ends_stopped(
    postgres_url: str, model_env: Callable[..., None], shop: str
) -> None:
    shared = config(postgres_url, redis_url=REDIS_URL)
    thinking = asyncio.Event()
    async with (
        OpenAIChatServer([plan(("Wait for the model", "in_progress")), hanging(thinking)]) as model,
        running_daemon(shared, TOKEN) as first,
        running_daemon(shared, TOKEN) as second,
    ):
        model_env(model)
        async with client(first.base_url) as http_first, client(second.base_url) as http_second:
            run = (await http_first.post("/api/runs", json={"task": "Wait", "url": shop + "index.html"})).json()
            async with watch(first, run["sessionId"]) as websocket:
                await asyncio.wait_for(thinking.wait(), 60)  # the model is thinking: the run is going
                stopped = await http_second.post(f"/api/runs/{run['id']}/stop")
                assert stopped.status_code == 200
                events = await events_until(websocket, "run_finished")
            final = (await http_second.get(f"/api/runs/{run['id']}")).json()
    assert events[-1]["status"] == "STOPPED" and final["status"] == "STOPPED"
    assert final["result"] == "stopped by the user"


async def test_bad_runs_are_refused_with_their_reasons(database_url: str, model_env: Callable[..., None]) -> None:
    async with OpenAIChatServer([]) as model, running_daemon(config(database_url), TOKEN) as daemon:
        model_env(model)
        async with client(daemon.base_url) as http:
            empty = await http.post("/api/runs", json={"task": ""})
            assert empty.status_code == 400 and empty.json()["fields"][0]["field"] == "task"
            unknown = await http.post("/api/runs", json={"task": "x", "colour": "red"})
            assert unknown.status_code == 400 and unknown.json()["fields"][0]["field"] == "colour"
            bad_model = await http.post("/api/runs", json={"task": "x", "model": "nobody/nothing"})
            assert bad_model.status_code == 400 and bad_model.json()["error"] == "invalid_model_id"
            missing = await http.get("/api/runs/no-such-run")
            assert missing.status_code == 404 and missing.json()["error"] == "record_not_found"
            assert (await http.post("/api/runs/no-such-run/stop")).status_code == 404


async def test_shutting_down_stops_the_runs_it_carries(
    database_url: str, model_env: Callable[..., None], shop: str
) -> None:
    thinking = asyncio.Event()
    async with OpenAIChatServer([call("plan", steps=[{"description": "Wait"}]), hanging(thinking)]) as model:
        model_env(model)
        async with running_daemon(config(database_url), TOKEN) as daemon, client(daemon.base_url) as http:
            run = (await http.post("/api/runs", json={"task": "Wait", "url": shop + "index.html"})).json()
            await asyncio.wait_for(thinking.wait(), 60)
        async with running_daemon(config(database_url), TOKEN) as again, client(again.base_url) as http:
            final = (await http.get(f"/api/runs/{run['id']}")).json()
    assert final["status"] == "STOPPED"
    assert final["result"] == "the daemon shut down"  # nobody pressed Stop


async def finished(http: httpx.AsyncClient, run_id: str) -> dict[str, Any]:
    """The run once it has ended."""
    for _ in range(600):
        run: dict[str, Any] = (await http.get(f"/api/runs/{run_id}")).json()
        if run["status"] != "RUNNING":
            return run
        await asyncio.sleep(0.1)
    raise AssertionError(f"the run {run_id} did not end")


async def test_a_run_stopped_as_it_starts_ends_stopped(
    database_url: str, model_env: Callable[..., None], shop: str
) -> None:
    async with OpenAIChatServer(shop_script()) as model, running_daemon(config(database_url), TOKEN) as daemon:
        model_env(model)
        async with client(daemon.base_url) as http:
            run = (await http.post("/api/runs", json={"task": SHOP_TASK, "url": shop + "index.html"})).json()
            stopped = await http.post(f"/api/runs/{run['id']}/stop")  # its browser is still starting
            assert stopped.status_code == 200
            final = await finished(http, run["id"])
    assert final["status"] == "STOPPED"
    assert model.bodies == []  # stopped at its first safe point, before the model was asked


async def test_a_run_stopped_through_another_daemon_as_it_starts_ends_stopped(
    postgres_url: str, model_env: Callable[..., None], shop: str
) -> None:
    shared = config(postgres_url, redis_url=REDIS_URL)
    async with (
        OpenAIChatServer(shop_script()) as model,
        running_daemon(shared, TOKEN) as first,
        running_daemon(shared, TOKEN) as second,
    ):
        model_env(model)
        async with client(first.base_url) as http_first, client(second.base_url) as http_second:
            run = (await http_first.post("/api/runs", json={"task": SHOP_TASK, "url": shop + "index.html"})).json()
            await asyncio.sleep(0.2)
            assert (await http_second.post(f"/api/runs/{run['id']}/stop")).status_code == 200
            final = await finished(http_second, run["id"])
    assert final["status"] == "STOPPED"


async def test_a_run_takes_a_tab_id_as_a_number_and_may_have_no_url(
    database_url: str, model_env: Callable[..., None]
) -> None:
    async with OpenAIChatServer([]) as model, running_daemon(config(database_url), TOKEN) as daemon:
        model_env(model)
        async with client(daemon.base_url) as http:
            started = await http.post("/api/runs", json={"task": "Plan a trip", "tabId": 7})
            assert started.status_code == 202, started.text
            run = started.json()
            await http.post(f"/api/runs/{run['id']}/stop")
            final = await finished(http, run["id"])
            session = (await http.get("/api/session/latest")).json()["session"]
    assert (session["sessionId"], session["tabId"], session["url"], session["domain"]) == (
        run["sessionId"],
        "7",
        None,
        None,
    )
    # Times are written as the sessions' are.
    for time in (run["createdAt"], run["updatedAt"], final["updatedAt"], session["createdAt"]):
        assert time.endswith("Z") and "+00:00" not in time
