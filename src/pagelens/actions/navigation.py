"""navigate, refresh, back and forward: load, settle, then the compact summary.

A navigation fails only when the page could not be loaded (a restricted address, or a
``net::ERR_*`` from Chromium, whose name becomes the error code), or when its document
is not parsed (DOMContentLoaded) within the navigation timeout. Past DOMContentLoaded,
`load` is waited for `load_wait` seconds at most: a page still loading then (a stream
that keeps sending, a resource whose server never answers) is settled and read as it is,
with ``load_complete: false`` (docs/actions.md, "Navigation"). An HTTP 404 or 500 page
loaded fine: its summary says `error_page`. The summary has its own 3 s limit and never
fails the navigation: a summary that cannot be taken is ``summary: null`` with
``summary_error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Response

from pagelens.actions.engine_status import PROBE_TIMEOUT_S, engine_status
from pagelens.actions.errors import ActionError
from pagelens.actions.models import ActionResult, ContentScriptStatus
from pagelens.actions.settle import SettlePolicy, settle
from pagelens.actions.tabs import Tab
from pagelens.browser.arrival import Arrival
from pagelens.browser.page import LOAD_WAIT_S, Page
from pagelens.engine.models import CompactSummary
from pagelens.errors import CaptureTimeoutError, ErrorCode, NavigationError, PagelensError

SUMMARY_TIMEOUT_S = 3.0  # the summary's own limit, independent of the navigation's wait
# What may be loaded; anything else (chrome:, view-source:, javascript:, ftp:, ...) is
# refused: a browser page or a script is no page to read, another scheme no page at all.
_WEB_SCHEMES = ("http", "https", "data")
_INTERRUPTION_RETRIES = 2
_ERROR_PAGE_WAIT_MS = 2000
_DOWNLOAD_NAME_WAIT_MS = 1000
_ARRIVAL_GRACE_S = 0.5  # on top of the arrival's limit: making the world, the last round trip
_LOAD_CHECK_S = 0.1  # whether `load` has come, asked of the driver, which knows at once
_MAX_URL_CHARS = 120
_SCHEME_RE = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_HOST_PORT_RE = re.compile(r"^[^:/]+:\d+(/|$)")
_LOOPBACK_RE = re.compile(r"^(localhost|127\.|\[::1\])", re.IGNORECASE)
_RELATIVE_RE = re.compile(r"^(/|\.\.?/|\?|#)")


@dataclass(frozen=True)
class NavigationOptions:
    settle: SettlePolicy
    timeout: float = 30.0
    allow_file_urls: bool = False
    restricts_hosts: bool = False  # an allow-list is in force (for the error message)
    summary_timeout: float = SUMMARY_TIMEOUT_S
    load_wait: float = LOAD_WAIT_S  # after DOMContentLoaded, for `load`


def check_url(url: str, *, allow_file_urls: bool, base: str = "") -> str:
    """The address to load: a path (`/docs/a.html`, `./a`, `?page=2`, `#top`), as the
    skeleton writes links within the page's own site, is taken relative to `base` (the
    page's address); a bare host gets a scheme (http for loopback, else https). Only
    http, https, data:, about:blank and (with `allow_file_urls`) file: pass; any other
    address is refused with `restricted_url`. Whatever loads an address an agent gave
    asks this first (navigate, summarize)."""
    url = url.strip()
    if _RELATIVE_RE.match(url):
        if not base.startswith(("http://", "https://", "file://")):  # a file stays subject to the rules below
            raise ActionError(
                ErrorCode.INVALID_REQUEST, f"cannot navigate to {url}: a path needs a page to be relative to"
            )
        url = urljoin(base, url)
    match = _SCHEME_RE.match(url)
    if match is None or _HOST_PORT_RE.match(url):
        url = ("http://" if _LOOPBACK_RE.match(url) else "https://") + url
        match = _SCHEME_RE.match(url)
    scheme = match.group(1).lower() if match else ""
    if scheme in ("http", "https") and not _host_of(url):
        raise ActionError(ErrorCode.INVALID_REQUEST, f"cannot navigate to {url}: it names no host")
    if scheme in _WEB_SCHEMES or url.lower() == "about:blank" or (scheme == "file" and allow_file_urls):
        return url
    what = "local files" if scheme == "file" else f"{scheme}: addresses"
    raise ActionError(ErrorCode.RESTRICTED_URL, f"cannot navigate to {url}: {what} are not allowed")


def _host_of(url: str) -> str:
    try:
        return urlsplit(url).hostname or ""
    except ValueError:  # an unclosed IPv6 bracket
        return ""


async def take_summary(
    page: Page,
    timeout: float = SUMMARY_TIMEOUT_S,  # noqa: ASYNC109 - the limit is passed on to the engine
    http_status: int | None = None,
) -> tuple[CompactSummary | None, str | None]:
    """The compact summary, or (None, why it is missing). `http_status`: the main
    document's, where known (it can make the page an error_page)."""
    try:
        summary = await asyncio.wait_for(
            page.summary("compact", timeout=timeout, http_status=http_status), timeout + 1.0
        )
    except (CaptureTimeoutError, TimeoutError):
        return None, ErrorCode.SUMMARY_TIMEOUT
    except PagelensError as exc:
        return None, ErrorCode.SCRIPT_INJECTION_FAILED if exc.code == "capture_failed" else exc.code
    except PlaywrightError:
        return None, ErrorCode.SCRIPT_INJECTION_FAILED
    return summary, None


