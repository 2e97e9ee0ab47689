"""Calls into the action half of the engine (``engine/js/act_*.js``) in a frame's
isolated world: the same world, and so the same stable ids, as the views.

The world of the main frame and of each frame element come from the Page; frames are
named by the ids of their frame elements, as in the views ("12.5" is control 5 inside the
frame element 12).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from playwright.async_api import Error as PlaywrightError

from pagelens.actions.errors import ActionError
from pagelens.browser.page import Page
from pagelens.browser.world import FrameWorld
from pagelens.errors import PagelensError

# The world's context belongs to a document that is gone: make a new one and retry.
_STALE_CONTEXT = ("Cannot find context with specified id",)
# The document went away while the call ran: the page navigated.
_DOCUMENT_GONE = (
    "Execution context was destroyed",
    "Inspected target navigated or closed",
    "Target closed",
)


class DocumentChanged(Exception):
    """The frame navigated while a call was running."""


async def main_world(page: Page) -> FrameWorld:
    return await page.main_world()


async def frame_world(page: Page, path: list[str]) -> tuple[FrameWorld, tuple[float, float]]:
    """The world of the frame reached through the frame elements `path` (outermost
    first), and where that frame's viewport starts in the page's viewport."""
    world = await main_world(page)
    dx = dy = 0.0
    for owner in path:
        try:
            x, y = await call(world, "frameOffset", owner)
            world = await page.child_world(world, owner)
        except (ActionError, PagelensError) as exc:
            raise ActionError("not_found", f"frame element {owner} is gone or has no document: {exc.message}") from exc
        dx, dy = dx + x, dy + y
    return world, (dx, dy)


async def call(
    world: FrameWorld,
    function: str,
    *args: Any,
    timeout: float = 5.0,  # noqa: ASYNC109 - the limit is passed on to the browser
) -> Any:
    """``__pagelensAct.<function>(*args)`` in `world`, awaiting a returned promise.
    Raises DocumentChanged when the frame navigates meanwhile, ActionError when the
    engine throws or the call outlives `timeout` seconds."""
    expression = f"__pagelensAct.{function}({', '.join(json.dumps(a) for a in args)})"
    for attempt in (1, 2):
        if world.context_id is None:
            await world.evaluate("0", timeout_ms=10_000)  # creates the world, injects the engine
        params = {
            "expression": expression,
            "contextId": world.context_id,
            "returnByValue": True,
            "awaitPromise": True,
            "timeout": int(timeout * 1000),
        }
        try:
            reply = await asyncio.wait_for(world.session.send("Runtime.evaluate", params), timeout + 1.0)
        except TimeoutError as exc:
            raise ActionError("timeout", f"the page did not answer {function} within {timeout:g} s") from exc
        except PlaywrightError as exc:
            text = str(exc)
            if any(s in text for s in _DOCUMENT_GONE):
                raise DocumentChanged(text) from exc
            if attempt == 1 and any(s in text for s in _STALE_CONTEXT):
                world.context_id = None
                continue
            raise
        details = reply.get("exceptionDetails")
        if details:
            text = details.get("exception", {}).get("description") or details.get("text", "")
            if attempt == 1 and "__pagelensAct is not defined" in text:
                world.context_id = None
                continue
            raise ActionError("engine_error", f"{function}: {text.splitlines()[0] if text else 'failed'}")
        return reply["result"].get("value")
    raise AssertionError("unreachable")
