"""Runs: the daemon's own agent carries out a task on its own browser.

`POST /api/runs {task, url, model}` starts it and answers at once; the run's progress goes
to its session (messages, and `run_event`s on the session's WebSocket); `GET
/api/runs/{id}` reads it, `GET /api/runs?sessionId=` lists a session's; `POST
/api/runs/{id}/stop` stops it (STOPPED) and `POST /api/runs/{id}/pick` answers its
question (questions.py), through whichever daemon the request reaches: both travel to the
one running it over the push channel. After each step the run's tab is shot (screens.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from pagelens.actions import Session
from pagelens.actions.session import SessionOptions
from pagelens.agent import Agent, AgentEvent, Limits, PlanUpdated, RunFinished, Skills, ToolFinished, ToolStarted
from pagelens.agent.toolset import NAVIGATION_TIMEOUT_S
from pagelens.errors import ErrorCode, PagelensError
from pagelens.server import screens
from pagelens.server.conversation import add_message, publish, session_for
from pagelens.server.errors import said
from pagelens.server.interact_models import TextId
from pagelens.server.limits import MAX_TASK, MAX_URL
from pagelens.server.models import chat_model
from pagelens.server.questions import PickRequest, Questions
from pagelens.server.state import Daemon, DaemonState
from pagelens.store import RunChanges, RunRecord

logger = logging.getLogger("pagelens.server")
router = APIRouter(tags=["runs"])

RunState = Literal["RUNNING", "COMPLETED", "FAILED", "STOPPED"]
# Where a stop for a run travels, whichever daemon runs it.
_CONTROL = "run-control:"
_STOP = {"type": "stop"}
# The result of a run found RUNNING with no daemon carrying it out.
ORPHANED = "no daemon was carrying it out: the one running it stopped without ending it"
STOP_WAIT_S = 10.0  # a stopped run ends at its next safe point; beyond this it is cut


class RunRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str = Field(min_length=1, max_length=MAX_TASK, description="What the agent should do.")
    url: str | None = Field(None, max_length=MAX_URL, description="Where to start.")
    model: str | None = Field(None, max_length=200, description='provider/model; default: the daemon\'s ("auto").')
    maxSteps: int = Field(30, ge=1, le=500)  # noqa: N815
    tabId: TextId | None = Field(None, max_length=100)  # noqa: N815


class RunView(BaseModel):
    id: str
    sessionId: str | None  # noqa: N815
    task: str
    url: str | None
    model: str | None
    status: str
    plan: Any = None
    result: str | None = None
    question: dict[str, Any] | None = None  # what the run asks its user now (questions.py)
    screen: dict[str, str] | None = None  # {url, title, hash} of its latest screenshot, kept here
    createdAt: datetime  # noqa: N815
    updatedAt: datetime  # noqa: N815

    @classmethod
    def of(cls, run: RunRecord, screen: screens.Screen | None = None) -> RunView:
        state = run.state if isinstance(run.state, dict) else {}
        return cls(
            question=state.get("question") if run.status == "RUNNING" else None,
            screen={"url": screen.url, "title": screen.title, "hash": screen.hash} if screen else None,
            id=run.id,
            sessionId=run.session_id,
            task=run.task,
            url=run.url,
            model=run.model,
            status=run.status,
            plan=run.plan,
            result=run.result,
            createdAt=run.created_at,
            updatedAt=run.updated_at,
        )


class RunPage(BaseModel):
    runs: list[RunView]


@router.post("/api/runs", status_code=202)
async def start_run(request: RunRequest, state: DaemonState) -> RunView:
    """Start a run; it goes on after the answer. Watch it on its session's WebSocket."""
    model = chat_model(state, request.model)  # a bad model id fails here, before anything starts
    session = await session_for(state, tab_id=request.tabId, url=request.url, task=request.task)
    run = await state.store.runs.create(
        request.task, session_id=session.id, url=request.url, model=model.config.id, status="RUNNING"
    )
    await add_message(state, session.id, "user", request.task)
    questions = Questions(state, run.id, session.id, headed=not state.config.headless)
    agent = Agent(
        model=model,
        skills=Skills(state.store),
        limits=Limits(max_steps=request.maxSteps),
        headless=state.config.headless,
        picker=questions.ask,
    )
    worker = asyncio.ensure_future(_carry_out(state, run, agent, questions))
    _running(state)[run.id] = (worker, agent)
    worker.add_done_callback(lambda _: _running(state).pop(run.id, None))
    return RunView.of(run)


