"""Waiting for a page to settle before reading it.

Instead of a blind delay after `load`, wait until the DOM has been quiet for `quiet_ms`
(a MutationObserver in the engine's world) with no request in flight, never longer than
`cap_ms` (docs/actions.md, "Settling"). Requests that stay open by design (event streams,
media) and requests in flight for over two seconds (a stream, a long poll, a server that
never answers) do not hold settling up (browser/requests.py). A fixed delay stays
available (`fixed_ms`), for comparison and for pages that animate forever.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, replace

from playwright.async_api import Error as PlaywrightError

from pagelens.actions import bridge
from pagelens.actions.errors import ActionError
from pagelens.browser.page import LOAD_WAIT_S, Page

_MAX_DOCUMENT_CHANGES = 3
# The quiet window after typing: a search field asks its server (and shows suggestions)
# only once the keys have paused for its debounce, commonly 300 to 500 ms, and typing
# changes no node of the DOM meanwhile. A shorter window would read the page before that.
TYPING_QUIET_MS = 600


@dataclass(frozen=True)
class SettlePolicy:
    quiet_ms: int = 300
    cap_ms: int = 3000
    fixed_ms: int | None = None  # set: wait exactly this long instead of watching the DOM

    def __post_init__(self) -> None:
        if self.quiet_ms < 0 or self.cap_ms < 0 or (self.fixed_ms is not None and self.fixed_ms < 0):
            raise ValueError("settle times must not be negative")

    def after_typing(self) -> SettlePolicy:
        """This policy with a quiet window long enough for a debounced field to answer."""
        return replace(self, quiet_ms=max(self.quiet_ms, TYPING_QUIET_MS))


async def settle(page: Page, policy: SettlePolicy, *, load_timeout: float = 30.0) -> bool:
    """Wait until `page` has settled; True when it did before the cap. A navigation during
    the wait restarts it on the new document, once that is loaded (`load_wait`, as a
    navigation waits: docs/actions.md)."""
    if policy.fixed_ms is not None:
        await asyncio.sleep(policy.fixed_ms / 1000)
        return True
    for _ in range(_MAX_DOCUMENT_CHANGES):
        try:
            return await _settle_document(page, policy)
        except bridge.DocumentChanged:
            with contextlib.suppress(PlaywrightError):
                await page.playwright_page.wait_for_load_state("domcontentloaded", timeout=load_timeout * 1000)
            await page.wait_for_load(LOAD_WAIT_S)
        except ActionError:
            return False  # a page too busy to answer has not settled; the cap has passed
    return False


async def _settle_document(page: Page, policy: SettlePolicy) -> bool:
    """A quiet DOM with no request in flight: a request in flight is waited for, then
    the DOM must be quiet again (what the response brings shows up meanwhile). A request
    that ended during the quiet window counts as activity too."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + policy.cap_ms / 1000
    world = await bridge.main_world(page)
    requests = page.requests
    while True:
        if not await requests.wait_idle(deadline - loop.time()):
            return False
        remaining = deadline - loop.time()
        finished = requests.finished
        outcome = await bridge.call(
            world, "waitQuiet", policy.quiet_ms, max(0, round(remaining * 1000)), timeout=remaining + 2.0
        )
        if not outcome["quiet"]:
            return False
        if requests.finished == finished and not requests.pending():
            return True
