"""Whether the engine runs in the document a navigation left in the tab: an action
result's `content_script_status` (docs/actions.md).

The engine is pagelens' content script. It needs no reload to get in: it is put into an
isolated world of each new document over CDP, on first use. So a load's status is what
asking it something cheap tells: it answered (`loaded`), the tab shows Chromium's error
page, which is no page of the site to read (`unavailable`), or it could not be put in or
did not answer in time, a page whose main thread is stuck (`failed`).
"""

from __future__ import annotations

import asyncio

from playwright.async_api import Error as PlaywrightError

from pagelens.actions import bridge
from pagelens.actions.models import ContentScriptStatus
from pagelens.actions.tabs import Tab
from pagelens.errors import PagelensError

ERROR_PAGE_PREFIX = "chrome-error://"
PROBE_TIMEOUT_S = 3.0  # the summary's limit: a page that takes longer is not going to be read


async def engine_status(tab: Tab) -> ContentScriptStatus:
    """Ask the engine in `tab`'s top document for its document token (putting it in first
    when the document is new), within PROBE_TIMEOUT_S."""
    if tab.playwright_page.url.startswith(ERROR_PAGE_PREFIX):
        return ContentScriptStatus.UNAVAILABLE
    try:
        # Around the whole: making the world waits for the page's main thread too.
        async with asyncio.timeout(PROBE_TIMEOUT_S):
            await bridge.call(await bridge.main_world(tab.page), "docToken", timeout=PROBE_TIMEOUT_S)
    except (TimeoutError, PagelensError, PlaywrightError):  # stuck, an engine error, the document gone
        return ContentScriptStatus.FAILED
    return ContentScriptStatus.LOADED
