"""Waiting for a page to settle before reading it.

Instead of a blind delay after `load`, wait until the DOM has been quiet for
`quiet_ms` (a MutationObserver in the engine's world), never longer than `cap_ms`.
A fixed delay stays available (`fixed_ms`), for comparison and for pages that animate
forever.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from pagelens.actions import bridge
from pagelens.actions.errors import ActionError
from pagelens.browser.page import Page

_MAX_DOCUMENT_CHANGES = 3


@dataclass(frozen=True)
class SettlePolicy:
    quiet_ms: int = 300
    cap_ms: int = 3000
    fixed_ms: int | None = None  # set: wait exactly this long instead of watching the DOM

    def __post_init__(self) -> None:
        if self.quiet_ms < 0 or self.cap_ms < 0 or (self.fixed_ms is not None and self.fixed_ms < 0):
            raise ValueError("settle times must not be negative")


async def settle(page: Page, policy: SettlePolicy, *, load_timeout: float = 30.0) -> bool:
    """Wait until `page` has settled; True when the DOM went quiet before the cap. A
    navigation during the wait restarts it on the new document, after its `load`."""
    if policy.fixed_ms is not None:
        await asyncio.sleep(policy.fixed_ms / 1000)
        return True
    for _ in range(_MAX_DOCUMENT_CHANGES):
        try:
            world = await bridge.main_world(page)
            outcome = await bridge.call(
                world,
                "waitQuiet",
                policy.quiet_ms,
                policy.cap_ms,
                timeout=policy.cap_ms / 1000 + 2.0,
            )
            return bool(outcome["quiet"])
        except bridge.DocumentChanged:
            await page.playwright_page.wait_for_load_state("load", timeout=load_timeout * 1000)
        except ActionError:
            return False  # a page too busy to answer has not settled; the cap has passed
    return False
