"""The `debugger` tool: JavaScript in the page's own (main) world, a last resort for
what the page's globals alone can answer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Page
from pydantic import BaseModel, Field

from pagelens.agent.tools.errors import UnknownActionError
from pagelens.agent.tools.main_world import evaluate, exception_message, render_value

DEFAULT_TIMEOUT_S = 10.0


class DebuggerParams(BaseModel):
    action: str = Field(description='What to do; only "eval" for now.')
    code: str = Field(description="JavaScript evaluated in the page's main world; a promise is awaited.")
    timeout: float = Field(DEFAULT_TIMEOUT_S, gt=0, description="Seconds before the script is terminated.")


class DebuggerResult(BaseModel):
    text: str = Field(description="The value (JSON) or the exception, readable.")
    details: dict[str, Any] = Field(description="What CDP said: the value's type, or the exception and where.")


async def debugger(page: Page, params: DebuggerParams) -> DebuggerResult:
    """Run `params.action` on `page`. Raises UnknownActionError or ScriptTimeoutError."""
    action = _ACTIONS.get(params.action)
    if action is None:
        raise UnknownActionError(f"debugger has no action {params.action!r}; use one of: {', '.join(_ACTIONS)}")
    return await action(page, params)


async def _eval(page: Page, params: DebuggerParams) -> DebuggerResult:
    session = await page.context.new_cdp_session(page)
    try:
        reply = await evaluate(session, params.code, timeout=params.timeout)
    finally:
        await session.detach()
    details = reply.get("exceptionDetails")
    if details:
        return DebuggerResult(text=exception_message(details), details=_exception_details(details))
    result = reply["result"]
    return DebuggerResult(text=render_value(result), details=_value_details(result))


def _value_details(result: dict[str, Any]) -> dict[str, Any]:
    return {key: result[key] for key in ("type", "subtype", "className") if key in result}


def _exception_details(details: dict[str, Any]) -> dict[str, Any]:
    exception = details.get("exception") or {}
    return {
        "exception": True,
        "className": exception.get("className"),
        "line": details.get("lineNumber", 0) + 1,
        "column": details.get("columnNumber", 0) + 1,
    }


_ACTIONS: dict[str, Callable[[Page, DebuggerParams], Awaitable[DebuggerResult]]] = {"eval": _eval}
