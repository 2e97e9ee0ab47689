"""Rendering an HTML string with scripts disabled and without touching the network.

The string is written into an ``about:blank`` tab (CDP ``Page.setDocumentContent``), not
served at `base_url`: navigating to `base_url` makes Chromium preconnect to its host and
fetch its favicon from the browser process, neither of which request interception sees.
Relative URLs resolve through a ``<base>`` element pointing at `base_url`, and the views
report `base_url` as their URL. Every request the document still makes is aborted.

Resource hints (preconnect, dns-prefetch, prefetch, preload, icons, manifests) and
``<meta http-equiv=refresh>`` are removed from the string first: Chromium acts on them
outside request interception too, and they are never content or controls.
"""

from __future__ import annotations

import re

from playwright.async_api import BrowserContext, Route

from pagelens.browser.guard import bounded
from pagelens.browser.page import Page
from pagelens.engine.models import check_base_url
from pagelens.errors import CaptureTimeoutError, InvalidRequestError

STATIC_BASE_URL = "http://static.pagelens.invalid/"
_LOAD_TIMEOUT_S = 10.0

# A start tag with its attributes, quoted values allowed to hold ">".
_ATTRIBUTES = r"""(?:[^>"']|"[^"]*"|'[^']*')*"""
_LINK_TAG = re.compile(rf"<link\b{_ATTRIBUTES}>", re.IGNORECASE)
_META_TAG = re.compile(rf"<meta\b{_ATTRIBUTES}>", re.IGNORECASE)
_REL = re.compile(r"""\brel\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_REFRESH = re.compile(r"""\bhttp-equiv\s*=\s*["']?\s*refresh\b""", re.IGNORECASE)
_NETWORK_RELS = frozenset(
    {
        "icon",
        "shortcut",
        "apple-touch-icon",
        "apple-touch-icon-precomposed",
        "mask-icon",
        "fluid-icon",
        "manifest",
        "preconnect",
        "dns-prefetch",
        "prefetch",
        "prerender",
        "preload",
        "modulepreload",
        "compression-dictionary",
    }
)


def static_base_url(base_url: str | None) -> str:
    """`base_url` checked: an absolute http(s) URL (None: a placeholder that resolves
    nowhere). Anything else, a file: URL above all, is refused."""
    if base_url is None:
        return STATIC_BASE_URL
    if not isinstance(base_url, str):
        raise InvalidRequestError(f"base_url must be a string, not {type(base_url).__name__}")
    try:
        return check_base_url(base_url)
    except ValueError as exc:
        raise InvalidRequestError(f"base_url: {exc}") from exc


def without_network_hints(html: str) -> str:
    """`html` minus the tags Chromium would act on outside request interception."""

    def link(match: re.Match[str]) -> str:
        rel = _REL.search(match.group(0))
        if rel is None:
            return match.group(0)
        tokens = set(next(g for g in rel.groups() if g is not None).lower().split())
        return "" if tokens & _NETWORK_RELS else match.group(0)

    def meta(match: re.Match[str]) -> str:
        return "" if _REFRESH.search(match.group(0)) else match.group(0)

    return _META_TAG.sub(meta, _LINK_TAG.sub(link, html))


async def render_static(context: BrowserContext, html: str, base_url: str) -> Page:
    """A tab of `context` showing `html` as if loaded from `base_url`, offline."""

    async def refuse(route: Route) -> None:
        # A navigation aborted as "aborted" is dropped without committing an error page.
        reason = "aborted" if route.request.is_navigation_request() else "blockedbyclient"
        await route.abort(reason)

    await context.route("**/*", refuse)
    try:  # a browser that dies meanwhile would leave Playwright's new_page unanswered
        page = Page(await bounded(context.new_page(), timeout=_LOAD_TIMEOUT_S))
    except TimeoutError as exc:
        raise CaptureTimeoutError(f"no tab opened within {_LOAD_TIMEOUT_S:g} s") from exc
    session = await page.playwright_page.context.new_cdp_session(page.playwright_page)
    try:
        tree = await session.send("Page.getFrameTree")
        frame_id = tree["frameTree"]["frame"]["id"]
        await session.send("Page.setDocumentContent", {"frameId": frame_id, "html": without_network_hints(html)})
    finally:
        await session.detach()
    await page.playwright_page.wait_for_load_state("load", timeout=_LOAD_TIMEOUT_S * 1000)
    world = await page.main_world()
    await world.call("setBaseUrl", base_url)
    return page
