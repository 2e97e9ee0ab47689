"""The entry point of the action layer: a browser session that agents drive with
`interact` and read with `analyze`.

One call at a time reaches the browser (a lock), whether the agent waits for it or it
runs in the background. Before each call the session makes sure its Chromium is alive
(relaunching or re-attaching it: ``browser_restarted: true``) and that no dialog held
from an earlier action still freezes the page. A call ends when its browser dies, not
only past its time limit: Playwright leaves some calls on a dead browser unanswered for
ever (browser/guard.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as PlaywrightPage

from pagelens.actions import analyze as views
from pagelens.actions import navigation, perform
from pagelens.actions.commands import CommandStore
from pagelens.actions.dialogs import DialogPolicy
from pagelens.actions.errors import ActionError
from pagelens.actions.models import ActionResult, AnalyzeRequest, AnalyzeResult, InteractRequest
from pagelens.actions.registry import SPECS
from pagelens.actions.runtime import BrowserOptions, BrowserRuntime
from pagelens.actions.settle import SettlePolicy
from pagelens.actions.tab_actions import TabCall
from pagelens.actions.tabs import Tabs
from pagelens.browser import Browser
from pagelens.browser.guard import BrowserGoneError, bounded
from pagelens.budget import DEFAULT_MAX_TOKENS
from pagelens.errors import ErrorCode, InvalidRequestError, PagelensError, first_line

CALL_TIMEOUT_S = 120.0  # the ceiling of any one call, whatever its parts' own limits

T = TypeVar("T")


@dataclass(frozen=True)
class SessionOptions:
    """Tunables beyond the browser itself; the defaults follow the specs."""

    settle: SettlePolicy = field(default_factory=SettlePolicy)
    dialogs: DialogPolicy = field(default_factory=DialogPolicy)
    navigation_timeout: float = 30.0
    actionability_timeout: float = 2.0
    summary_timeout: float = navigation.SUMMARY_TIMEOUT_S
    allow_file_urls: bool = False
    max_tokens: int = DEFAULT_MAX_TOKENS  # analyze's budget when a call gives no max_tokens
    ranker: str = "bm25"  # or "embeddings" (the pagelens[embeddings] extra)


class Session:
    """A browser, its tabs and the agent's background work.

    ``interact`` never raises for what happens on the page (a hidden element, a host
    that does not resolve): those are ``success: false`` results with an error code. It
    raises InvalidRequestError (an InvalidParameterError naming the parameter) for a
    request that is malformed.
    """

    def __init__(self, runtime: BrowserRuntime, options: SessionOptions) -> None:
        self._runtime = runtime
        self.options = options
        self.tabs = Tabs(options.dialogs)
        self.commands = CommandStore()
        self._lock = asyncio.Lock()
        self._restarted = False  # the browser was started again, and no call has said so yet
        self._navigation = navigation.NavigationOptions(
            settle=options.settle,
            timeout=options.navigation_timeout,
            allow_file_urls=options.allow_file_urls,
            restricts_hosts=runtime.options.allowed_hosts is not None,
            summary_timeout=options.summary_timeout,
        )
        self._actions = perform.ActionOptions(
            settle=options.settle,
            actionability_timeout=options.actionability_timeout,
            navigation_timeout=options.navigation_timeout,
            summary_timeout=options.summary_timeout,
        )

    @classmethod
    async def start(
        cls,
        *,
        headless: bool = True,
        cdp_url: str | None = None,
        ws_endpoint: str | None = None,
        allowed_hosts: list[str] | None = None,
        user_data_dir: str | None = None,
        viewport: tuple[int, int] = (1280, 800),
        browser: str | None = None,
        options: SessionOptions | None = None,
    ) -> Session:
        """Launch Chromium (a throwaway profile, or `user_data_dir`), attach to the one at
        `cdp_url`, or use the Playwright browser server at `ws_endpoint`. `browser` picks
        what to launch (chromium, chrome, msedge or a path; the first found by default). `allowed_hosts`
        None lets pages reach every host."""
        runtime = BrowserRuntime(
            BrowserOptions(
                headless=headless,
                cdp_url=cdp_url,
                ws_endpoint=ws_endpoint,
                allowed_hosts=tuple(allowed_hosts) if allowed_hosts is not None else None,
                user_data_dir=user_data_dir,
                viewport=viewport,
                browser=browser,
            )
        )
        started = await runtime.start()
        session = cls(runtime, options or SessionOptions())
        session.tabs.bind(started)
        if runtime.attached:
            session.tabs.adopt_existing(started.context.pages, owned=False)
        elif user_data_dir is not None:
            session.tabs.adopt_existing(started.context.pages, owned=True)  # its first tab
        return session

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.commands.close()
        if self._runtime.attached:
            for tab in self.tabs:
                if tab.owned:  # the tabs the user had stay open
                    await self.tabs.close(tab)
        await self._runtime.stop()

    # ---- interact

    async def interact(self, request: InteractRequest | dict[str, Any]) -> dict[str, Any]:
        req = InteractRequest.parse(request)
        spec = SPECS[req.action]
        if spec.kind == "command":
            answer: dict[str, Any] = await spec.handler(self._call(req))
            return answer
        if req.background:
            command_id = self.commands.submit(req.action, lambda: self._run_quietly(req))
            return ActionResult(
                success=True, action=req.action, queued=True, command_id=command_id,
                message="queued: fetch the result with interact(action='result', command_id=...)",
            ).to_json()  # fmt: skip
        return await self._run(req)

    async def _run_quietly(self, req: InteractRequest) -> dict[str, Any]:
        """A background command: even a bad parameter found late becomes its result."""
        try:
            return await self._run(req)
        except InvalidRequestError as exc:
            return ActionResult.failure(req.action, exc).to_json()

    async def _run(self, req: InteractRequest) -> dict[str, Any]:
        result = await self._locked(req.action, lambda restarted: self._dispatch(req))
        return result.to_json()

    async def _locked(self, action: str, call: Callable[[bool], Awaitable[Any]]) -> Any:
        """Run `call(restarted)` alone, on a live browser. A browser that dies during the
        call is restarted and the call made once more."""
        async with self._lock:
            for attempt in (1, 2):
                try:
                    await self._ensure_browser()
                    result = await self._bounded(call(self._restarted))
                except InvalidRequestError:
                    raise
                except (PagelensError, PlaywrightError, TimeoutError) as exc:
                    if attempt == 1 and not self._runtime.alive():
                        continue
                    result = ActionResult.failure(action, _typed(exc))
                if isinstance(result, ActionResult) and self._restarted:
                    result.browser_restarted = True
                self._restarted = False
                return result
            raise AssertionError("unreachable")

    async def _ensure_browser(self) -> None:
        """Start the browser again if it died (raising when it cannot be) and restore its
        tabs; the restart is `_restarted` until a call reports it."""
        if await self._runtime.ensure():
            self._restarted = True
            await self._bounded(self.tabs.restore(self._runtime.browser))

    async def _bounded(self, work: Awaitable[T]) -> T:
        """`work`, ended when the browser dies (BrowserGoneError) or past CALL_TIMEOUT_S."""
        try:
            return await bounded(work, timeout=CALL_TIMEOUT_S, lifeline=self._runtime.browser.lifeline)
        except TimeoutError as exc:
            raise _too_long() from exc

    def _call(self, req: InteractRequest) -> TabCall:
        return TabCall(req, self.tabs, self._navigation, self._actions, self.commands)

    async def _dispatch(self, req: InteractRequest) -> ActionResult:
        spec = SPECS[req.action]
        call = self._call(req)
        if spec.kind == "session":
            result: ActionResult = await spec.handler(call)
            return result
        tab = call.tab = await self.tabs.current(req.tab_id)
        released = None if spec.answers_dialog else await perform.release(tab, self._actions)
        if spec.kind == "element":
            result = await perform.perform(tab, req, self._actions)
        else:
            result = await spec.handler(call)
            tab = call.current  # navigate may have opened the tab it went to
        if result.tab_id is None:
            result.tab_id = tab.id
        if result.observations is None:
            result.dialog = tab.dialogs.take_report()
        if released is not None:
            # A dialog held from an earlier action was answered before this call ran.
            result.message = f"{released}; {result.message}" if result.message else released
        return result

    # ---- for tools that drive the page themselves (the agent's repl, debugger, picker)

    async def live_browser(self) -> tuple[Browser, bool]:
        """The session's browser, for work in tabs of its own (summarize), started again if
        it had died, and whether it was since a call last said so: such work runs outside
        the session's calls, which are what restart a dead browser."""
        async with self._lock:
            await self._ensure_browser()
            restarted, self._restarted = self._restarted, False
            return self._runtime.browser, restarted

    async def on_live_browser(self, work: Callable[[Browser], Awaitable[T]]) -> tuple[T, bool]:
        """`work` on `live_browser()`, and whether the browser was restarted for it. A
        browser found alive may be dead already (killed a moment ago, its disconnect not
        yet noticed): when it goes during `work`, `work` runs once more on a new one, as
        the session's own calls are made again."""
        browser, restarted = await self.live_browser()
        try:
            return await work(browser), restarted
        except BrowserGoneError:
            browser, again = await self.live_browser()
            if not again:
                raise
            return await work(browser), True

    async def page(self, tab_id: str | None = None) -> PlaywrightPage:
        """A tab's Playwright page (default: the active tab), on a live browser and with no
        dialog of an earlier action still freezing it. The caller drives the page itself,
        outside the session's lock: such tools may call `interact` (to navigate) meanwhile.
        A restart it makes is reported by the next call."""
        async with self._lock:
            await self._ensure_browser()
            return await self._bounded(self._released_page(tab_id))

    async def _released_page(self, tab_id: str | None) -> PlaywrightPage:
        tab = await self.tabs.current(tab_id)
        await perform.release(tab, self._actions)
        return tab.playwright_page

    # ---- analyze

    async def analyze(self, request: AnalyzeRequest | dict[str, Any]) -> AnalyzeResult:
        """A view of a tab. Problems on the page come back as ``data`` with
        ``success: false`` and ``error``, like interact's."""
        req = AnalyzeRequest.parse(request)
        if req.what == "command_result":
            try:
                return AnalyzeResult(data=self.commands.status(req.command_id))
            except ActionError as exc:
                return AnalyzeResult(data=ActionResult.failure("analyze", exc).to_json())

        async def read(restarted: bool) -> AnalyzeResult:
            if req.what == "tabs":
                data: dict[str, Any] = {"tabs": [t.model_dump() for t in await self.tabs.infos()]}
                result = AnalyzeResult(data=data)
            else:
                tab = await self.tabs.current(req.tab_id)
                await perform.release(tab, self._actions)
                result = await views.page_view(tab, req, max_tokens=self.options.max_tokens, ranker=self.options.ranker)
                dialog = tab.dialogs.take_report()
                if dialog is not None:
                    result.data["dialog"] = dialog.model_dump(exclude_none=True)
            if restarted:
                result.data["browser_restarted"] = True
            return result

        outcome = await self._locked("analyze", read)
        if isinstance(outcome, ActionResult):
            return AnalyzeResult(data=outcome.to_json())
        return outcome


def _typed(exc: Exception) -> PagelensError:
    if isinstance(exc, PagelensError):
        return exc
    if isinstance(exc, TimeoutError):
        return _too_long()
    return ActionError(ErrorCode.BROWSER_ERROR, first_line(exc))


def _too_long() -> ActionError:
    return ActionError(ErrorCode.TIMEOUT, f"the call took longer than {CALL_TIMEOUT_S:g} s")
