"""What repl code may do to the target page: run a function in its main world
(`browserjs`, with the skills' libraries loaded first and navigation refused) and send
it real input events (the `native*` helpers)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import AsyncIterator, Sequence
from importlib import resources
from typing import Any

from playwright.async_api import CDPSession, Page, Request, Route
from playwright.async_api import Error as PlaywrightError

from pagelens.agent.tools.errors import NavigationRefusedError, ReplError
from pagelens.agent.tools.main_world import evaluate, exception_message, terminate

NAVIGATION_REFUSED = "repl code may not navigate on its own; use navigate({url}) instead"
_BROWSERJS = resources.files(__package__).joinpath("repl_browserjs.js").read_text(encoding="utf-8").strip()
# Each loaded library's hash is kept in the page, so a new document loads them again.
_LOADED = "globalThis[Symbol.for('pagelens.libraries')]"
# A navigation a script starts reaches the network a moment after the script returns.
_NAVIGATION_GRACE_S = 0.05
_SETUP_TIMEOUT_S = 10.0
# How long a native helper may wait for its element.
_NATIVE_TIMEOUT_S = 10.0


class TargetPage:
    """The page repl code works on, for the duration of one repl call (`guarded`)."""

    def __init__(self, page: Page, session: CDPSession, libraries: Sequence[str]) -> None:
        self.page = page
        self.session = session
        self.libraries = {hashlib.sha256(source.encode()).hexdigest(): source for source in libraries}
        self.refused: list[str] = []  # navigations refused so far in this call
        self._guarding = 0  # browserjs calls running

    @classmethod
    @contextlib.asynccontextmanager
    async def guarded(cls, page: Page, libraries: Sequence[str]) -> AsyncIterator[TargetPage]:
        """The target, with main-frame document requests refused while browserjs runs."""
        async with asyncio.timeout(_SETUP_TIMEOUT_S):
            session = await page.context.new_cdp_session(page)
            target = cls(page, session, libraries)
            await page.route("**/*", target._route)
        try:
            yield target
        finally:
            with contextlib.suppress(PlaywrightError, TimeoutError):  # a page gone has nothing to undo
                async with asyncio.timeout(_SETUP_TIMEOUT_S):
                    await page.unroute("**/*", target._route)
                    await session.detach()

    async def browserjs(self, source: str, args: list[Any], *, timeout: float) -> Any:  # noqa: ASYNC109
        """`(source)(...args)` in the main world: its JSON value. Raises ReplError with the
        page's message when it throws, NavigationRefusedError when it tried to navigate."""
        await self._load_libraries(timeout=timeout)
        expression = f"({_BROWSERJS})(({source}), {json.dumps(args)})"
        self._guarding += 1
        try:
            reply = await evaluate(self.session, expression, timeout=timeout)
            await asyncio.sleep(_NAVIGATION_GRACE_S)
        finally:
            self._guarding -= 1
        if "exceptionDetails" in reply:  # the source did not even parse
            raise ReplError(f"browserjs: {exception_message(reply['exceptionDetails']).splitlines()[0]}")
        outcome = reply["result"].get("value") or {}
        self.refused.extend(outcome.get("refused", []))
        if self.refused:
            raise NavigationRefusedError(f"{NAVIGATION_REFUSED} (it tried {self.refused[0]})")
        if not outcome.get("ok"):
            raise ReplError(str(outcome.get("error")))
        return outcome.get("value")

    async def native(self, action: str, payload: dict[str, Any]) -> None:
        """Real (trusted) input through the browser: mouse and keyboard events over CDP."""
        keyboard = self.page.keyboard
        timeout_ms = _NATIVE_TIMEOUT_S * 1000
        if action == "click":
            await self.page.locator(str(payload["selector"])).click(timeout=timeout_ms)
        elif action == "type":
            await self.page.locator(str(payload["selector"])).click(timeout=timeout_ms)
            await keyboard.type(str(payload["text"]))
        elif action == "press":
            await keyboard.press(str(payload["key"]))
        elif action == "keydown":
            await keyboard.down(str(payload["key"]))
        elif action == "keyup":
            await keyboard.up(str(payload["key"]))
        else:
            raise ReplError(f"no native input {action!r}")

    async def terminate(self) -> None:
        await terminate(self.session)

    async def _load_libraries(self, *, timeout: float) -> None:  # noqa: ASYNC109
        if not self.libraries:
            return
        reply = await evaluate(self.session, f"{_LOADED} ? [...{_LOADED}] : []", timeout=timeout)
        loaded = set(reply["result"].get("value") or [])
        for key, source in self.libraries.items():
            if key in loaded:
                continue
            # Evaluated as a script of its own, so its top-level declarations become globals.
            reply = await evaluate(self.session, source, timeout=timeout)
            if "exceptionDetails" in reply:
                raise ReplError(f"a skill library failed to load: {exception_message(reply['exceptionDetails'])}")
            await evaluate(self.session, f"({_LOADED} ||= new Set()).add({json.dumps(key)})", timeout=timeout)

    async def _route(self, route: Route, request: Request) -> None:
        if self._guarding and request.is_navigation_request() and request.frame == self.page.main_frame:
            self.refused.append(request.url)
            await route.abort("aborted")  # no error page: the document stays as it was
        else:
            await route.fallback()
