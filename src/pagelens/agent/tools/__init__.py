"""The agent's automation tools: each a params model, a result model and an async
function on a Playwright page."""

from pagelens.agent.tools.debugger import DebuggerParams, DebuggerResult, debugger

__all__ = ["DebuggerParams", "DebuggerResult", "debugger"]
