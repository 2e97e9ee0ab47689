"""Taking a screenshot for an agent: the viewport, the whole page or one element, as a
JPEG at most 1024 px wide, 8000 px high and 2 MB of base64 with a hash, Set-of-Marks on request.

Chromium captures at CSS scale, so one pixel of the capture is one CSS pixel whatever
the device scale factor, and a control's box maps onto the image by one factor (the
resize). It captures a JPEG of quality 90: encoding and decoding a PNG took two to three
times as long (on a loaded 2-core machine, 250-400 ms against 75-185 ms for the capture),
and the resize and the final quality 70 leave nothing of the difference to see.
Decoding, resizing, marking, hashing and encoding are CPU work on pixels, done in a
worker thread so the event loop keeps serving other calls."""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import FloatRect
from playwright.async_api import Page as PlaywrightPage
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from pagelens.browser.page import Page, time_limit
from pagelens.browser.world import FrameWorld, RemoteObject
from pagelens.engine.ids import ElementId
from pagelens.engine.models import SemanticNode
from pagelens.errors import CaptureError, CaptureTimeoutError, ErrorCode, InvalidRequestError, PagelensError, first_line
from pagelens.vision.imaging import render
from pagelens.vision.models import JPEG_QUALITY, MAX_WIDTH, Screenshot, ScreenshotRequest

SCREENSHOT_TIMEOUT_S = 30.0
CAPTURE_QUALITY = 90  # the capture's JPEG quality, before the resize (see above)
# A full page is cut at this width or height (CSS pixels; `truncated: true`), and to this
# many pixels: a larger capture is slow, weighs megabytes, and a model would shrink it to
# an unreadable strip anyway.
MAX_FULL_PAGE_SIDE = 16_384
MAX_FULL_PAGE_PIXELS = 40_000_000
_GRACE_S = 0.5  # on top of the limit: the last CDP round trip after Playwright gives up


