"""Runs: the daemon's own agent carries out a task on its own browser.

`POST /api/runs {task, url, model}` starts it and answers at once; the run's progress goes
to its session (messages, and `run_event`s on the session's WebSocket); `GET
/api/runs/{id}` reads it; `POST /api/runs/{id}/stop` stops it (STOPPED), through whichever
daemon the request reaches: the stop travels to the one running it over the push channel."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from pagelens.actions import Session
from pagelens.actions.session import SessionOptions
from pagelens.agent import Agent, AgentEvent, Limits, PlanUpdated, RunFinished, Skills, ToolFinished, ToolStarted
from pagelens.agent.toolset import NAVIGATION_TIMEOUT_S
from pagelens.errors import ErrorCode, PagelensError
from pagelens.server.conversation import add_message, publish, session_for
from pagelens.server.models import chat_model
from pagelens.server.state import Daemon, DaemonState
from pagelens.store import RunChanges, RunRecord

logger = logging.getLogger("pagelens.server")
router = APIRouter(tags=["runs"])

RunState = Literal["RUNNING", "COMPLETED", "FAILED", "STOPPED"]
# Where a stop for a run travels, whichever daemon runs it.
_CONTROL = "run-control:"
STOP_WAIT_S = 10.0  # a stopped run ends at its next safe point; beyond this it is cut


class RunRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str = Field(min_length=1, max_length=10_000, description="What the agent should do.")
    url: str | None = Field(None, max_length=8_000, description="Where to start.")
    model: str | None = Field(None, max_length=200, description='provider/model; default: the daemon\'s ("auto").')
    maxSteps: int = Field(30, ge=1, le=500)  # noqa: N815
    tabId: str | None = Field(None, max_length=100)  # noqa: N815


class RunView(BaseModel):
    id: str
    sessionId: str | None  # noqa: N815
    task: str
    url: str | None
    model: str | None
    status: str
    plan: Any = None
    result: str | None = None
    createdAt: str  # noqa: N815
    updatedAt: str  # noqa: N815

    @classmethod
    def of(cls, run: RunRecord) -> RunView:
        return cls(
            id=run.id,
            sessionId=run.session_id,
            task=run.task,
            url=run.url,
            model=run.model,
            status=run.status,
            plan=run.plan,
            result=run.result,
            createdAt=run.created_at.isoformat(),
            updatedAt=run.updated_at.isoformat(),
        )


@router.post("/api/runs", status_code=202)
async def start_run(request: RunRequest, state: DaemonState) -> RunView:
    """Start a run; it goes on after the answer. Watch it on its session's WebSocket."""
    model = chat_model(state, request.model)  # a bad model id fails here, before anything starts
    session = await session_for(state, tab_id=request.tabId, url=request.url or "", task=request.task)
    run = await state.store.runs.create(
        request.task, session_id=session.id, url=request.url, model=model.config.id, status="RUNNING"
    )
    await add_message(state, session.id, "user", request.task)
    agent = Agent(model=model, skills=Skills(state.store), limits=Limits(max_steps=request.maxSteps))
    worker = asyncio.ensure_future(_carry_out(state, run, agent))
    _running(state)[run.id] = (worker, agent)
    worker.add_done_callback(lambda _: _running(state).pop(run.id, None))
    return RunView.of(run)


@router.get("/api/runs/{run_id}")
async def get_run(run_id: str, state: DaemonState) -> RunView:
    return RunView.of(await _existing(state, run_id))


@router.post("/api/runs/{run_id}/stop")
async def stop_run(run_id: str, state: DaemonState) -> RunView:
    """Stop a run that is going (a run already ended is left as it is)."""
    run = await _existing(state, run_id)
    if run.status == "RUNNING":
        await state.broker.publish(_CONTROL + run_id, {"type": "stop"})
    return RunView.of(run)


async def _carry_out(state: Daemon, run: RunRecord, agent: Agent) -> None:
    """The run itself, on a browser of its own; whatever happens, the run ends with a status."""
    assert run.session_id is not None
    config = state.config
    try:
        async with (
            await Session.start(
                headless=config.headless,
                cdp_url=config.cdp_url,
                ws_endpoint=config.ws_endpoint,
                allowed_hosts=list(config.allowed_hosts) if config.allowed_hosts is not None else None,
                options=SessionOptions(navigation_timeout=NAVIGATION_TIMEOUT_S),
            ) as session,
            state.broker.subscribe(_CONTROL + run.id) as control,
        ):
            agent.session = session
            watcher = asyncio.ensure_future(_stop_on_request(control, agent))
            try:
                report = await agent.run(run.task, url=run.url, on_event=lambda e: _report(state, run, e))
            finally:
                watcher.cancel()
        changes = RunChanges(status=report.status, result=report.result or report.reason, plan=report.plan.model_dump())
    except Exception as exc:  # a browser that does not start, a store that fails: the run says so
        logger.exception("run %s failed", run.id)
        reason = exc.message if isinstance(exc, PagelensError) else f"{type(exc).__name__}: {exc}"
        changes = RunChanges(status="FAILED", result=reason)
        await add_message(state, run.session_id, "assistant", reason, status="failure", error=reason)
    await state.store.runs.update(run.id, changes)
    await publish(state, run.session_id, {"type": "run_finished", "runId": run.id, "status": changes.status})


async def _stop_on_request(control: Any, agent: Agent) -> None:
    async for event in control:
        if event.get("type") == "stop":
            agent.stop()
            return


async def _report(state: Daemon, run: RunRecord, event: AgentEvent) -> None:
    """Each step becomes a message of the session; the plan and the steps are pushed."""
    assert run.session_id is not None
    if isinstance(event, ToolStarted | PlanUpdated):
        payload = event.model_dump(mode="json")
        await publish(state, run.session_id, {"type": "run_event", "runId": run.id, "event": payload})
        if isinstance(event, PlanUpdated):
            await state.store.runs.update(run.id, RunChanges(plan=event.plan.model_dump(mode="json")))
    elif isinstance(event, ToolFinished):
        step = event.step
        await add_message(
            state,
            run.session_id,
            "assistant",
            event.observation,
            status="success" if step.ok else "failure",
            action_string=f"{step.tool}({', '.join(f'{k}={v!r}' for k, v in step.arguments.items())})",
            action_payload={"name": step.tool, "args": step.arguments},
            error=step.error,
        )
    elif isinstance(event, RunFinished):
        report = event.report
        text = report.result if report.status == "COMPLETED" else f"{report.status}: {report.reason}"
        await add_message(state, run.session_id, "assistant", text or report.status, status=report.status.lower())


def _running(state: Daemon) -> dict[str, tuple[asyncio.Future[None], Agent]]:
    running: dict[str, tuple[asyncio.Future[None], Agent]] = state.extras.setdefault("runs", {})
    return running


async def _existing(state: Daemon, run_id: str) -> RunRecord:
    run = await state.store.runs.get(run_id)
    if run is None or run.kind != "run":
        raise PagelensError(f"no run has the id {run_id!r}", code=ErrorCode.RECORD_NOT_FOUND)
    return run


async def stop_all(state: Daemon) -> None:
    """On shutdown: every run this daemon carries out stops (STOPPED) and is waited for."""
    running = list(_running(state).values())
    for _worker, agent in running:
        agent.stop()
    for worker, _agent in running:
        try:
            await asyncio.wait_for(asyncio.shield(worker), STOP_WAIT_S)
        except (TimeoutError, Exception):
            worker.cancel()
            with contextlib.suppress(BaseException):
                await worker
