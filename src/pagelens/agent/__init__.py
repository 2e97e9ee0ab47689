"""The agent: models, the loop with a plan, and the automation tools (docs/agent.md).

report = await pagelens.Agent(model="auto").run("Find the docs' install command", url=...)
report.status, report.result, report.plan
"""

from pagelens.agent.events import (
    AgentEvent,
    PlanUpdated,
    RunFinished,
    RunReport,
    RunStarted,
    StepRecord,
    Thinking,
    ToolFinished,
    ToolStarted,
    UserNavigated,
)
from pagelens.agent.loop import Agent, Limits
from pagelens.agent.plan import Plan, PlanStep
from pagelens.agent.skills import Skills

__all__ = [
    "Agent",
    "AgentEvent",
    "Limits",
    "Plan",
    "PlanStep",
    "PlanUpdated",
    "RunFinished",
    "RunReport",
    "RunStarted",
    "Skills",
    "StepRecord",
    "Thinking",
    "ToolFinished",
    "ToolStarted",
    "UserNavigated",
]
