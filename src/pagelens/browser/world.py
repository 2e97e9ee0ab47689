"""Running the engine in an isolated world of a frame, over CDP.

An isolated world shares the DOM with the page but has its own globals, so a page that
overwrites ``Array.prototype.map`` or ``document.querySelectorAll`` cannot break the
engine, and a strict CSP does not apply to it. Worlds are created once per document and
reused; a navigation destroys them and the next call makes a new one.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

from pagelens.engine import engine_source
from pagelens.errors import CaptureError, CaptureTimeoutError

WORLD_NAME = "pagelens"
_CONTEXT_GONE = (
    "Cannot find context",
    "Execution context was destroyed",
    "__pagelens is not defined",
)


@dataclass
class FrameWorld:
    """The pagelens world of one frame (identified by its CDP frame id) in one session."""

    session: CDPSession
    frame_id: str
    context_id: int | None = None

    async def _create(self) -> None:
        created = await self.session.send(
            "Page.createIsolatedWorld",
            {"frameId": self.frame_id, "worldName": WORLD_NAME, "grantUniveralAccess": False},
        )
        self.context_id = created["executionContextId"]
        await self._evaluate(engine_source(), timeout_ms=10_000)

    async def _evaluate(self, expression: str, timeout_ms: int, by_value: bool = True) -> dict[str, Any]:
        reply = await self.session.send(
            "Runtime.evaluate",
            {
                "expression": expression,
                "contextId": self.context_id,
                "returnByValue": by_value,
                "timeout": timeout_ms,
            },
        )
        details = reply.get("exceptionDetails")
        if details:
            text = details.get("exception", {}).get("description") or details.get("text", "")
            raise CaptureError(f"engine error: {text.splitlines()[0] if text else 'unknown'}")
        return reply["result"]

    async def evaluate(self, expression: str, *, timeout_ms: int, by_value: bool = True) -> dict[str, Any]:
        """Evaluate in this world, creating it (again) when the document has changed.
        A page that keeps navigating gets three tries, then a CaptureError."""
        attempts = 3
        for attempt in range(1, attempts + 1):
            try:
                if self.context_id is None:
                    await self._create()
                return await self._evaluate(expression, timeout_ms, by_value)
            except (PlaywrightError, CaptureError) as exc:
                gone = any(s in str(exc) for s in _CONTEXT_GONE)
                if gone and attempt < attempts:
                    self.context_id = None
                    continue
                if gone:
                    raise CaptureError("the page kept navigating while it was being read; try again") from exc
                if isinstance(exc, CaptureError):
                    raise
                raise CaptureError(f"could not run the engine: {exc}") from exc
        raise AssertionError("unreachable")

    async def capture(self, mode: str, options: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        """Run one capture; a capture that outlives `timeout_s` raises CaptureTimeoutError."""
        timeout_ms = max(1, int(timeout_s * 1000))
        # The engine stops collecting a little before the hard limit and returns what it
        # has; Chromium terminates the script at the limit; asyncio guards the round trip.
        # Never 0: the engine reads a 0 budget as "no budget given".
        options = {**options, "timeoutMs": max(1, int(timeout_ms * 0.8))}
        call = f"__pagelens.capture({json.dumps(mode)}, {json.dumps(options)})"
        try:
            result = await asyncio.wait_for(self.evaluate(call, timeout_ms=timeout_ms), timeout=timeout_s + 1.0)
        except TimeoutError as exc:
            raise CaptureTimeoutError(f"the {mode} view took longer than {timeout_s:g} s") from exc
        except CaptureError as exc:
            if "Execution was terminated" in exc.message or "terminated" in exc.message.lower():
                raise CaptureTimeoutError(f"the {mode} view took longer than {timeout_s:g} s") from exc
            raise
        return result["value"]

    async def element_object(self, element_id: str) -> str | None:
        """A remote object id for the element stamped `element_id`, or None."""
        result = await self.evaluate(
            f"__pagelens.elementById({json.dumps(element_id)})", timeout_ms=5_000, by_value=False
        )
        return result.get("objectId")