def _canonical(url: str) -> str:
    parts = urlsplit(url)
    return parts._replace(path=parts.path or "/", fragment="").geturl().lower()


def _redirected(requested: str, response: Response | None, final_url: str) -> bool:
    if response is not None and response.request.redirected_from is not None:
        return True
    return _canonical(requested) != _canonical(final_url)


def _failure(exc: PlaywrightError, url: str, options: NavigationOptions) -> ActionError:
    error = NavigationError.from_playwright(exc, url)
    message = error.message
    if error.code == "err_blocked_by_client" and options.restricts_hosts:
        message += " (the host is not in allowed_hosts)"
    return ActionError(error.code, message)


async def navigate(
    tab: Tab, url: str, options: NavigationOptions, *, summary: bool, base: str, action: str = "navigate"
) -> ActionResult:
    """Load `url` in `tab`; a path is taken relative to `base`, the address of the page
    the agent asked from ('' for none)."""
    address = check_url(url, allow_file_urls=options.allow_file_urls, base=base)
    response = await _goto(tab, address, options)
    result = await _loaded(tab, action, response, options, summary=summary)
    if _redirected(address, response, result.url or ""):
        result.requested_url = address
    return result


async def _goto(tab: Tab, address: str, options: NavigationOptions) -> Response | None:
    page = tab.playwright_page
    downloads = len(tab.downloads)
    for attempt in range(_INTERRUPTION_RETRIES + 1):
        try:
            return await page.goto(address, wait_until="domcontentloaded", timeout=options.timeout * 1000)
        except PlaywrightError as exc:
            failure = _failure(exc, address, options)
            if failure.code == ErrorCode.NOT_A_PAGE:
                raise await _downloaded(tab, address, downloads) from exc
            interrupted = "interrupted by another navigation" in str(exc)
            if attempt == _INTERRUPTION_RETRIES or not interrupted:
                if not interrupted:
                    await _error_page_committed(tab)
                raise failure from exc
            # A navigation still on its way (an earlier one's error page, a redirect the
            # page scripted) replaced ours: let it finish, then go again.
            with contextlib.suppress(PlaywrightError):
                await page.wait_for_load_state("domcontentloaded", timeout=options.timeout * 1000)
    raise AssertionError("unreachable")


