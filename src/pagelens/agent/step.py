"""The step API: the same brain as the in-process loop, for a client that carries out
the actions itself (a browser extension, the daemon's `/api/agent/interact`).

Each call brings the page as the client sees it after its last action; the answer is the
next action, the plan and the status:

    stepper = Stepper(model)          # states: MemoryStates(), or the daemon's store
    decision = await stepper.decide(task_id, task, PageState(url=..., title=..., view=semantic_json))
    decision.action          # "click(42)", "finish()", ...
    decision.actionDetails   # {name, elementId, selectorPath, args}
"""

from __future__ import annotations

import json
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from pagelens.agent.brain import Brain, BrainState
from pagelens.agent.history import DEFAULT_REQUEST_BUDGET
from pagelens.agent.llm.base import ChatModel
from pagelens.agent.llm.messages import ToolCall
from pagelens.agent.plan import Plan
from pagelens.agent.toolset import TOOLS, ToolOutput, set_plan
from pagelens.engine.roles import SHORT_ROLE
from pagelens.errors import ErrorCode, PagelensError

# What a client can carry out; the plan is kept here, finish and fail end the task.
STEP_TOOLS = ("plan", "navigate", "interact", "finish", "fail")
MAX_PLAN_CALLS = 3  # plan updates in a row before the model must act
StepStatus = Literal["planning", "executing", "completed", "failed"]


class PageState(BaseModel):
    """The page after the client's last action, and what that action did."""

    url: str
    title: str = ""
    view: dict[str, Any] | None = Field(None, description="Any view of the page (semantic, summary, ...), as JSON.")
    result: dict[str, Any] | None = Field(None, description="The last action's result or observations, as JSON.")


class ActionDetails(BaseModel):
    name: str
    elementId: str | None = None  # noqa: N815
    selectorPath: str | None = None  # noqa: N815
    args: dict[str, Any] = Field(default_factory=dict)


class Decision(BaseModel):
    thought: str
    action: str
    actionDetails: ActionDetails  # noqa: N815
    plan: Plan
    status: StepStatus
    taskId: str  # noqa: N815


class StepState(BaseModel):
    """A task between two calls: the brain, and the action the client is carrying out."""

    brain: BrainState
    pending: ToolCall | None = None


class TaskStates(Protocol):
    """Where tasks wait between calls: memory for one process, the store for daemons that
    share the work (a task may come back to another daemon)."""

    async def load(self, task_id: str) -> StepState | None: ...
    async def save(self, task_id: str, state: StepState) -> None: ...
    async def drop(self, task_id: str) -> None: ...


class MemoryStates:
    def __init__(self) -> None:
        self._states: dict[str, str] = {}

    async def load(self, task_id: str) -> StepState | None:
        saved = self._states.get(task_id)
        return None if saved is None else StepState.model_validate_json(saved)

    async def save(self, task_id: str, state: StepState) -> None:
        self._states[task_id] = state.model_dump_json()

    async def drop(self, task_id: str) -> None:
        self._states.pop(task_id, None)


