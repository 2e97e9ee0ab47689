"""Interact tasks in the store: each a `runs` row of kind "interact" whose `state` JSON
holds the brain between calls and the page its pending action was decided on. Any daemon
on the same database carries a task on; while a call's step is under way, the task is
leased to that call (StepLease), so that a second call cannot fork it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

from pydantic import BaseModel

from pagelens.agent.step import StepState
from pagelens.errors import ErrorCode, PagelensError
from pagelens.server.verify import PageMark
from pagelens.store import RunChanges, RunRecord, StoreError
from pagelens.store.runs import RunRepository
from pagelens.store.schema import new_id, utcnow

logger = logging.getLogger("pagelens.server")

KIND = "interact"
ENDED = frozenset({"completed", "failed"})
# A step holds its task for the model's timeout (the longest it waits on the model without
# a word) and this margin, renewed every RENEW_EVERY_S while it runs: a slow step keeps its
# task however many model calls it makes, and one whose daemon was killed frees it once
# the lease runs out (docs/server-agent.md).
LEASE_MARGIN_S = 30.0
RENEW_EVERY_S = 10.0


class SavedTask(BaseModel):
    """A task's `state` JSON."""

    step: StepState
    mark: PageMark | None = None  # set while an action is out with the client


class TaskBusyError(PagelensError):
    """A call on a task whose step is under way (409): it would fork the task's state."""

    code = ErrorCode.TASK_BUSY


async def read_task(runs: RunRepository, task_id: str) -> tuple[RunRecord, SavedTask | None]:
    """The task's run and its saved state (None before its first decision). A task that
    never began, or has ended, is a 404 `task_not_found`."""
    return _in_progress(await runs.get(task_id), task_id)


def _in_progress(run: RunRecord | None, task_id: str) -> tuple[RunRecord, SavedTask | None]:
    if run is None or run.kind != KIND or run.status in ENDED:
        raise PagelensError(f"no task in progress has the taskId {task_id!r}", code=ErrorCode.TASK_NOT_FOUND)
    return run, None if run.state is None else SavedTask.model_validate(run.state)


class StepLease:
    """One call's hold on its task while its step is under way, in the task's row, so that
    it holds across daemons: `claim` the task, keep it (`held`) while the model thinks,
    then `write` the step, which lets it go."""

    def __init__(self, runs: RunRepository, model_timeout: float) -> None:
        self._runs = runs
        self._holder = new_id()
        self._seconds = model_timeout + LEASE_MARGIN_S
        self._task_id = ""

    async def claim(self, task_id: str) -> tuple[RunRecord, SavedTask | None]:
        """The task and its saved state, leased to this call: `task_not_found` as
        read_task, 409 `task_busy` while another call holds it. Inside `store.atomic()`,
        so that a claim of what is no task in progress is rolled back with the 404."""
        claimed = await self._runs.claim(task_id, self._holder, until=self._until())
        found = _in_progress(claimed or await self._runs.get(task_id), task_id)
        if claimed is None:
            raise TaskBusyError(
                f"a step of the task {task_id!r} is under way: another call on it has not been answered yet "
                "(send the next call once it is)"
            )
        self._task_id = task_id
        return found

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        """The lease renewed while the block runs; let go when it fails (a no-op when the
        failure was written with `write`, which let go already)."""
        stop = asyncio.Event()
        renewing = asyncio.create_task(self._renew(stop))
        try:
            yield
        except BaseException:
            await self._let_go()
            raise
        finally:
            stop.set()
            await renewing

    async def write(self, changes: RunChanges) -> RunRecord:
        """The step's changes to the task, ending the lease; `task_busy` when the lease ran
        out and another call took the task over, whose step is then the one kept."""
        written = await self._runs.release(self._task_id, self._holder, changes)
        if written is None:
            raise TaskBusyError(
                f"the step of the task {self._task_id!r} outlasted its lease and another call took the task "
                "over: this step's answer was not kept"
            )
        return written

    def _until(self) -> datetime:
        return utcnow() + timedelta(seconds=self._seconds)

    async def _renew(self, stop: asyncio.Event) -> None:
        while not await _stopped(stop, RENEW_EVERY_S):
            try:
                if not await self._runs.renew(self._task_id, self._holder, until=self._until()):
                    return  # taken over: `write` says so
            except StoreError:  # the next renewal may pass; the lease has time left
                logger.warning("could not renew the lease on task %s", self._task_id, exc_info=True)

    async def _let_go(self) -> None:
        # Best effort: if the store fails too, the lease runs out on its own.
        try:
            await self._runs.release(self._task_id, self._holder, RunChanges())
        except StoreError:
            logger.warning("could not let go of task %s", self._task_id, exc_info=True)


async def _stopped(stop: asyncio.Event, seconds: float) -> bool:
    """Whether `stop` is set within `seconds`."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()


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
