"""Interact tasks in the store: each a `runs` row of kind "interact" whose `state` JSON
holds the brain between calls and the page its pending action was decided on. Any daemon
on the same database carries a task on."""

from __future__ import annotations

from pydantic import BaseModel

from pagelens.agent.step import StepState
from pagelens.errors import ErrorCode, PagelensError
from pagelens.server.verify import PageMark
from pagelens.store import RunChanges, RunRecord
from pagelens.store.runs import RunRepository

KIND = "interact"
ENDED = frozenset({"completed", "failed"})


class SavedTask(BaseModel):
    """A task's `state` JSON."""

    step: StepState
    mark: PageMark | None = None  # set while an action is out with the client


async def read_task(runs: RunRepository, task_id: str) -> tuple[RunRecord, SavedTask | None]:
    """The task's run and its saved state (None before its first decision). A task that
    never began, or has ended, is a 404 `task_not_found`."""
    run = await runs.get(task_id)
    if run is None or run.kind != KIND or run.status in ENDED:
        raise PagelensError(f"no task in progress has the taskId {task_id!r}", code=ErrorCode.TASK_NOT_FOUND)
    return run, None if run.state is None else SavedTask.model_validate(run.state)


class RunStates:
    """The Stepper's TaskStates over the run's `state`. The route has already read the
    task (to know it exists and to judge its last action), so `load` gives back that
    reading; `save` keeps the page this call brought, which the pending action is about
    to change. Nothing is written here: the route writes `changes` with the rest of the
    step, in one transaction that the model's answer is not waited for in."""

    def __init__(self, *, loaded: StepState | None, url: str, fingerprint: str) -> None:
        self._loaded = loaded
        self._url = url
        self._fingerprint = fingerprint
        self.changes = RunChanges()  # the `state` to write, once saved or dropped

    async def load(self, task_id: str) -> StepState | None:
        return self._loaded

    async def save(self, task_id: str, state: StepState) -> None:
        plan = state.brain.plan
        mark = None
        if state.pending is not None:
            step = plan.currentStepIndex if plan.steps else None
            mark = PageMark(url=self._url, fingerprint=self._fingerprint, stepIndex=step)
        self.changes = RunChanges(state=SavedTask(step=state, mark=mark).model_dump(mode="json"))

    async def drop(self, task_id: str) -> None:
        self.changes = RunChanges(state=None)
