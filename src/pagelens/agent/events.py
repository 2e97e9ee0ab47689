"""What a run tells its watchers as it goes (the terminal, the daemon's push, the Python
event stream), and the report it ends with. Each event has a `type`; the JSON field
names are the same on every surface."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from pagelens.agent.llm.messages import Usage
from pagelens.agent.plan import Plan

RunStatus = Literal["COMPLETED", "FAILED", "STOPPED"]


class StepRecord(BaseModel):
    """One tool call of the run."""

    index: int
    tool: str
    arguments: dict[str, Any]
    ok: bool
    error: str | None = None
    message: str | None = None
    url: str | None = None  # the active tab's address after the call
    duration_s: float


class RunReport(BaseModel):
    status: RunStatus
    result: str | None = None  # finish's result
    reason: str | None = None  # why the run did not complete (fail's reason, a budget, a stop)
    error: str | None = None  # the code of that reason
    steps: list[StepRecord] = Field(default_factory=list)
    plan: Plan = Field(default_factory=Plan)
    usage: Usage = Field(default_factory=Usage)
    duration_s: float = 0.0
    model: str | None = None


class RunStarted(BaseModel):
    type: Literal["run_started"] = "run_started"
    task: str
    url: str | None
    model: str


class Thinking(BaseModel):
    """A piece of the model's text as it streams in."""

    type: Literal["thinking"] = "thinking"
    text: str


class PlanUpdated(BaseModel):
    type: Literal["plan_updated"] = "plan_updated"
    plan: Plan


class ToolStarted(BaseModel):
    type: Literal["tool_started"] = "tool_started"
    index: int
    tool: str
    arguments: dict[str, Any]
    thought: str = ""  # the model's text that came with the call


class ToolFinished(BaseModel):
    type: Literal["tool_finished"] = "tool_finished"
    step: StepRecord
    observation: str  # one line: what the call did or why it failed


class UserNavigated(BaseModel):
    type: Literal["user_navigated"] = "user_navigated"
    url: str
    title: str


class RunFinished(BaseModel):
    type: Literal["run_finished"] = "run_finished"
    report: RunReport


AgentEvent = RunStarted | Thinking | PlanUpdated | ToolStarted | ToolFinished | UserNavigated | RunFinished
