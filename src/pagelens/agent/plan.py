"""The agent's plan: the steps it means to take, each with a status the UI shows as a
stepper (past, current, future). The model sets and updates it with the `plan` tool; the
loop moves it along as actions run, and closes it when the task ends (docs/agent.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

StepStatus = Literal["pending", "in_progress", "completed", "failed", "skipped"]
ToolType = Literal["DOM", "SERVER", "MIXED"]
# Earlier clients call the running step "active".
_STATUS_ALIASES = {"active": "in_progress"}
_DONE: frozenset[str] = frozenset({"completed", "failed", "skipped"})


class StepInput(BaseModel):
    """One step as the model writes it in a `plan` call."""

    model_config = ConfigDict(extra="forbid")

    description: str = Field(min_length=1, max_length=500, description="What this step does, in a few words.")
    status: StepStatus | Literal["active"] | None = Field(
        None, description="pending, in_progress, completed, failed or skipped; default: kept, or pending."
    )
    toolType: ToolType | None = Field(None, description="DOM (acts on the page), SERVER or MIXED.")  # noqa: N815
    reasoning: str | None = Field(None, max_length=1000, description="Why the step is needed.")
    expectedOutcome: str | dict[str, Any] | None = Field(  # noqa: N815
        None, description="What the page should show once the step is done."
    )


class PlanParams(BaseModel):
    """The `plan` tool: the whole list of steps, in order. Steps already in the plan keep
    their status unless a new one is given."""

    model_config = ConfigDict(extra="forbid")

    steps: list[StepInput] = Field(min_length=1, max_length=50)


class PlanStep(BaseModel):
    id: str
    index: int
    description: str
    status: StepStatus = "pending"
    toolType: ToolType = "DOM"  # noqa: N815
    reasoning: str | None = None
    expectedOutcome: str | dict[str, Any] | None = None  # noqa: N815
    outcome: str | None = None  # what the loop saw when the step ended (a failure's reason)


class Plan(BaseModel):
    steps: list[PlanStep] = Field(default_factory=list)
    currentStepIndex: int = 0  # noqa: N815
    createdAt: str = Field(default_factory=lambda: _now())  # noqa: N815

    @property
    def current(self) -> PlanStep | None:
        if not self.steps:
            return None
        return self.steps[self.currentStepIndex]

    def set(self, params: PlanParams) -> None:
        """Replace the steps with the model's list. A step with the same description at the
        same place keeps what the loop knew of it (status, outcome)."""
        old = {(step.index, step.description): step for step in self.steps}
        steps = []
        for index, given in enumerate(params.steps):
            before = old.get((index, given.description))
            status = _STATUS_ALIASES.get(given.status, given.status) if given.status else None
            steps.append(
                PlanStep(
                    id=f"step_{index}",
                    index=index,
                    description=given.description,
                    status=status or (before.status if before else "pending"),
                    toolType=given.toolType or (before.toolType if before else "DOM"),
                    reasoning=given.reasoning,
                    expectedOutcome=given.expectedOutcome,
                    outcome=before.outcome if before and not given.status else None,
                )
            )
        self.steps = steps
        self._follow()

    def start_step(self) -> None:
        """An action is about to run: the current step is under way (if it was waiting)."""
        step = self.current
        if step is not None and step.status == "pending":
            step.status = "in_progress"

    def finish(self, *, succeeded: bool, outcome: str) -> None:
        """The task ended: the step under way ends with it. On success the steps never
        started were not needed (skipped); on failure they are left pending, so the plan
        shows where it stopped."""
        if self.steps:
            self.settle(self.currentStepIndex, succeeded=succeeded, outcome=outcome)
        if succeeded:
            for other in self.steps:
                if other.status == "pending":
                    other.status = "skipped"
        self._follow()

    def settle(self, index: int, *, succeeded: bool, outcome: str) -> None:
        """Step `index` ended as the client's report of its action says (the step API,
        where the client carries out actions); a step already ended keeps its status."""
        step = self.steps[index]
        if step.status not in _DONE:
            step.status = "completed" if succeeded else "failed"
            step.outcome = outcome
        self._follow()

    def _follow(self) -> None:
        """currentStepIndex is the step under way, else the first still to do, else the last."""
        for wanted in ("in_progress", "pending"):
            for step in self.steps:
                if step.status == wanted:
                    self.currentStepIndex = step.index
                    return
        self.currentStepIndex = max(len(self.steps) - 1, 0)

    def render(self) -> str:
        """The plan as the model reads it back: one line per step."""
        marks = {"pending": " ", "in_progress": ">", "completed": "x", "failed": "!", "skipped": "-"}
        return "\n".join(f"[{marks[s.status]}] {s.index}. {s.description}" for s in self.steps)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
