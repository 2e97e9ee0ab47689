"""The agent's automation tools: each a params model, a result model and an async
function on a Playwright page. Their error codes are in `pagelens.agent.tools.errors`."""

from pagelens.agent.tools.ask_user import (
    AskUserParams,
    BoundingBox,
    ElementPicker,
    PickedElement,
    ask_user_which_element,
    element_at,
)
from pagelens.agent.tools.debugger import DebuggerParams, DebuggerResult, debugger
from pagelens.agent.tools.repl import NavigateCallback, ReplFile, ReplLimits, ReplParams, ReplResult, repl

__all__ = [
    "AskUserParams",
    "BoundingBox",
    "ElementPicker",
    "PickedElement",
    "ask_user_which_element",
    "element_at",
    "DebuggerParams",
    "DebuggerResult",
    "NavigateCallback",
    "ReplFile",
    "ReplLimits",
    "ReplParams",
    "ReplResult",
    "debugger",
    "repl",
]