async def _downloaded(tab: Tab, address: str, before: int) -> ActionError:
    """The navigation to `address` became a download (the `before`-th of the tab's, or
    later): no document, and no error page. Its file name comes a moment after."""
    if len(tab.downloads) == before:
        with contextlib.suppress(PlaywrightError):
            await tab.playwright_page.wait_for_event("download", timeout=_DOWNLOAD_NAME_WAIT_MS)
    saved = f" ({tab.downloads[-1]})" if len(tab.downloads) > before else ""
    return ActionError(
        ErrorCode.NOT_A_PAGE,
        f"{address} is a file to download{saved}, not a page; the tab stays on {tab.playwright_page.url}",
    )


async def _error_page_committed(tab: Tab) -> None:
    """A failed load is followed by Chromium's error page, a moment later; wait for it,
    or it would interrupt whatever navigation comes next."""
    page = tab.playwright_page
    if page.url.startswith("chrome-error://"):
        return
    with contextlib.suppress(PlaywrightError):
        await page.wait_for_event(
            "framenavigated",
            predicate=lambda frame: frame == page.main_frame,
            timeout=_ERROR_PAGE_WAIT_MS,
        )


async def history(tab: Tab, action: str, options: NavigationOptions, *, summary: bool) -> ActionResult:
    """refresh, back or forward."""
    page = tab.playwright_page
    timeout = options.timeout * 1000
    if action != "refresh" and not await _has_entry(tab, action):
        raise ActionError(ErrorCode.NO_HISTORY, f"there is no page to go {action} to in tab {tab.id}")
    try:
        if action == "refresh":
            response = await page.reload(wait_until="domcontentloaded", timeout=timeout)
        elif action == "back":
            response = await page.go_back(wait_until="domcontentloaded", timeout=timeout)
        else:
            response = await page.go_forward(wait_until="domcontentloaded", timeout=timeout)
    except PlaywrightError as exc:
        raise _failure(exc, page.url, options) from exc
    return await _loaded(tab, action, response, options, summary=summary)


async def _has_entry(tab: Tab, action: str) -> bool:
    """Whether the tab's history has an entry to go `action` ("back" or "forward") to. Asked
    of the history itself: a same-document entry (pushState, a fragment) loads nothing, and
    may have the very address of the current one (a route pushed twice)."""
    world = await tab.page.main_world()
    history = await world.session.send("Page.getNavigationHistory")
    index = history["currentIndex"]
    return index > 0 if action == "back" else index < len(history["entries"]) - 1


async def _loaded(
    tab: Tab, action: str, response: Response | None, options: NavigationOptions, *, summary: bool
) -> ActionResult:
    page = tab.playwright_page
    http_status = response.status if response is not None else None
    arrival, status, load_complete = await _arrival(tab.page, options, summary=summary, http_status=http_status)
    # Chromium's error document answers at once: a page that does not answer is not one.
    asks = status is None and (arrival is None or arrival.error_document)
    if asks and (failed := await tab.page.navigation_error()) is not None:
        raise ActionError(failed.code, failed.message)
    tab.last_url = page.url
    result = ActionResult(
        success=True,
        action=action,
        url=page.url,
        title=await _title(tab, arrival, status),
        tab_id=tab.id,
        http_status=http_status,
        message=f"loaded {page.url}" + (f" (HTTP {http_status})" if http_status is not None else ""),
        load_complete=load_complete,
    )
    if not load_complete:
        result.message = f"{result.message}; {_still_loading(tab.page, options.load_wait)}"
    if arrival is not None and not arrival.error_document:
        result.content_script_status = ContentScriptStatus.LOADED
        if summary:
            result.summary, result.summary_error = arrival.summary, arrival.summary_error
    else:
        await landed(tab, result, summary=summary, summary_timeout=options.summary_timeout, status=status)
    return result


