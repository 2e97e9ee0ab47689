"""scroll_to_load: make a virtual list or an infinite scroll show more.

The semantic view reports scrollers with more content (`scrollableContainers`, `hasMore`
and each control's `scr.h`); this scrolls one of them, or the page, a screen at a time and
counts what appears, until `max_items` new items have shown, until the end is reached
and nothing more loads within `idle` seconds, or until `timeout`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from typing import Any, Literal

from pydantic import BaseModel

from pagelens.browser.world import FrameWorld
from pagelens.errors import ErrorCode, InvalidRequestError, PagelensError

MAX_ITEMS_LIMIT = 10_000
_POLL_S = 0.1
# What arrives this soon after a scroll is the list rendering what the scroll showed; then
# the next scroll. At the end, `idle` is how long a loader may take to bring more.
_SETTLE_S = 0.3


class ScrollLoad(BaseModel):
    """What scroll_to_load did. Items are the children of the scroller's biggest list,
    told apart by content (engine/js/act_load.js); `new_controls` are those inside the
    new items. `stopped`: "max_items" (enough is new), "end" (at the end, and nothing
    more loaded within the idle time), "timeout"."""

    container: str  # "page", or the scrolled element as "tag#id.class role=... \"name\""
    new_items: int
    new_controls: int
    reached_end: bool
    stopped: Literal["max_items", "end", "timeout"]
    scrolls: int


async def scroll_to_load(
    world: FrameWorld,
    element_id: str | None,
    *,
    max_items: int = 100,
    timeout: float = 15.0,  # noqa: ASYNC109 - a budget for the whole loop, checked between steps
    idle: float = 1.5,
) -> ScrollLoad:
    """Scroll the scroller of `element_id` (the page when None) in `world` until
    `max_items` new items show, the end is reached, or `timeout` seconds pass."""
    _check(max_items, timeout, idle)
    start = await world.call("loadStart", element_id)
    if start.get("missing"):
        raise PagelensError(f"no element with id {element_id} on this page", code=ErrorCode.NOT_FOUND)
    token = start["token"]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    counts, scrolls = start, 0

    def outcome(stopped: Literal["max_items", "end", "timeout"]) -> ScrollLoad:
        return ScrollLoad(
            container=start["container"],
            new_items=counts["items"] - start["items"],
            new_controls=counts["controls"] - start["controls"],
            reached_end=stopped == "end",
            stopped=stopped,
            scrolls=scrolls,
        )

    try:
        while True:
            moved = (await world.call("loadScroll", token))["moved"]
            scrolls += moved
            quiet_since = loop.time()
            while True:
                await asyncio.sleep(_POLL_S)
                latest = await world.call("loadCount", token)
                if _grew(latest, counts):
                    quiet_since = loop.time()
                counts = latest
                now = loop.time()
                if counts["items"] - start["items"] >= max_items:
                    return outcome("max_items")
                if now >= deadline:
                    return outcome("timeout")
                quiet = now - quiet_since
                if (counts["atEnd"] or not moved) and quiet >= idle:
                    return outcome("end")
                if not counts["atEnd"] and moved and quiet >= _SETTLE_S:
                    break
    finally:
        with contextlib.suppress(PagelensError):
            await world.call("loadEnd", token)


def _grew(latest: dict[str, Any], before: dict[str, Any]) -> bool:
    return any(latest[key] != before[key] for key in ("items", "controls", "height"))


def _check(max_items: object, timeout: object, idle: object) -> None:
    if isinstance(max_items, bool) or not isinstance(max_items, int) or not 1 <= max_items <= MAX_ITEMS_LIMIT:
        raise InvalidRequestError(f"max_items must be a whole number from 1 to {MAX_ITEMS_LIMIT}, not {max_items!r}")
    for name, value in (("timeout", timeout), ("idle", idle)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
            raise InvalidRequestError(f"{name} must be a positive number of seconds, not {value!r}")
