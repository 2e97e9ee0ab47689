"""The daemon when calls meet: two interact calls on one task (on one daemon, and on two
daemons over one PostgreSQL and Redis), a step's lease on its task (renewed while it
runs, run out when its daemon died, lost to a call that took the task over), the
WebSocket of a session that does not exist, and bodies that cannot be parsed. Real
SQLite and PostgreSQL, and a scripted model on the OpenAI wire that a test holds back."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx2 as httpx
import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from pagelens.errors import ErrorCode
from pagelens.server import tasks
from pagelens.server.config import ServerConfig
from pagelens.server.sessions import NO_SESSION_CLOSE
from pagelens.store import Store
from pagelens.store.runs import RunRepository
from pagelens.store.schema import RunRow
from tests.agent_script import call
from tests.llm_servers import OpenAIChatServer
from tests.llm_servers.script import Fail, Reply
from tests.server_support import MODEL, TOKEN, DaemonClient, daemon_client, running_daemon

pytest_plugins = ["tests.store_support", "tests.server_support"]

REDIS_URL = "redis://127.0.0.1:6379/0"
START = "https://www.google.com/"
TREE = [{"i": "13", "r": "srch", "n": "Search"}, {"i": "15", "r": "btn", "n": "Google Search"}]
DEFAULT_MODEL_TIMEOUT_S = 120.0  # ModelConfig's, which the scripted model keeps


class Gate:
    """A model turn that waits to be let through: `arrived` once the model is asked,
    then the reply once `open()` is called."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.arrived = asyncio.Event()
        self._open = asyncio.Event()

    async def __call__(self, body: dict[str, Any]) -> Reply:
        self.arrived.set()
        await self._open.wait()
        return self.reply

    def open(self) -> None:
        self._open.set()


def _body(**fields: Any) -> dict[str, Any]:
    return {"url": START, "query": "Search for SpaceX", "interactiveTree": TREE, **fields}


async def _ok(http: httpx.AsyncClient, **fields: Any) -> dict[str, Any]:
    response = await http.post("/api/agent/interact", json=_body(**fields))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


@contextlib.asynccontextmanager
async def _step_under_way(
    http: httpx.AsyncClient, task_id: str, gate: Gate
) -> AsyncIterator[asyncio.Task[httpx.Response]]:
    """A call on the task whose model is held back by `gate`: yielded once the model is
    asked (the step is under way), awaited after the gate is opened on leaving."""
    step = asyncio.create_task(http.post("/api/agent/interact", json=_body(taskId=task_id)))
    try:
        await asyncio.wait_for(gate.arrived.wait(), 60)
        yield step
    finally:
        gate.open()
        await step


async def _set_lease(database_url: str, task_id: str, holder: str, until: datetime) -> None:
    """The task's lease as another call (on a daemon since killed) left it."""
    engine = create_async_engine(database_url)
    try:
        async with engine.begin() as connection:
            lease = {RunRow.lease_holder: holder, RunRow.leased_until: until}
            await connection.execute(update(RunRow).where(RunRow.id == task_id).values(lease))
    finally:
        await engine.dispose()


