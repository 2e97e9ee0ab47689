"""Waiting on the browser with a limit that holds when the browser dies.

Playwright does not end every call whose browser dies under it: a `new_page` under way when
Chromium is killed never returns (Playwright 1.65), although the browser's 'disconnected'
event and its pages' 'close' come at once. And `asyncio.wait_for` waits, after its timeout,
for the call it cancelled to end. So what the browser layer and the session await of the
browser goes through `bounded`: the call races a deadline and the end of its browser or
page (a `Lifeline`), and on either is cancelled and left behind rather than waited for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

from playwright.async_api import Browser as PlaywrightBrowser

from pagelens.errors import ErrorCode, PagelensError

T = TypeVar("T")


class BrowserGoneError(PagelensError):
    """The browser went away during the call: it crashed, was killed or was closed."""

    code = ErrorCode.BROWSER_ERROR


class Lifeline:
    """A browser's life: `ended` is done once it disconnects (Playwright's 'disconnected',
    which comes at once when Chromium dies)."""

    def __init__(self, browser: PlaywrightBrowser) -> None:
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if browser.is_connected():
            browser.once("disconnected", self._end)
        else:  # the event has come already, and will not again
            self._end()

    def _end(self, *_: object) -> None:
        if not self.ended.done():
            self.ended.set_result(None)


async def bounded(work: Awaitable[T], *, timeout: float, lifeline: Lifeline | None = None) -> T:  # noqa: ASYNC109 - the limit is the point
    """What `work` returns or raises, unless `timeout` seconds pass first (TimeoutError) or
    the `lifeline`'s browser dies (BrowserGoneError). Then `work` is cancelled, and not
    waited for."""
    task = asyncio.ensure_future(work)
    racers: set[asyncio.Future[Any]] = {task} if lifeline is None else {task, lifeline.ended}
    try:
        done, _ = await asyncio.wait(racers, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not task.done():  # timed out, cut short, or the caller was cancelled
            task.cancel()
            task.add_done_callback(_drop)
    if task in done:
        return task.result()
    if lifeline is not None and lifeline.ended.done():
        raise BrowserGoneError("the browser went away during the call (it crashed, was killed or was closed)")
    raise TimeoutError(f"no answer within {timeout:g} s")


def _drop(task: asyncio.Future[Any]) -> None:
    """Take the outcome of work left behind, which nobody awaits: asyncio would log it."""
    if not task.cancelled():
        task.exception()
