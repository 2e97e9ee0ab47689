"""Launching or attaching to Chromium, and the pages it holds."""

from __future__ import annotations

from collections.abc import Iterable
from types import TracebackType
from typing import Any

from playwright.async_api import Browser as PlaywrightBrowser
from playwright.async_api import BrowserContext, Playwright, Route, async_playwright
from playwright.async_api import Error as PlaywrightError

from pagelens.browser.launcher import CHROMIUM_ARGS, find_chromium
from pagelens.browser.network import NetworkPolicy
from pagelens.browser.page import Page
from pagelens.engine.models import View
from pagelens.errors import BrowserConnectError, BrowserNotFoundError

DEFAULT_VIEWPORT = (1280, 800)
STATIC_BASE_URL = "http://static.pagelens.invalid/"


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
        self.context = context
        self.policy = policy
        self.viewport = viewport
        self._owns_context = owns_context

    @classmethod
    async def launch(
        cls,
        *,
        headless: bool = True,
        allowed_hosts: Iterable[str] | None = None,
        viewport: tuple[int, int] = DEFAULT_VIEWPORT,
        executable_path: str | None = None,
        args: Iterable[str] = (),
    ) -> Browser:
        """Launch Chromium (see :func:`pagelens.browser.launcher.find_chromium`)."""
        executable = executable_path or find_chromium()
        playwright = await async_playwright().start()
        try:
            browser = await playwright.chromium.launch(
                executable_path=executable, headless=headless, args=[*CHROMIUM_ARGS, *args]
            )
        except PlaywrightError as exc:
            await playwright.stop()
            raise BrowserNotFoundError(f"could not start {executable}: {str(exc).splitlines()[0]}") from exc
        policy = NetworkPolicy(allowed_hosts)
        context = await browser.new_context(viewport=_viewport(viewport))
        self = cls(playwright, browser, context, policy=policy, viewport=viewport, owns_context=True)
        await self._apply_policy(context)
        return self

    @classmethod
    async def connect(
        cls,
        cdp_url: str,
        *,
        allowed_hosts: Iterable[str] | None = None,
        viewport: tuple[int, int] = DEFAULT_VIEWPORT,
        timeout: float = 15.0,
    ) -> Browser:
        """Attach to a running Chrome/Chromium by its DevTools URL (``http://127.0.0.1:9222``
        or a ``ws://`` endpoint). Pages open in the browser's existing profile."""
        playwright = await async_playwright().start()
        try:
            browser = await playwright.chromium.connect_over_cdp(cdp_url, timeout=timeout * 1000)
        except PlaywrightError as exc:
            await playwright.stop()
            raise BrowserConnectError(f"could not attach to {cdp_url}: {str(exc).splitlines()[0]}") from exc
        owns = not browser.contexts
        context = browser.contexts[0] if browser.contexts else await browser.new_context(viewport=_viewport(viewport))
        self = cls(playwright, browser, context, policy=NetworkPolicy(allowed_hosts), viewport=viewport, owns_context=owns)
        await self._apply_policy(context)
        return self

    async def _apply_policy(self, context: BrowserContext) -> None:
        if self.policy.restricts:
            await context.route("**/*", self.policy.handle)

    async def new_page(self) -> Page:
        page = await self.context.new_page()
        if not self._owns_context:
            await page.set_viewport_size(_viewport(self.viewport))
        return Page(page)

    async def capture_html(
        self, html: str, base_url: str | None = None, mode: str = "compact", **options: Any
    ) -> View:
        """Render an HTML string with scripts disabled and the network blocked, then run
        the same engine as on a live page. `base_url` resolves relative links."""
        url = base_url or STATIC_BASE_URL
        context = await self.playwright_browser.new_context(
            java_script_enabled=False, viewport=_viewport(self.viewport)
        )
        try:
            body = html.encode("utf-8")

            async def serve_only_the_document(route: Route) -> None:
                if route.request.url == url and route.request.resource_type == "document":
                    await route.fulfill(status=200, body=body, content_type="text/html; charset=utf-8")
                else:
                    await route.abort("blockedbyclient")

            await context.route("**/*", serve_only_the_document)
            page = Page(await context.new_page())
            await page.goto(url, wait_until="load")
            return await page.snapshot(mode, **options)
        finally:
            await context.close()

    async def close(self) -> None:
        try:
            if self._owns_context:
                await self.context.close()
            await self.playwright_browser.close()
        finally:
            await self._playwright.stop()

    async def __aenter__(self) -> Browser:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()


def _viewport(size: tuple[int, int]) -> dict[str, int]:
    return {"width": size[0], "height": size[1]}