@dataclass(frozen=True)
class _Box:
    """A rectangle in the viewport, CSS pixels."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class _Viewport:
    # How far the viewport lies from the top-left corner of the page's content, where a
    # full-page capture's clip counts from. Not scrollX: a right-to-left page that scrolls
    # sideways has its content reach left of the root (scrollX 0 at the right, negative
    # leftwards).
    scroll_x: float
    scroll_y: float
    width: float
    height: float
    document_width: float
    document_height: float

    def holds(self, box: _Box) -> bool:
        return box.x >= 0 and box.y >= 0 and box.x + box.width <= self.width and box.y + box.height <= self.height


async def screenshot(
    page: Page,
    *,
    full_page: bool = False,
    element_id: str | None = None,
    selector: str | None = None,
    marks: bool = False,
    screenshot_hash: str | None = None,
    max_width: int = MAX_WIDTH,
    quality: int = JPEG_QUALITY,
    timeout: float | None = None,  # noqa: ASYNC109
) -> Screenshot:
    """A JPEG of `page`'s viewport, of the whole page (`full_page`) or of one element (its
    stable `element_id` from any view, or the first match of a CSS `selector`, scrolled
    into view), at most `max_width` pixels wide. `marks` draws each visible
    control's box and semantic-view id on it (Set-of-Marks). Given the `hash` of an
    earlier screenshot as `screenshot_hash`, an unchanged screen comes back with
    `unchanged: true` and no image. Unknown elements raise a PagelensError
    with code `not_found`; time limit 30 s by default."""
    request = ScreenshotRequest.parse(
        full_page=full_page,
        element_id=element_id,
        selector=selector,
        marks=marks,
        screenshot_hash=screenshot_hash,
        max_width=max_width,
        quality=quality,
    )
    return await take_screenshot(page, request, time_limit(timeout, SCREENSHOT_TIMEOUT_S))


async def take_screenshot(page: Page, request: ScreenshotRequest, limit: float) -> Screenshot:
    """Shoot `page` as `request` says, within `limit` seconds (else CaptureTimeoutError)."""
    try:
        async with asyncio.timeout(limit + _GRACE_S):
            return await _take(page, request, limit)
    except (TimeoutError, PlaywrightTimeoutError) as exc:
        raise CaptureTimeoutError(f"the screenshot took longer than {limit:g} s") from exc
    except PlaywrightError as exc:  # the tab closed, crashed or detached meanwhile
        if page.playwright_page.is_closed():
            raise PagelensError("the page is closed", code=ErrorCode.PAGE_CLOSED) from exc
        raise CaptureError(f"could not take the screenshot: {first_line(exc)}") from exc


async def _take(page: Page, request: ScreenshotRequest, limit: float) -> Screenshot:
    # The element first: scrolling it into view moves everything else.
    subject = await _element_box(page, request) if request.kind == "element" else None
    viewport = None if request.kind == "viewport" else await _viewport(page)
    nodes: list[SemanticNode] = []
    if request.marks:
        # The same view, and so the same ids, an agent reads; beyond the viewport only
        # when the image reaches there.
        tree = await page.semantic_tree(include_boxes=True, include_offscreen=request.kind != "viewport")
        nodes = tree.interactive_tree
    capture, origin, truncated = await _capture(page.playwright_page, request, subject, viewport, limit)
    rendered = await asyncio.to_thread(
        render,
        capture,
        origin=origin,
        nodes=nodes,
        marks=request.marks,
        max_width=request.max_width,
        quality=request.quality,
        known_hash=request.screenshot_hash,
    )
    return Screenshot(
        url=page.url,
        kind=request.kind,
        width=rendered.width,
        height=rendered.height,
        scale=round(rendered.scale, 4),
        origin=origin,
        hash=rendered.hash,
        unchanged=rendered.image is None,
        image=rendered.image,
        element_id=request.element_id,
        truncated=truncated,
        quality=rendered.quality,
        reduced=rendered.reduced,
        marks=rendered.marks if request.marks else None,
    )


async def _capture(
    page: PlaywrightPage,
    request: ScreenshotRequest,
    subject: _Box | None,
    viewport: _Viewport | None,
    limit: float,
) -> tuple[bytes, tuple[int, int], bool]:
    """The capture, where its top-left corner lies in the viewport, and whether it was
    cut. Playwright hides the text caret while it shoots, so a focused field does not
    blink the hash."""
    options: dict[str, Any] = {"type": "jpeg", "quality": CAPTURE_QUALITY, "scale": "css", "timeout": limit * 1000}
    if viewport is None:  # the viewport itself: where it lies needs no measuring
        return await page.screenshot(**options), (0, 0), False
    if request.kind == "full_page":
        width = min(viewport.document_width, MAX_FULL_PAGE_SIDE)
        height = min(viewport.document_height, MAX_FULL_PAGE_SIDE, MAX_FULL_PAGE_PIXELS // width)
        clip = FloatRect(x=0, y=0, width=width, height=height)
        origin = (-round(viewport.scroll_x), -round(viewport.scroll_y))
        capture = await page.screenshot(full_page=True, clip=clip, **options)
        return capture, origin, (width, height) != (viewport.document_width, viewport.document_height)
    assert subject is not None
    left, top = math.floor(subject.x), math.floor(subject.y)
    width = math.ceil(subject.x + subject.width) - left
    height = math.ceil(subject.y + subject.height) - top
    if viewport.holds(_Box(left, top, width, height)):
        capture = await page.screenshot(clip=FloatRect(x=left, y=top, width=width, height=height), **options)
        return capture, (left, top), False
    # Larger than the viewport: Chromium paints beyond it for this one capture, in document
    # coordinates, where nothing lies left of or above 0.
    scroll_x, scroll_y = round(viewport.scroll_x), round(viewport.scroll_y)
    x, y = max(0, left + scroll_x), max(0, top + scroll_y)
    clip = FloatRect(x=x, y=y, width=left + scroll_x + width - x, height=top + scroll_y + height - y)
    capture = await page.screenshot(full_page=True, clip=clip, **options)
    return capture, (x - scroll_x, y - scroll_y), False


async def _viewport(page: Page) -> _Viewport:
    # The document's size as Playwright measures a full page: the largest of the root's
    # and the body's scroll sizes (one of them is the scrolling element, by its mode).
    world = await page.main_world()
    sizes = (float(v) for v in await world.call("viewportMetrics"))
    # Where the viewport lies in the content, as Chromium counts a capture's clip.
    layout = (await world.session.send("Page.getLayoutMetrics"))["cssLayoutViewport"]
    return _Viewport(float(layout["pageX"]), float(layout["pageY"]), *sizes)


# ---- the element of an element shot


async def _element_box(page: Page, request: ScreenshotRequest) -> _Box:
    """The element's border box in the viewport after scrolling it into view (as
    Playwright's element screenshots do). An id "12.5" is element 5 in the document of
    frame element 12: its box is moved by the content origin of every frame it is in."""
    world = await page.main_world()
    if request.selector is not None:
        target = await _query(world, request.selector)
        described = f"nothing matches selector {request.selector!r}"
        owners: list[tuple[FrameWorld, str]] = []
    else:
        assert request.element_id is not None
        element = ElementId.parse(request.element_id)
        owners = []
        for owner in element.frames:
            owner_object = await world.element_object(owner)
            if owner_object is None:
                raise PagelensError(f"no frame element with id {owner} on this page", code=ErrorCode.NOT_FOUND)
            owners.append((world, owner_object))
            world = await page.child_world(world, owner)
        target = await world.element_object(element.local)
        described = f"no element with id {request.element_id} on this page; take a fresh view"
    if target is None:
        raise PagelensError(described, code=ErrorCode.NOT_FOUND)
    x, y, width, height = await _call_on(world, target, "measureIntoView")
    if width < 1 or height < 1:
        raise PagelensError("the element has no size on screen (hidden or empty)", code=ErrorCode.NOT_VISIBLE)
    for owner_world, owner_object in owners:
        dx, dy = await _call_on(owner_world, owner_object, "frameContentOrigin")
        x, y = x + dx, y + dy
    return _Box(x, y, width, height)


async def _query(world: FrameWorld, selector: str) -> str | None:
    """The first element matching CSS `selector` in the top document, as a remote object."""
    try:
        object_id: str | None = await world.call("querySelector", selector, by_value=False)
    except CaptureError as exc:
        if "SyntaxError" in exc.message:
            raise InvalidRequestError(f"selector {selector!r} is not valid CSS") from exc
        raise
    return object_id


async def _call_on(world: FrameWorld, object_id: str, measure: str) -> list[float]:
    """The engine's `measure` of the element, in its world; the object is released after."""
    try:
        box: list[float] = await world.call(measure, RemoteObject(object_id))
        return box
    finally:
        await world.release(object_id)
