"""Evaluating JavaScript in a page's main world over CDP, cut short at a time limit.

A script that outlives its limit is terminated (`Runtime.terminateExecution`, which the
browser handles even while the page's thread is busy), so the page keeps working."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

from pagelens.agent.tools.errors import ScriptTimeoutError

# Time for the browser to acknowledge a termination before we give up on it.
_TERMINATE_TIMEOUT_S = 2.0


async def evaluate(session: CDPSession, expression: str, *, timeout: float) -> dict[str, Any]:  # noqa: ASYNC109
    """`Runtime.evaluate` of `expression` in the main world, awaiting a promise and
    returning by value: the CDP reply (`result`, maybe `exceptionDetails`). Raises
    ScriptTimeoutError past `timeout` seconds, after terminating the script."""
    request = {"expression": expression, "returnByValue": True, "awaitPromise": True, "userGesture": True}
    try:
        reply: dict[str, Any] = await asyncio.wait_for(session.send("Runtime.evaluate", request), timeout)
    except TimeoutError as exc:
        await terminate(session)
        raise ScriptTimeoutError(f"the script ran longer than {timeout:g} s and was terminated") from exc
    return reply


async def terminate(session: CDPSession) -> None:
    """Stop whatever script the session's page is running (nothing to do if none)."""
    with contextlib.suppress(PlaywrightError, TimeoutError):
        await asyncio.wait_for(session.send("Runtime.terminateExecution"), _TERMINATE_TIMEOUT_S)


def render_value(remote: dict[str, Any]) -> str:
    """A CDP RemoteObject returned by value, as a REPL would print it."""
    if "unserializableValue" in remote:  # NaN, Infinity, -0, 123n
        return str(remote["unserializableValue"])
    if "value" in remote:
        return json.dumps(remote["value"], ensure_ascii=False)
    if remote.get("type") == "undefined":
        return "undefined"
    return str(remote.get("description") or remote.get("type", ""))


def exception_message(details: dict[str, Any]) -> str:
    """The thrown value's description (``Error: boom`` and its stack) or CDP's summary."""
    exception = details.get("exception") or {}
    if "description" in exception:
        return str(exception["description"])
    if "value" in exception:
        return f"Uncaught {json.dumps(exception['value'], ensure_ascii=False)}"
    return str(details.get("text") or "Uncaught exception")
