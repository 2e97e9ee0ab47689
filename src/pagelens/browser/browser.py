"""Launching or attaching to Chromium, and the pages it holds."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from types import TracebackType
from typing import Any, TypeVar

from playwright.async_api import Browser as PlaywrightBrowser
from playwright.async_api import BrowserContext, Playwright, ViewportSize, async_playwright
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as PlaywrightPage

from pagelens.browser.guard import Lifeline, bounded
from pagelens.browser.launcher import CDP_SCHEMES, CHROMIUM_ARGS, find_browser
from pagelens.browser.network import NetworkPolicy, host_resolver_rules
from pagelens.browser.page import Page
from pagelens.browser.static import render_static, static_base_url
from pagelens.engine.hashing import Unchanged
from pagelens.engine.models import VIEWS, View
from pagelens.errors import (
    BrowserConnectError,
    BrowserLaunchError,
    ErrorCode,
    InvalidRequestError,
    PagelensError,
    first_line,
)

DEFAULT_VIEWPORT = (1280, 800)
_CLOSE_TIMEOUT_S = 15.0
_NEW_PAGE_TIMEOUT_S = 15.0
_SETUP_S = 15.0  # after a launch or an attach: the context, the network policy

T = TypeVar("T")


class Browser:
    """A Chromium that pagelens launched or attached to. Use as an async context manager,
    or call :meth:`close`."""

    def __init__(
        self,
        playwright: Playwright,
        browser: PlaywrightBrowser,
        context: BrowserContext,
        *,
        policy: NetworkPolicy,
        viewport: tuple[int, int],
        owns_context: bool,
    ) -> None:
        self._playwright = playwright
        self.playwright_browser = browser
        self.lifeline = Lifeline(browser)  # calls on it end when it dies (browser/guard.py)
        self.context = context
        self.policy = policy
        self.viewport = viewport
        self._owns_context = owns_context
        self._pages: list[Page] = []  # opened by pagelens in a context it does not own

    @classmethod
    async def launch(
        cls,
        *,
        headless: bool = True,
        allowed_hosts: Iterable[str] | None = None,
        viewport: tuple[int, int] = DEFAULT_VIEWPORT,
        browser: str | None = None,
        args: Iterable[str] = (),
        timeout: float = 30.0,  # noqa: ASYNC109
    ) -> Browser:
        """Launch `browser`: chromium, chrome, msedge, an executable's path, or None for
        the first one found (see :func:`pagelens.browser.launcher.find_browser`). With
        `allowed_hosts`, every other host is also made unresolvable for the browser
        itself (see :func:`pagelens.browser.network.host_resolver_rules`)."""
        policy = NetworkPolicy(_hosts(allowed_hosts))
        size = _checked_viewport(viewport)
        executable = find_browser(browser, headless=headless)
        flags = [*CHROMIUM_ARGS, *args]
        if policy.allowed_hosts is not None:
            flags.append(f"--host-resolver-rules={host_resolver_rules(policy.allowed_hosts)}")

        async def start(playwright: Playwright) -> Browser:
            try:
                browser = await playwright.chromium.launch(
                    executable_path=executable,
                    headless=headless,
                    args=flags,
                    timeout=timeout * 1000,
                )
            except PlaywrightError as exc:
                raise BrowserLaunchError(f"could not start {executable}: {first_line(exc)}") from exc
            context = await browser.new_context(viewport=_viewport(size))
            self = cls(playwright, browser, context, policy=policy, viewport=size, owns_context=True)
            await self._apply_policy(context, web_sockets=False)  # the resolver rules cover them
            return self

        return await _with_playwright(start, timeout + _SETUP_S)

    @classmethod
    async def connect(
        cls,
        cdp_url: str,
        *,
        allowed_hosts: Iterable[str] | None = None,
        viewport: tuple[int, int] = DEFAULT_VIEWPORT,
        timeout: float = 15.0,  # noqa: ASYNC109
    ) -> Browser:
        """Attach to a running Chrome/Chromium by its DevTools URL (``http://127.0.0.1:9222``
        or a ``ws://`` endpoint). Pages open in the browser's existing profile; closing
        closes those pages and detaches, and leaves the browser running."""
        if not isinstance(cdp_url, str) or not cdp_url.startswith(CDP_SCHEMES):
            raise BrowserConnectError(f"cdp_url must be an http(s):// or ws(s):// URL, not {cdp_url!r}")
        return await cls._attach(
            cdp_url,
            lambda playwright: playwright.chromium.connect_over_cdp(cdp_url, timeout=timeout * 1000),
            allowed_hosts=allowed_hosts,
            viewport=viewport,
            timeout=timeout,
        )

    @classmethod
    async def connect_server(
        cls,
        ws_endpoint: str,
        *,
        allowed_hosts: Iterable[str] | None = None,
        viewport: tuple[int, int] = DEFAULT_VIEWPORT,
        timeout: float = 15.0,  # noqa: ASYNC109
    ) -> Browser:
        """Use a Playwright browser server (``ws://host:port/...``, started with
        ``launchServer`` or ``playwright run-server``): a pool of remote browsers can serve
        many daemons. Closing closes this client's context and leaves the server running."""
        if not isinstance(ws_endpoint, str) or not ws_endpoint.startswith(("ws://", "wss://")):
            raise BrowserConnectError(f"ws_endpoint must be a ws(s):// URL, not {ws_endpoint!r}")
        return await cls._attach(
            ws_endpoint,
            lambda playwright: playwright.chromium.connect(ws_endpoint, timeout=timeout * 1000),
            allowed_hosts=allowed_hosts,
            viewport=viewport,
            timeout=timeout,
        )

    @classmethod
    async def _attach(
        cls,
        endpoint: str,
        open_browser: Callable[[Playwright], Awaitable[PlaywrightBrowser]],
        *,
        allowed_hosts: Iterable[str] | None,
        viewport: tuple[int, int],
        timeout: float,  # noqa: ASYNC109
    ) -> Browser:
        policy = NetworkPolicy(_hosts(allowed_hosts))
        size = _checked_viewport(viewport)

        async def start(playwright: Playwright) -> Browser:
            try:
                browser = await bounded(open_browser(playwright), timeout=timeout + 1.0)
            except (PlaywrightError, TimeoutError) as exc:
                raise BrowserConnectError(f"could not attach to {endpoint}: {first_line(exc)}") from exc
            owns = not browser.contexts
            context = browser.contexts[0] if browser.contexts else await browser.new_context(viewport=_viewport(size))
            self = cls(playwright, browser, context, policy=policy, viewport=size, owns_context=owns)
            # No say over this browser's flags: WebSockets are refused by routing instead.
            await self._apply_policy(context, web_sockets=True)
            return self

        return await _with_playwright(start, timeout + 1.0 + _SETUP_S)

    async def _apply_policy(self, context: BrowserContext, *, web_sockets: bool) -> None:
        if not self.policy.restricts:
            return
        await context.route(self.policy.screened, self.policy.handle)
        if web_sockets:
            await context.route_web_socket(self.policy.refuses, self.policy.refuse_web_socket)

    def adopt(self, page: PlaywrightPage) -> Page:
        """The pagelens Page of a tab of this browser, one pagelens opened or not (open
        before it attached, a popup): it knows the network policy the tab's requests go
        through, which names the loads it refused (browser/error_document.py)."""
        return Page(page, policy=self.policy, lifeline=self.lifeline)

    async def new_page(self) -> Page:
        """A new tab, ready for views. Raises BrowserGoneError when the browser dies
        meanwhile (Playwright's own call would wait for ever, browser/guard.py)."""
        return await bounded(self._new_page(), timeout=_NEW_PAGE_TIMEOUT_S, lifeline=self.lifeline)

    async def _new_page(self) -> Page:
        page = self.adopt(await self.context.new_page())
        if not self._owns_context:
            self._pages.append(page)
            await page.playwright_page.set_viewport_size(_viewport(self.viewport))
        await page.prepare()
        return page

    async def capture_html(
        self, html: str, base_url: str | None = None, mode: str = "compact", **options: Any
    ) -> View | Unchanged:
        """Render an HTML string with scripts disabled and the network blocked, then run
        the same engine as on a live page. `base_url` (absolute http or https) resolves
        relative links and is the URL the views report."""
        check_static_request(html, base_url, mode)
        url = static_base_url(base_url)
        context = await self.playwright_browser.new_context(
            java_script_enabled=False, viewport=_viewport(self.viewport)
        )
        try:
            page = await render_static(context, html, url)
            view = await page.snapshot(mode, **options)
        finally:
            await context.close()
        if hasattr(view, "url"):
            view.url = url  # the document itself is about:blank (see browser/static.py)
        return view

    async def close(self) -> None:
        """Close what pagelens opened and let go of the browser: a launched browser
        exits; an attached one keeps running with its own tabs."""
        try:
            async with asyncio.timeout(_CLOSE_TIMEOUT_S):
                if self._owns_context:
                    await self.context.close()
                else:
                    for page in self._pages:
                        if not page.playwright_page.is_closed():
                            await page.playwright_page.close()
                await self.playwright_browser.close()
        except (PlaywrightError, TimeoutError):
            pass  # already gone, or hung: stopping Playwright below ends our side anyway
        finally:
            await self._playwright.stop()

    async def __aenter__(self) -> Browser:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


async def _with_playwright(start: Callable[[Playwright], Awaitable[T]], limit: float) -> T:
    """Run `start` with a fresh Playwright, within `limit` seconds (a browser killed while
    it starts may leave a call unanswered); Playwright is stopped again if `start` fails."""
    playwright = await async_playwright().start()
    try:
        return await bounded(start(playwright), timeout=limit)
    except BaseException as exc:
        await playwright.stop()
        if isinstance(exc, TimeoutError):
            raise PagelensError(
                f"the browser did not start within {limit:g} s", code=ErrorCode.BROWSER_START_TIMEOUT
            ) from exc
        raise


def check_static_request(html: object, base_url: object, mode: object) -> None:
    """Refuse a bad capture_html call before any browser work."""
    if mode not in VIEWS:
        raise InvalidRequestError(f"unknown view {mode!r}; choose one of {', '.join(VIEWS)}")
    if not isinstance(html, str):
        raise InvalidRequestError(f"html must be a string, not {type(html).__name__}")
    static_base_url(base_url)  # type: ignore[arg-type]


def _hosts(allowed_hosts: Iterable[str] | None) -> Iterable[str] | None:
    # A bare string would be read as a list of one-letter hosts.
    if isinstance(allowed_hosts, str | bytes):
        raise InvalidRequestError(f"allowed_hosts must be a list of hosts, not the string {allowed_hosts!r}")
    if allowed_hosts is None:
        return None
    hosts = tuple(allowed_hosts)
    for host in hosts:
        if not isinstance(host, str) or not host.strip() or any(c in host for c in " ,/"):
            raise InvalidRequestError(f"allowed_hosts holds a bad host: {host!r}")
    return hosts


def _checked_viewport(viewport: object) -> tuple[int, int]:
    if (
        not isinstance(viewport, tuple | list)
        or len(viewport) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 10_000 for v in viewport)
    ):
        raise InvalidRequestError(f"viewport must be (width, height) in pixels, not {viewport!r}")
    return (viewport[0], viewport[1])


def _viewport(size: tuple[int, int]) -> ViewportSize:
    return ViewportSize(width=size[0], height=size[1])