async def _arrival(
    page: Page, options: NavigationOptions, *, summary: bool, http_status: int | None
) -> tuple[Arrival | None, ContentScriptStatus | None, bool]:
    """The loaded document's arrival (`_arrive`), once it has settled, and whether its
    `load` came. The engine's world is made while the document loads, so that one call
    reads what the result says of the page (browser/arrival.py). Settled by a fixed delay,
    the page is asked at once, and the engine waits for `load` and the delay itself; where
    settling watches the page, it is asked once it has settled."""
    fixed_ms = options.settle.fixed_ms
    if fixed_ms is None:
        opening = asyncio.ensure_future(_ready(page))
        load_complete = await _loaded_and_settled(page, options)
        arrival, status = await _arrive(page, opening, options, summary=summary, http_status=http_status)
        return arrival, status, load_complete
    waits = (options.load_wait, fixed_ms / 1000)
    arrival, status = await _arrive(page, _ready(page), options, summary=summary, http_status=http_status, waits=waits)
    if arrival is not None:
        return arrival, None, arrival.loaded
    if status is ContentScriptStatus.FAILED:  # too busy to answer: whether `load` came, not waited for again
        return None, status, await page.wait_for_load(_LOAD_CHECK_S)
    # The document went away meanwhile (its script sent the tab on): the next one loads
    # and settles as a navigation's does, and is asked in separate calls.
    return None, None, await _loaded_and_settled(page, options)


async def _loaded_and_settled(page: Page, options: NavigationOptions) -> bool:
    """Wait for `load` (`load_wait` at most), then for the page to settle; whether `load` came."""
    load_complete = await page.wait_for_load(options.load_wait)
    await settle(page, options.settle, load_timeout=options.timeout)
    return load_complete


async def _title(tab: Tab, arrival: Arrival | None, status: ContentScriptStatus | None) -> str:
    if arrival is not None:
        return arrival.title
    # A page too busy to answer the engine is too busy to say its title.
    return "" if status is ContentScriptStatus.FAILED else await tab.title()


async def _ready(page: Page) -> None:
    with contextlib.suppress(PagelensError, PlaywrightError):  # the arrival tries again
        await page.ready()


async def _arrive(
    page: Page,
    opening: Awaitable[None],
    options: NavigationOptions,
    *,
    summary: bool,
    http_status: int | None,
    waits: tuple[float, float] = (0.0, 0.0),
) -> tuple[Arrival | None, ContentScriptStatus | None]:
    """The document's arrival (Page.arrive; `waits`: its `load_wait` and `delay`); else
    (None, FAILED) when the page did not answer in time, or (None, None) when it has to
    be asked in separate calls: the document went away meanwhile, or the engine failed."""
    load_wait, delay = waits
    # As long as the status probe and the summary would each have waited on their own.
    limit = max(PROBE_TIMEOUT_S, options.summary_timeout)
    try:
        # Making the world waits for the page too.
        async with asyncio.timeout(limit + load_wait + delay + _ARRIVAL_GRACE_S):
            await opening
            arrival = await page.arrive(
                summary=summary,
                http_status=http_status,
                summary_timeout=options.summary_timeout,
                load_wait=load_wait,
                delay=delay,
                timeout=limit,
            )
    except (TimeoutError, CaptureTimeoutError):
        return None, ContentScriptStatus.FAILED
    except (PagelensError, PlaywrightError):
        return None, None
    return arrival, None


async def landed(
    tab: Tab,
    result: ActionResult,
    *,
    summary: bool,
    summary_timeout: float,
    status: ContentScriptStatus | None = None,
) -> None:
    """What `result` says of the document an action loaded: whether the engine runs in it
    (`status`, where already known), and (with `summary`) its compact summary. Where the
    engine did not answer, the summary is not waited for a second time. (Chromium's error
    page still gets one: it says what went wrong.)"""
    status = status or await engine_status(tab)
    result.content_script_status = status
    if not summary:
        return
    if status is ContentScriptStatus.FAILED:
        result.summary, result.summary_error = None, ErrorCode.SCRIPT_INJECTION_FAILED
    else:
        result.summary, result.summary_error = await take_summary(tab.page, summary_timeout, result.http_status)


def _still_loading(page: Page, waited: float) -> str:
    """What held `load` back, for the message of a page read before it finished."""
    waiting = page.requests.in_flight()
    text = f"the page had not finished loading {waited:g} s after its content was parsed; read as it was"
    if waiting:
        text += f" ({len(waiting)} request(s) still open, the oldest {waiting[0].url[:_MAX_URL_CHARS]})"
    return text
