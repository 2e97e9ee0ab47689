"""The requests a tab has in flight, for settling (docs/actions.md, "Settling"); how
many it made, for what an action did; and the last load of its top frame that failed,
for what the error document stands for; and the navigations of its top frame that
ended without a document, so that nobody waits for their load.

Counted from Playwright's request / requestfinished / requestfailed events, which every
request of the page and its frames raises (a counter and a dict: cheap). Long-lived
requests must not hold a page up forever: event streams, media and beacons are never
counted, and a request in flight for longer than `long_after` seconds is taken for a
long-lived one (a stream that keeps sending, a long poll, a server that never answers)
and no longer counted either.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as PlaywrightPage
from playwright.async_api import Request

# Resource types that stay open by design, or that nothing on the page waits for.
UNCOUNTED_TYPES = frozenset({"eventsource", "websocket", "media", "ping", "cspviolationreport", "prefetch"})
LONG_AFTER_S = 2.0
_NO_DOCUMENT_STATUSES = frozenset({204, 205})  # a navigation answered so stays where it was
_FORGET_AFTER_S = 600.0  # a request neither finished nor failed by then is dropped from the books


@dataclass(frozen=True)
class FailedLoad:
    """A navigation of the top frame that failed."""

    url: str
    net_error: str  # Chromium's, e.g. ERR_NAME_NOT_RESOLVED; "" when not said


class RequestsInFlight:
    """The page's requests in flight, with when each started (the loop's clock)."""

    def __init__(self, page: PlaywrightPage, *, long_after: float = LONG_AFTER_S) -> None:
        self.long_after = long_after
        self.finished = 0  # counted requests that finished or failed, ever: a change shows activity
        self.made = 0  # every request the page made, ever, counted or not
        self.navigations = 0  # of them, navigations of the top frame
        # Of those, the ones that ended without a new document and with none other under
        # way: a mailto: or tel: link (handed to another application), a download, a stop,
        # an answer with no content (204, 205). No load follows them.
        self.navigations_abandoned = 0
        self.failed_load: FailedLoad | None = None  # the last one
        self._started: dict[Request, float] = {}
        self._navigating: set[Request] = set()  # top-frame navigations under way
        self._checks: set[asyncio.Future[None]] = set()  # held, so they are not collected midway
        self._abandoned = asyncio.Event()
        self._changed = asyncio.Event()
        self._load_failed = asyncio.Event()
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_failed)

    def _on_request(self, request: Request) -> None:
        self.made += 1
        if _navigates_top_frame(request):
            self.navigations += 1
            self._navigating.add(request)
        if request.resource_type in UNCOUNTED_TYPES:
            return
        now = asyncio.get_running_loop().time()
        for old in [r for r, at in self._started.items() if now - at > _FORGET_AFTER_S]:
            del self._started[old]
        self._started[request] = now
        self._changed.set()

    def _on_done(self, request: Request) -> None:
        if request in self._navigating:
            self._navigating.discard(request)
            # Asked of this request alone: listening to every response would have the
            # driver send each one of the page's to Python.
            self._checks.add(check := asyncio.ensure_future(self._check_content(request)))
            check.add_done_callback(self._checks.discard)
        if self._started.pop(request, None) is not None:
            self.finished += 1
            self._changed.set()

    def _on_failed(self, request: Request) -> None:
        if _navigates_top_frame(request):
            net_error = (request.failure or "").removeprefix("net::")
            self.failed_load = FailedLoad(request.url, net_error)
            self._load_failed.set()
            # Any other failure shows Chromium's error document, which loads.
            if net_error == "ERR_ABORTED":
                self._abandon(request)
        self._on_done(request)

    async def _check_content(self, request: Request) -> None:
        """A navigation that finished with no content (204, 205) loads nothing."""
        with contextlib.suppress(PlaywrightError):
            response = await request.response()
            if response is not None and response.status in _NO_DOCUMENT_STATUSES:
                self._abandon(request)

    def _abandon(self, request: Request) -> None:
        self._navigating.discard(request)
        if not self._navigating:  # one that replaced it is still under way otherwise
            self.navigations_abandoned += 1
            self._abandoned.set()

    async def wait_abandoned(self, since: int) -> None:
        """Wait until more than `since` navigations have been abandoned."""
        while self.navigations_abandoned <= since:
            self._abandoned.clear()
            await self._abandoned.wait()

    async def failed_load_of(self, url: str, timeout: float) -> FailedLoad | None:  # noqa: ASYNC109 - a wait, not a call
        """The recorded failure of the top frame's load of `url`, waited for `timeout`
        seconds at most; None when it did not come."""
        try:
            async with asyncio.timeout(timeout):
                while self.failed_load is None or self.failed_load.url != url:
                    self._load_failed.clear()
                    await self._load_failed.wait()
        except TimeoutError:
            return None
        return self.failed_load

    def pending(self) -> list[Request]:
        """The counted requests in flight that are not long-lived (yet), oldest first."""
        now = asyncio.get_running_loop().time()
        return [r for r, at in self._started.items() if now - at <= self.long_after]

    def in_flight(self) -> list[Request]:
        """Every counted request in flight, long-lived ones included, oldest first."""
        return list(self._started)

    async def wait_idle(self, timeout: float) -> bool:  # noqa: ASYNC109 - a deadline for the loop, not a call
        """Wait until no request is pending (finished, failed, or long-lived by now);
        False when one still is after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            now = loop.time()
            starts = [at for at in self._started.values() if now - at <= self.long_after]
            if not starts:
                return True
            if now >= deadline:
                return False
            # Woken by the next event, or when the oldest pending request turns long-lived.
            wake = min(deadline, min(starts) + self.long_after) - now
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), max(wake, 0.001))


def _navigates_top_frame(request: Request) -> bool:
    if not request.is_navigation_request():
        return False
    try:
        return request.frame.parent_frame is None
    except PlaywrightError:  # a popup's first request: issued before its frame existed
        return False
