"""The repl's sandbox: a blank page in a browser context of its own, every request
refused, where the caller's code runs with top-level await (CDP's REPL mode). It shares
nothing with the target page; the helpers reach the page through one binding."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

from playwright.async_api import Browser, BrowserContext, CDPSession, Route
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as PlaywrightPage

from pagelens.agent.tools.main_world import terminate

BRIDGE = "__pagelensReplBridge"  # the binding's name, used by repl_sandbox.js
_PRELUDE = resources.files(__package__).joinpath("repl_sandbox.js").read_text(encoding="utf-8")
# Opening and closing a sandbox are quick; a browser that takes longer is stuck.
_SETUP_TIMEOUT_S = 10.0
_REPORT = "function (...value) { return globalThis.__pagelensRepl.report(...value); }"

# The bridge: (operation, payload) -> a JSON result, or raises (a rejected promise there).
Bridge = Callable[[str, dict[str, Any]], Awaitable[Any]]


class Sandbox:
    """One sandbox page; `opened` makes it and throws it away, so every call starts clean."""

    def __init__(self, context: BrowserContext, page: PlaywrightPage, session: CDPSession) -> None:
        self.context = context
        self.page = page
        self.session = session
        self.refused: list[str] = []  # what the sandbox page tried to load or open

    @classmethod
    @contextlib.asynccontextmanager
    async def opened(cls, browser: Browser, bridge: Bridge) -> AsyncIterator[Sandbox]:
        async with asyncio.timeout(_SETUP_TIMEOUT_S):
            context = await browser.new_context(service_workers="block")
        try:
            async with asyncio.timeout(_SETUP_TIMEOUT_S):
                page = await context.new_page()
                sandbox = cls(context, page, await context.new_cdp_session(page))
                await context.route("**/*", sandbox._refuse)

                async def call(_source: Any, operation: str, payload: dict[str, Any]) -> Any:
                    if operation == "refuse":  # the prelude caught a navigation of the sandbox
                        sandbox.refused.append(str(payload.get("what")))
                        return None
                    return await bridge(operation, payload)

                await page.expose_binding(BRIDGE, call)
                await page.evaluate(_PRELUDE)
            yield sandbox
        finally:
            # Closing kills the renderer, busy or not; a browser already gone has nothing to close.
            with contextlib.suppress(PlaywrightError, TimeoutError):
                async with asyncio.timeout(_SETUP_TIMEOUT_S):
                    await context.close()

    async def run(self, code: str) -> dict[str, Any]:
        """The code's CDP reply: `result` (the completion value) or `exceptionDetails`."""
        reply: dict[str, Any] = await self.session.send(
            "Runtime.evaluate",
            {"expression": code, "replMode": True, "awaitPromise": True, "objectGroup": "repl"},
        )
        return reply

    async def report(self, completion: dict[str, Any] | None) -> dict[str, Any]:
        """The console output and files so far and, given a completion value, its rendering."""
        scope = await self.session.send("Runtime.evaluate", {"expression": "globalThis", "objectGroup": "repl"})
        # Rendered in the sandbox, where the value lives: functions, cycles and errors too.
        arguments = [] if completion is None else [_call_argument(completion)]
        reply = await self.session.send(
            "Runtime.callFunctionOn",
            {
                "functionDeclaration": _REPORT,
                "objectId": scope["result"]["objectId"],
                "arguments": arguments,
                "returnByValue": True,
            },
        )
        report: dict[str, Any] = reply["result"]["value"]
        return report

    async def terminate(self) -> None:
        await terminate(self.session)

    async def _refuse(self, route: Route) -> None:
        if route.request.is_navigation_request():
            self.refused.append(route.request.url)
        await route.abort("aborted")  # no error page: the blank document stays


def _call_argument(remote: dict[str, Any]) -> dict[str, Any]:
    """A RemoteObject handed back to the page as the argument of a call."""
    for key in ("objectId", "unserializableValue", "value"):
        if key in remote:
            return {key: remote[key]}
    return {}  # undefined