class Stepper:
    """Decides each next step of a task, keeping the task's state in `states` between calls."""

    def __init__(
        self, model: ChatModel, *, states: TaskStates | None = None, request_budget: int = DEFAULT_REQUEST_BUDGET
    ) -> None:
        self.model = model
        self.states = states or MemoryStates()
        self.request_budget = request_budget
        self.tools = [TOOLS[name].definition() for name in STEP_TOOLS]

    async def decide(self, task_id: str, task: str, page: PageState) -> Decision:
        saved = await self.states.load(task_id)
        if saved is None:
            brain = Brain(self.model, task, page.url, self.tools, request_budget=self.request_budget)
            brain.record_call(opening := ToolCall(id="page", name="navigate", arguments={"url": page.url}))
            brain.observe(opening, {"finalUrl": page.url, "title": page.title, "page": page.view})
        else:
            brain = Brain.restore(self.model, saved.brain, self.tools, request_budget=self.request_budget)
            if saved.pending is not None:  # the client carried it out: its outcome is the result
                page_data = {"url": page.url, "title": page.title, "result": page.result, "page": page.view}
                brain.observe(saved.pending, page_data)
        thought = ""
        for _ in range(MAX_PLAN_CALLS + 1):
            completion = await brain.think()
            thought = completion.text.strip() or thought
            call = completion.tool_calls[0] if completion.tool_calls else None
            if call is None:
                brain.nudge()
                continue
            for extra in completion.tool_calls[1:]:  # one action per step: the rest is not run
                brain.observe(extra, {"success": False, "message": "one action per step: this call was not run"})
            if call.name == "plan":
                brain.observe(call, _run_plan(brain, call).data)
                continue
            if call.name not in STEP_TOOLS:
                unknown = {"success": False, "error": ErrorCode.UNKNOWN_TOOL, "message": f"use one of {STEP_TOOLS}"}
                brain.observe(call, unknown)
                continue
            decision = self._decision(task_id, brain, call, thought, page)
            if decision.status in ("completed", "failed"):
                await self.states.drop(task_id)
            else:
                await self.states.save(task_id, StepState(brain=brain.state(), pending=call))
            return decision
        await self.states.save(task_id, StepState(brain=brain.state()))
        raise PagelensError("the model did not choose an action", code=ErrorCode.NO_TOOL_CALL)

    @staticmethod
    def _decision(task_id: str, brain: Brain, call: ToolCall, thought: str, page: PageState) -> Decision:
        args = dict(call.arguments)
        status: StepStatus = "executing"
        if call.name in ("finish", "fail"):
            brain.plan.finish(succeeded=call.name == "finish", outcome=str(args.get("result") or args.get("reason")))
            status = "completed" if call.name == "finish" else "failed"
            action = f"{call.name}()"
            details = ActionDetails(name=call.name, args=args)
        else:
            brain.plan.start_step()
            name = str(args.pop("action", call.name))
            element = args.pop("element_id", None)
            shown = [str(element)] if element is not None else []
            shown += [_literal(value) for value in args.values()]
            action = f"{name}({', '.join(shown)})"
            selector = args.get("selector") or (_selector_of(page.view, str(element)) if element else None)
            details = ActionDetails(name=name, elementId=element, selectorPath=selector, args=args)
        if not brain.plan.steps:
            status = "planning" if status == "executing" else status
        return Decision(
            thought=thought,
            action=action,
            actionDetails=details,
            plan=brain.plan.model_copy(deep=True),  # a snapshot: the brain goes on changing its own
            status=status,
            taskId=task_id,
        )


def _run_plan(brain: Brain, call: ToolCall) -> ToolOutput:
    try:
        return set_plan(brain.plan, TOOLS["plan"].parse(call.arguments))
    except PagelensError as exc:
        return ToolOutput.failure(exc)


def _literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _selector_of(view: Any, element_id: str) -> str | None:
    """A selector for the control `element_id` of the client's view (any view's control
    with an id, `id` or `i`): the control's own `selector` when the client gave one, else
    one built from its role and name, which outlives a re-render that changes ids."""
    node = _control(view, element_id)
    if node is None:
        return None
    if isinstance(node.get("selector"), str):
        return str(node["selector"])
    role, name = node.get("r", node.get("role")), node.get("n", node.get("name"))
    if not isinstance(role, str) or not isinstance(name, str) or not name.strip():
        return None
    quoted = name.strip().replace("\\", "\\\\").replace('"', '\\"')
    return f'role={SHORT_ROLE.get(role, role)}[name="{quoted}"]'


def _control(view: Any, element_id: str) -> dict[str, Any] | None:
    if isinstance(view, dict):
        if str(view.get("id", view.get("i"))) == element_id:
            return view
        children: list[Any] = list(view.values())
    elif isinstance(view, list):
        children = view
    else:
        return None
    for child in children:
        found = _control(child, element_id)
        if found is not None:
            return found
    return None
