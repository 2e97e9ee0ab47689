"""Chromium's own error document: what a tab shows when its top frame failed to load.

A page whose script sends the tab to an unreachable address ends up showing Chromium's
"This site can't be reached" page (at chrome-error://chromewebdata/, while the address
reported for the tab may still be the attempted one). Read as content, it would pass
for the page. Whoever reads a tab after loading asks `navigation_error` first and
reports the failed load instead (docs/extraction.md, "Live pages").

Which network error it was is read from the document, where Chromium writes it; its
headless shell shows an empty one. Then an address the network policy refuses was
blocked by it (the policy decides before any request leaves), and any other is read from
the failed request, as the tab recorded it (browser/requests.py).
"""

from __future__ import annotations

import asyncio
import contextlib

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as PlaywrightPage

from pagelens.browser.network import BLOCKED_NET_ERROR, NetworkPolicy
from pagelens.browser.requests import RequestsInFlight
from pagelens.errors import CHROMIUM_NET_ERROR, ErrorCode, NavigationError

ERROR_DOCUMENT_PREFIX = "chrome-error://"
# The error document names the network error in an element of this class
# (ERR_NAME_NOT_RESOLVED, ERR_SSL_PROTOCOL_ERROR, ...).
_NET_ERROR_SCRIPT = "document.querySelector('.error-code')?.textContent?.trim() ?? ''"
# The frame tree is answered by the page's renderer. Chromium's error document always
# answers at once; a page whose own script keeps the main thread busy does not, and is
# not an error document: it is not waited for.
_ASK_TIMEOUT_S = 2.0
# The failed request's event may come a moment after the error document shows, on a
# busy machine: it is waited for this long (a CLI run beside the test suite once said
# navigation_failed with 1 s). Where it was recorded the wait ends at once; only a load
# that failed before the tab was watched waits it out. An address the policy refuses is
# not waited for: on a busy machine the event did not come within 3 s either.
_RECORD_WAIT_S = 3.0
_pending: set[asyncio.Future[tuple[str | None, str] | None]] = set()  # questions left to finish


async def navigation_error(
    page: PlaywrightPage, requests: RequestsInFlight | None = None, policy: NetworkPolicy | None = None
) -> NavigationError | None:
    """The failed load that Chromium's error document in `page`'s top frame stands for
    (code: Chromium's net error, e.g. ``err_name_not_resolved``, else
    ``navigation_failed``; the message names the address that failed), or None when the
    top frame holds a document of its own. `requests`: the page's, which recorded the
    failed load's request; `policy`: the one its browser context routes through."""
    if page.is_closed():
        return None
    # Not cancelled on time out: detaching its CDP session would wait for the busy page
    # too. It ends by itself when the page answers.
    asking = asyncio.ensure_future(_error_document(page))
    done, _ = await asyncio.wait({asking}, timeout=_ASK_TIMEOUT_S)
    if not done:
        _pending.add(asking)
        asking.add_done_callback(_pending.discard)
        return None  # a busy page of its own (see _ASK_TIMEOUT_S)
    found = asking.result()
    if found is None:
        return None
    failed_url, net_error = found
    if not net_error and failed_url and policy is not None and policy.refuses(failed_url):
        net_error = BLOCKED_NET_ERROR
    if not net_error and failed_url and requests is not None:
        recorded = await requests.failed_load_of(failed_url, _RECORD_WAIT_S)
        net_error = recorded.net_error if recorded is not None else ""
    address = failed_url or page.url
    code = net_error.lower() if CHROMIUM_NET_ERROR.match(net_error.lower()) else ErrorCode.NAVIGATION_FAILED
    reason = f"net::{net_error}" if code != ErrorCode.NAVIGATION_FAILED else "the browser showed its error page"
    return NavigationError.could_not_load(address, reason, code)


async def _error_document(page: PlaywrightPage) -> tuple[str | None, str] | None:
    """(the address that failed, the net error the document names, "" for none) when
    `page` shows the error document, else None."""
    try:
        session = await page.context.new_cdp_session(page)
    except PlaywrightError:
        return None  # the tab is going away: nothing shows in it
    try:
        frame = (await session.send("Page.getFrameTree"))["frameTree"]["frame"]
        failed_url = frame.get("unreachableUrl")
        if not failed_url and not str(frame.get("url", "")).startswith(ERROR_DOCUMENT_PREFIX):
            return None
        return failed_url, await _net_error(session)
    except PlaywrightError:
        return None  # the frame went while being asked: it showed no error document to read
    finally:
        with contextlib.suppress(PlaywrightError):
            await session.detach()


async def _net_error(session: CDPSession) -> str:
    result = await session.send("Runtime.evaluate", {"expression": _NET_ERROR_SCRIPT, "returnByValue": True})
    value = result.get("result", {}).get("value")
    return value if isinstance(value, str) else ""
