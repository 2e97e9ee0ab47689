"""The live-page pre-pass (prune.js, bundled as prune.bundle.js): a copy of the document without hidden elements,
navigation landmarks and overlays, made in pagelens' isolated world of a page.

An HTML string gets the same pass in a static tab (scripts off, network blocked, see
browser/static.py), so a page and a saved copy of it go through one code path."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from playwright.async_api import Error as PlaywrightError

from pagelens.browser.browser import Browser
from pagelens.browser.page import Page
from pagelens.browser.static import render_static
from pagelens.engine import EntryScript
from pagelens.errors import CaptureError, CaptureTimeoutError, ErrorCode, PagelensError

_GRACE_S = 1.0


@dataclass
class PrunedDocument:
    html: str
    url: str
    language: str
    title: str
    dropped: dict[str, int] = field(default_factory=dict)


PREPASS = EntryScript("prepass", __package__, "prune.bundle.js")


async def prune_page(page: Page, timeout_s: float, base_url: str | None = None) -> PrunedDocument:
    """Run the pre-pass on `page`, read as if loaded from `base_url` when given (its links
    resolve against it, and it is the document's url)."""
    # The script stops itself a little before the limit, so a huge page fails with a
    # clear message rather than a call cut short.
    options = {"timeoutMs": max(1, int(timeout_s * 1000 * 0.8)), "baseUrl": base_url}
    try:
        async with asyncio.timeout(timeout_s + _GRACE_S):
            world = await page.main_world()
            result = await world.call("prune", options, timeout=timeout_s, entry=PREPASS)
    except (TimeoutError, CaptureTimeoutError) as exc:
        raise CaptureTimeoutError(f"reading the page for extraction took longer than {timeout_s:g} s") from exc
    except CaptureError as exc:
        if "ran out of time" in exc.message:
            raise CaptureTimeoutError(f"reading the page for extraction took longer than {timeout_s:g} s") from exc
        raise
    except PlaywrightError as exc:
        if page.playwright_page.is_closed():
            raise PagelensError("the page is closed", code=ErrorCode.PAGE_CLOSED) from exc
        raise CaptureError(f"could not read the page: {exc}") from exc
    return PrunedDocument(
        html=result["html"],
        url=result["url"],
        language=result["lang"],
        title=result["title"],
        dropped=result["dropped"],
    )


async def prune_html(browser: Browser, html: str, base_url: str, timeout_s: float) -> PrunedDocument:
    """Render `html` as if loaded from `base_url` (scripts off, offline), then prune it."""
    context = await browser.playwright_browser.new_context(
        java_script_enabled=False, viewport={"width": browser.viewport[0], "height": browser.viewport[1]}
    )
    try:
        async with asyncio.timeout(timeout_s + _GRACE_S):
            page = await render_static(context, html, base_url)
        return await prune_page(page, timeout_s, base_url)
    except TimeoutError as exc:
        raise CaptureTimeoutError(f"rendering the HTML took longer than {timeout_s:g} s") from exc
    finally:
        await context.close()