async def _leased_until(database_url: str, task_id: str) -> datetime | None:
    """The end of the task's lease (aware, in UTC, as the column's type reads it)."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            until: datetime | None = (
                await connection.execute(select(RunRow.leased_until).where(RunRow.id == task_id))
            ).scalar_one()
    finally:
        await engine.dispose()
    return until


def _is_busy(response: httpx.Response, *words: str) -> bool:
    answer = response.json()
    return (
        response.status_code == 409
        and (answer["success"], answer["error"]) == (False, ErrorCode.TASK_BUSY)
        and all(word in answer["message"] for word in words)
    )


def _typing(text: str) -> Reply:
    return call("interact", f"Typing {text}.", action="type", element_id="13", text=text)


async def _steps_stored(database_url: str, session_id: str) -> list[str | None]:
    async with await Store.open(database_url) as store:
        return [m.action_string for m in await store.messages.list(session_id)]


# Two calls on one task


async def test_a_call_on_a_task_whose_step_is_under_way_is_409(
    daemon: DaemonClient, model_env: Callable[..., None], database_url: str
) -> None:
    gate = Gate(call("interact", "Now the button.", action="click", element_id="15"))
    async with OpenAIChatServer([_typing("spacex"), gate, call("finish", result="done")]) as model:
        model_env(model)
        async with daemon() as http:
            first = await _ok(http)
            async with _step_under_way(http, first["taskId"], gate) as step:
                again = await http.post("/api/agent/interact", json=_body(taskId=first["taskId"]))
            finished = await _ok(http, taskId=first["taskId"])  # the step ended: its lease with it
    assert _is_busy(again, first["taskId"], "under way"), again.text
    assert step.result().status_code == 200 and step.result().json()["data"]["action"] == "click(15)"
    assert finished["status"] == "completed"
    assert len(model.requests) == 3  # the refused call never asked the model
    # One answer per step: the task did not fork.
    assert await _steps_stored(database_url, first["sessionId"]) == [None, 'type(13, "•••")', "click(15)", "finish()"]


async def test_the_lease_holds_across_two_daemons(postgres_url: str, model_env: Callable[..., None]) -> None:
    config = ServerConfig(database_url=postgres_url, model=MODEL, redis_url=REDIS_URL)
    gate = Gate(call("interact", "Now the button.", action="click", element_id="15"))
    async with OpenAIChatServer([_typing("spacex"), gate]) as model:
        model_env(model)
        async with daemon_client(config) as first_daemon, daemon_client(config) as second_daemon:
            first = await _ok(first_daemon)
            async with _step_under_way(first_daemon, first["taskId"], gate):
                elsewhere = await second_daemon.post("/api/agent/interact", json=_body(taskId=first["taskId"]))
    assert _is_busy(elsewhere, first["taskId"]), elsewhere.text
    assert await _steps_stored(postgres_url, first["sessionId"]) == [None, 'type(13, "•••")', "click(15)"]


async def test_a_step_that_fails_lets_go_of_its_task(daemon: DaemonClient, model_env: Callable[..., None]) -> None:
    async with OpenAIChatServer([_typing("spacex"), Fail(400), call("finish", result="done")]) as model:
        model_env(model)
        async with daemon() as http:
            first = await _ok(http)
            failed = await http.post("/api/agent/interact", json=_body(taskId=first["taskId"]))
            finished = await _ok(http, taskId=first["taskId"])
    assert failed.status_code == 502 and failed.json()["error"] == ErrorCode.MODEL_BAD_REQUEST
    assert finished["status"] == "completed"


# The lease's time


async def test_a_live_step_holds_its_task_past_the_model_timeout_and_renews_it(
    daemon: DaemonClient, model_env: Callable[..., None], database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tasks, "RENEW_EVERY_S", 0.05)
    renewals = asyncio.Event()
    renew = RunRepository.renew

    async def counted(self: RunRepository, *args: Any, **kwargs: Any) -> bool:
        renewed = await renew(self, *args, **kwargs)
        renewals.set()
        return renewed

    monkeypatch.setattr(RunRepository, "renew", counted)
    gate = Gate(call("finish", result="done"))
    async with OpenAIChatServer([_typing("spacex"), gate]) as model:
        model_env(model)
        async with daemon() as http:
            first = await _ok(http)
            asked_at = datetime.now(UTC)
            async with _step_under_way(http, first["taskId"], gate):
                leased = await _leased_until(database_url, first["taskId"])
                renewals.clear()
                await asyncio.wait_for(renewals.wait(), 60)
                renewed = await _leased_until(database_url, first["taskId"])
    assert leased is not None and leased >= asked_at + timedelta(seconds=DEFAULT_MODEL_TIMEOUT_S)
    assert renewed is not None and renewed > leased
    assert await _leased_until(database_url, first["taskId"]) is None  # the step wrote, and let go


async def test_the_lease_of_a_daemon_that_died_runs_out(
    daemon: DaemonClient, model_env: Callable[..., None], database_url: str
) -> None:
    now = datetime.now(UTC)
    async with OpenAIChatServer([_typing("spacex"), call("finish", result="done")]) as model:
        model_env(model)
        async with daemon() as http:
            first = await _ok(http)
            await _set_lease(database_url, first["taskId"], "a-killed-daemon", now + timedelta(hours=1))
            held = await http.post("/api/agent/interact", json=_body(taskId=first["taskId"]))
            await _set_lease(database_url, first["taskId"], "a-killed-daemon", now - timedelta(seconds=1))
            taken_over = await _ok(http, taskId=first["taskId"])
    assert _is_busy(held), held.text
    assert taken_over["status"] == "completed"


async def test_a_step_that_outlasted_its_lease_is_not_kept(
    daemon: DaemonClient, model_env: Callable[..., None], database_url: str
) -> None:
    gate = Gate(call("interact", "Now the button.", action="click", element_id="15"))
    async with OpenAIChatServer([_typing("spacex"), gate, call("finish", result="done")]) as model:
        model_env(model)
        async with daemon() as http:
            first = await _ok(http)
            async with _step_under_way(http, first["taskId"], gate) as late:
                # Its lease ran out (as if its daemon had stalled) and another call took the task.
                past = datetime.now(UTC) - timedelta(seconds=1)
                await _set_lease(database_url, first["taskId"], "an-expired-holder", past)
                taken_over = await _ok(http, taskId=first["taskId"])
    assert taken_over["status"] == "completed"
    assert _is_busy(late.result(), "outlasted its lease"), late.result().text
    assert await _steps_stored(database_url, first["sessionId"]) == [None, 'type(13, "•••")', "finish()"]


# The WebSocket of no session


async def test_a_websocket_for_no_session_is_closed_saying_so(database_url: str) -> None:
    async with running_daemon(ServerConfig(database_url=database_url), TOKEN) as daemon:
        url = daemon.ws_url(f"/api/session/no-such-session/ws?token={TOKEN}")
        async with connect(url) as websocket:
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(websocket.recv(), 30)
    assert websocket.close_code == NO_SESSION_CLOSE == 4404
    assert websocket.close_reason == "record_not_found: no session has that id"


# Bodies that cannot be parsed


NESTED = "the body is not JSON the daemon can read: its arrays and objects are nested too deeply"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"query": "caf\xe9"}', "the body is not UTF-8: invalid continuation byte at byte 14"),  # latin-1
        (b"[" * 100_000 + b"]" * 100_000, NESTED),
        (b'{"url": ', "the body is not valid JSON: Expecting value at position 8"),
    ],
    ids=["latin-1", "nested", "cut"],
)
async def test_a_body_that_does_not_parse_says_what_is_wrong(daemon: DaemonClient, body: bytes, message: str) -> None:
    async with daemon() as http:
        response = await http.post("/api/agent/interact", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json() == {"success": False, "error": ErrorCode.INVALID_REQUEST, "message": message}