@router.get("/api/runs")
async def list_runs(
    state: DaemonState,
    session_id: Annotated[str | None, Query(alias="sessionId", max_length=100)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
) -> RunPage:
    """Runs, the latest first; of one session with `sessionId` (its current run first)."""
    runs = await state.store.runs.list(session_id=session_id, kind="run", limit=limit)
    return RunPage(runs=[RunView.of(run, screens.latest(state, run.id)) for run in runs])


@router.get("/api/runs/{run_id}")
async def get_run(run_id: str, state: DaemonState) -> RunView:
    return RunView.of(await _existing(state, run_id), screens.latest(state, run_id))


@router.post("/api/runs/{run_id}/stop")
async def stop_run(run_id: str, state: DaemonState) -> RunView:
    """Stop a run that is going (a run already ended is left as it is): directly when this
    daemon carries it out, else through the control channel of the one that does."""
    run = await _existing(state, run_id)
    if run.status != "RUNNING":
        return RunView.of(run)
    if run_id in _running(state):
        _running(state)[run_id][1].stop()
    elif not await state.broker.publish(_CONTROL + run_id, _STOP):
        run = await _end_orphan(state, run)
    return RunView.of(run)


async def _end_orphan(state: Daemon, run: RunRecord) -> RunRecord:
    """A run that nobody listens for: its daemon was killed or crashed before it could end
    it, and it would say RUNNING for ever. It ends STOPPED here. The stop is sent once
    more after the write: a daemon just starting the run (subscribed since the first
    send) gets it, or reads STOPPED once subscribed (_carry_out)."""
    ended = await state.store.runs.update(run.id, RunChanges(status="STOPPED", result=ORPHANED))
    await state.broker.publish(_CONTROL + run.id, _STOP)
    if run.session_id is not None:
        await publish(state, run.session_id, {"type": "run_finished", "runId": run.id, "status": "STOPPED"})
    return ended


@router.post("/api/runs/{run_id}/pick", status_code=202)
async def pick(run_id: str, request: PickRequest, state: DaemonState) -> RunView:
    """Answer the run's question with the point the person clicked on its screenshot (or
    their cancel); the agent gets the element there."""
    run = await _existing(state, run_id)
    question = run.state.get("question") if run.status == "RUNNING" and isinstance(run.state, dict) else None
    if not question or question.get("id") != request.questionId:
        raise PagelensError(
            f"the run {run_id!r} is not waiting for an answer to {request.questionId!r}",
            code=ErrorCode.RECORD_NOT_FOUND,
        )
    await state.broker.publish(_CONTROL + run_id, {"type": "pick", **request.model_dump(mode="json")})
    return RunView.of(run)


async def _carry_out(state: Daemon, run: RunRecord, agent: Agent, questions: Questions) -> None:
    """The run itself, on a browser of its own; whatever happens, the run ends with a status.
    Its control channel is listened to before the browser starts (which takes seconds): a
    stop sent meanwhile ends the run at its first safe point."""
    assert run.session_id is not None
    config = state.config
    try:
        async with state.broker.subscribe(_CONTROL + run.id) as control:
            watcher = asyncio.ensure_future(_follow(control, agent, questions))
            if await _stopped_elsewhere(state, run.id):
                agent.stop()
            try:
                async with await Session.start(
                    headless=config.headless,
                    browser=config.browser,
                    cdp_url=config.cdp_url,
                    ws_endpoint=config.ws_endpoint,
                    allowed_hosts=list(config.allowed_hosts) if config.allowed_hosts is not None else None,
                    options=SessionOptions(navigation_timeout=NAVIGATION_TIMEOUT_S),
                ) as session:
                    agent.session = session
                    thoughts: dict[int, str] = {}
                    report = await agent.run(
                        run.task, url=run.url, on_event=lambda e: _report(state, run, session, thoughts, e)
                    )
            finally:
                watcher.cancel()
        changes = RunChanges(status=report.status, result=report.result or report.reason, plan=report.plan.model_dump())
    except Exception as exc:  # a browser that does not start, a store that fails: the run says so
        logger.exception("run %s failed", run.id)
        reason = said(exc) if isinstance(exc, PagelensError) else f"{type(exc).__name__}: {exc}"
        changes = RunChanges(status="FAILED", result=reason)
        await add_message(state, run.session_id, "assistant", reason, status="failure", error=reason)
    await state.store.runs.update(run.id, changes)
    await publish(state, run.session_id, {"type": "run_finished", "runId": run.id, "status": changes.status})


async def _follow(control: Any, agent: Agent, questions: Questions) -> None:
    """What comes for the run over its control channel: a stop, an answer to its question."""
    async for event in control:
        if event.get("type") == "stop":
            agent.stop()
            return
        if event.get("type") == "pick":
            questions.answer(event)


async def _report(state: Daemon, run: RunRecord, session: Session, thoughts: dict[int, str], event: AgentEvent) -> None:
    """Each step becomes a message of the session (the model's thought before it in
    `metadata.thought`) and a screenshot of its tab; the plan and the steps are pushed."""
    assert run.session_id is not None
    if isinstance(event, ToolStarted | PlanUpdated):
        if isinstance(event, ToolStarted) and event.thought:
            thoughts[event.index] = event.thought
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
            metadata={"thought": thoughts.pop(step.index)} if step.index in thoughts else None,
        )
        try:
            page = await session.page()
        except Exception:  # the browser went away: the next step tells the model
            logger.warning("no page to shoot for run %s", run.id, exc_info=True)
        else:
            await screens.capture(state, run.id, run.session_id, page)
    elif isinstance(event, RunFinished):
        report = event.report
        text = report.result if report.status == "COMPLETED" else f"{report.status}: {report.reason}"
        await add_message(state, run.session_id, "assistant", text or report.status, status=report.status.lower())


async def _stopped_elsewhere(state: Daemon, run_id: str) -> bool:
    """Whether another daemon ended the run before this one listened for its stop
    (_end_orphan): a stop sent in the instant between the start's answer and then."""
    run = await state.store.runs.get(run_id)
    return run is None or run.status != "RUNNING"


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
        agent.stop("the daemon shut down")
    for worker, _agent in running:
        try:
            await asyncio.wait_for(asyncio.shield(worker), STOP_WAIT_S)
        except (TimeoutError, Exception):
            worker.cancel()
            with contextlib.suppress(BaseException):
                await worker
