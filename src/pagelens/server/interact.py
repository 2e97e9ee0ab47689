"""`POST /api/agent/interact`: the step API for a client that carries out the actions
itself (the browser extension). Each call brings the page after the last action and gets
the next one, with the plan and the task's status (docs/server-agent.md)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter

from pagelens.agent.secrets import MASK
from pagelens.agent.step import Decision, PageState, Stepper
from pagelens.errors import PagelensError
from pagelens.server.conversation import publish, session_for, writing
from pagelens.server.interact_models import InteractBody, InteractData, InteractResponse, check_limits
from pagelens.server.models import chat_model
from pagelens.server.page import fingerprint, needs_context, page_view
from pagelens.server.state import Daemon, DaemonState
from pagelens.server.tasks import ENDED, KIND, RunStates, SavedTask, StepLease, read_task
from pagelens.server.verify import judge
from pagelens.store import RunRecord

router = APIRouter(tags=["agent"])

# What the client says of its last action, passed on to the model beside the verdict.
_CLIENT_REPORT: set[str] = {
    "lastActionStatus",
    "lastActionError",
    "lastActionResult",
    "previousUrl",
    "clientObservations",
    "clientVerification",
    "verification_passed",
    "verification_message",
}
# What the client is to type: its answer carries it, but the session (stored, listed and
# pushed to every watcher) shows it as a run's steps do (docs/privacy.md).
_TYPED = ("text", "value")


@router.post("/api/agent/interact", response_model=InteractResponse)
async def interact(body: InteractBody, state: DaemonState) -> InteractResponse:
    """The next action of the task `taskId` (a new task without it). When the page as sent
    is not enough, `data.status` is `needs_context` and the model is not asked. A call
    on a task whose step is under way (another call on it not yet answered) is a 409
    `task_busy`: the task is leased to the call that began the step.

    The store is written twice a call, never while the model thinks: before (the lease,
    a new task, or the session following the tab) and after (the decision and its
    message, ending the lease)."""
    check_limits(body)
    if body.taskId:
        # An unknown task is a 404 whatever else is wrong (no model): the lease, which
        # needs the model's timeout, is taken below.
        await read_task(state.store.runs, body.taskId)
    asked = needs_context(body)
    if asked is not None:
        return InteractResponse(data=asked)
    model = chat_model(state, body.model)
    lease = StepLease(state.store.runs, model.config.timeout)
    page = PageState(url=body.url, title=body.pageTitle or body.title or "", view=page_view(body))
    shown = fingerprint(body)
    if body.taskId:
        run, saved = await _go_on(state, body.taskId, body.url, lease)
    else:
        run, saved = await _begin(state, body, lease, model.config.id)
    if saved is not None:
        page.result = _verify(saved, body, shown)
    assert run.session_id is not None, "an interact task always has its session"
    states = RunStates(loaded=saved.step if saved else None, url=body.url, fingerprint=shown)
    async with lease.held():
        try:
            decision = await Stepper(model, states=states).decide(run.id, run.task, page)
        except PagelensError as exc:
            # What the Stepper kept of the task; and a new task, whose taskId the client
            # never learnt, cannot go on.
            failed = {"status": "failed", "result": exc.message} if body.taskId is None else {}
            await lease.write(states.changes.model_copy(update=failed))
            raise
        kept = _without_typed(decision)
        async with writing(state) as writes:
            await lease.write(states.changes.model_copy(update=_run_changes(decision)))
            await writes.add_message(
                run.session_id,
                "assistant",
                kept.thought,
                action_string=kept.action,
                action_payload=kept.actionDetails.model_dump(mode="json"),
                metadata={"taskId": run.id, "status": decision.status},
            )
    event = {"type": "interact_response", "taskId": run.id, "status": decision.status, "action": kept.action}
    await publish(state, run.session_id, event)
    return InteractResponse(
        data=InteractData(
            **decision.model_dump(),
            currentStep=decision.plan.currentStepIndex,
            totalSteps=len(decision.plan.steps),
            sessionId=run.session_id,
        )
    )


async def _go_on(state: Daemon, task_id: str, url: str, lease: StepLease) -> tuple[RunRecord, SavedTask | None]:
    """The task, leased to this call, its session following the tab to `url`."""
    async with state.store.atomic():
        run, saved = await lease.claim(task_id)
        assert run.session_id is not None, "an interact task always has its session"
        await session_for(state, session_id=run.session_id, url=url, task=run.task)
    return run, saved


async def _begin(state: Daemon, body: InteractBody, lease: StepLease, model_id: str) -> tuple[RunRecord, None]:
    """A new task, leased to this call, in the session named or the tab's, with the query
    as its first message."""
    async with writing(state) as writes:
        session = await session_for(state, session_id=body.sessionId, tab_id=body.tabId, url=body.url, task=body.query)
        created = await state.store.runs.create(
            body.query, session_id=session.id, url=body.url, model=model_id, status="running", kind=KIND
        )
        run, _ = await lease.claim(created.id)
        await writes.add_message(session.id, "user", body.query)
    return run, None


def _verify(saved: SavedTask, body: InteractBody, shown: str) -> dict[str, Any] | None:
    """The verdict on the action the client carried out, settling the plan step it was
    for; what the model reads as that action's result."""
    if saved.mark is None:
        return None
    verdict = judge(saved.mark, body, shown)
    if saved.mark.stepIndex is not None:
        saved.step.brain.plan.settle(
            saved.mark.stepIndex, succeeded=verdict.verdict == "completed", outcome=verdict.reason
        )
    return {"verification": verdict.model_dump(), **body.model_dump(include=_CLIENT_REPORT, exclude_none=True)}


def _without_typed(decision: Decision) -> Decision:
    """The decision as the session keeps it: what the action types is hidden, in its
    details and in the action's text (where each argument is a JSON literal)."""
    args = decision.actionDetails.args
    typed = {name: value for name, value in args.items() if name in _TYPED and isinstance(value, str) and value}
    if not typed or decision.status in ENDED:
        return decision
    action = decision.action
    for value in typed.values():
        action = action.replace(json.dumps(value, ensure_ascii=False), json.dumps(MASK, ensure_ascii=False))
    hidden = {**args, **dict.fromkeys(typed, MASK)}
    details = decision.actionDetails.model_copy(update={"args": hidden})
    return decision.model_copy(update={"action": action, "actionDetails": details})


def _run_changes(decision: Decision) -> dict[str, Any]:
    """The run as the decision leaves it: its plan, and its end with finish() or fail()."""
    plan = decision.plan.model_dump(mode="json")
    if decision.status not in ENDED:
        return {"plan": plan}
    args = decision.actionDetails.args
    return {"plan": plan, "status": decision.status, "result": str(args.get("result") or args.get("reason") or "")}
