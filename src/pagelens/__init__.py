"""pagelens: eyes and hands on the web for AI agents.

async with pagelens.launch() as browser:
    page = await browser.new_page()
    await page.goto("https://example.com")
    summary = await page.summary("compact")
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any

from pagelens.browser import Browser, NetworkPolicy, Page, serve_directory
from pagelens.browser.browser import check_static_request
from pagelens.browser.loading import ScrollLoad
from pagelens.budget import Unchanged, view_hash
from pagelens.engine.models import (
    CaptureRequest,
    CompactSummary,
    DomView,
    FullSummary,
    InteractiveControl,
    PageModel,
    SemanticNode,
    SemanticView,
    SkeletonView,
    View,
)
from pagelens.errors import (
    BrowserConnectError,
    BrowserLaunchError,
    BrowserNotFoundError,
    CaptureError,
    CaptureTimeoutError,
    InvalidRequestError,
    NavigationError,
    PagelensError,
)
from pagelens.extraction import Extraction, SummarizeRequest, SummarizeResult, extract, summarize
from pagelens.vision import DomMode, Mark, PageStats, Screenshot, page_stats, screenshot, select_dom_mode

__version__ = "0.1.0"


class _Starting:
    """What :func:`launch` and :func:`connect` return: await it, or use ``async with``."""

    def __init__(self, start: Any) -> None:
        self._start = start
        self._browser: Browser | None = None

    def __await__(self) -> Generator[Any, None, Browser]:
        return self._start().__await__()

    async def __aenter__(self) -> Browser:
        self._browser = await self._start()
        return self._browser

    async def __aexit__(self, *exc: object) -> None:
        if self._browser is not None:
            await self._browser.close()


def launch(
    *,
    headless: bool = True,
    allowed_hosts: Iterable[str] | None = None,
    viewport: tuple[int, int] = (1280, 800),
    browser: str | None = None,
    timeout: float = 30.0,
) -> _Starting:
    """Launch Chromium. ``allowed_hosts`` limits the network (None: everything)."""
    return _Starting(
        lambda: Browser.launch(
            headless=headless,
            allowed_hosts=allowed_hosts,
            viewport=viewport,
            browser=browser,
            timeout=timeout,
        )
    )


def connect(
    cdp_url: str,
    *,
    allowed_hosts: Iterable[str] | None = None,
    viewport: tuple[int, int] = (1280, 800),
    timeout: float = 15.0,
) -> _Starting:
    """Attach to a running Chrome by its DevTools URL; closing leaves it running."""
    return _Starting(lambda: Browser.connect(cdp_url, allowed_hosts=allowed_hosts, viewport=viewport, timeout=timeout))


async def capture_html(
    html: str, base_url: str | None = None, mode: str = "compact", **options: Any
) -> View | Unchanged:
    """Run a view on an HTML string in a throwaway browser (scripts off, network blocked)."""
    check_static_request(html, base_url, mode)  # before launching anything
    async with launch(allowed_hosts=()) as browser:
        return await browser.capture_html(html, base_url, mode, **options)


def __getattr__(name: str) -> Any:
    # The agent brings the model SDKs: import it when it is asked for, not with pagelens.
    if name == "Agent":
        from pagelens.agent import Agent

        return Agent
    raise AttributeError(f"module 'pagelens' has no attribute {name!r}")


__all__ = [
    "Agent",
    "Browser",
    "BrowserConnectError",
    "BrowserLaunchError",
    "BrowserNotFoundError",
    "CaptureError",
    "CaptureRequest",
    "CaptureTimeoutError",
    "CompactSummary",
    "DomMode",
    "Extraction",
    "FullSummary",
    "InteractiveControl",
    "InvalidRequestError",
    "Mark",
    "NavigationError",
    "NetworkPolicy",
    "Page",
    "PageModel",
    "PageStats",
    "PagelensError",
    "Screenshot",
    "ScrollLoad",
    "SemanticNode",
    "SemanticView",
    "SkeletonView",
    "DomView",
    "SummarizeRequest",
    "SummarizeResult",
    "Unchanged",
    "View",
    "capture_html",
    "connect",
    "extract",
    "launch",
    "page_stats",
    "screenshot",
    "select_dom_mode",
    "serve_directory",
    "summarize",
    "view_hash",
]
