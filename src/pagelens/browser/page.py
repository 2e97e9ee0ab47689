"""A browser tab and its views.

Every view has a time limit (``timeout`` arguments, in seconds, are handed on to the
browser and enforced around each call; hence the ASYNC109 exemptions)."""

from __future__ import annotations

import asyncio
import math
import re
from dataclasses import dataclass
from typing import Any

from playwright.async_api import CDPSession, Frame
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as PlaywrightPage
from pydantic import ValidationError

from pagelens.browser import loading
from pagelens.browser.loading import ScrollLoad
from pagelens.browser.world import FrameWorld
from pagelens.engine.hashing import Unchanged, check_hash
from pagelens.engine.models import (
    VIEW_MODELS,
    VIEWS,
    CaptureRequest,
    CompactSummary,
    FullSummary,
    PageModel,
    SemanticView,
    SkeletonView,
    Unreachable,
    View,
)
from pagelens.errors import CaptureError, CaptureTimeoutError, InvalidRequestError, NavigationError, PagelensError
from pagelens.vision.models import JPEG_QUALITY, MAX_WIDTH, Screenshot, ScreenshotRequest
from pagelens.vision.screenshot import SCREENSHOT_TIMEOUT_S, take_screenshot

# Hard limits per view (000 §3.6 for summaries, 002 for the interaction model).
VIEW_TIMEOUTS: dict[str, float] = {
    "compact": 3.0,
    "full": 3.0,
    "interaction": 30.0,
    "semantic": 30.0,
    "skeleton": 30.0,
}
_CLOSED_SHADOW_SCAN_LIMIT = 200


class Page:
    """A tab. Navigate with :meth:`goto`, read it with :meth:`summary`,
    :meth:`interaction_model`, :meth:`semantic_tree`, :meth:`skeleton` or :meth:`snapshot`."""

    def __init__(self, page: PlaywrightPage) -> None:
        self.playwright_page = page
        self._session: CDPSession | None = None
        self._main_frame_id: str | None = None
        self._worlds: dict[str, FrameWorld] = {}
        self._frame_sessions: dict[Frame, CDPSession | None] = {}

    @property
    def url(self) -> str:
        return self.playwright_page.url

    async def title(self) -> str:
        return await self.playwright_page.title()

    async def goto(
        self,
        url: str,
        *,
        wait_until: str = "load",
        timeout: float = 30.0,  # noqa: ASYNC109
    ) -> int | None:
        """Navigate and wait for `wait_until`; returns the HTTP status (None for non-HTTP
        URLs). Raises NavigationError with Chromium's ``net::ERR_*`` reason as its code."""
        if wait_until not in _WAIT_UNTIL:
            raise InvalidRequestError(f"wait_until must be one of {', '.join(_WAIT_UNTIL)}, not {wait_until!r}")
        limit = _time_limit(timeout, 30.0)
        try:
            response = await self.playwright_page.goto(
                url,
                wait_until=wait_until,  # type: ignore[arg-type]
                timeout=limit * 1000,
            )
        except PlaywrightError as exc:
            raise NavigationError.from_playwright(exc, url) from exc
        return response.status if response else None

    async def set_content(self, html: str) -> None:
        await self.playwright_page.set_content(html)

    async def close(self) -> None:
        await self.playwright_page.close()

    # ---- views

    async def summary(
        self,
        mode: str = "compact",
        *,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> CompactSummary | FullSummary:
        """The compact (000 §3.3) or full (000 §4.3) page summary."""
        if mode not in ("compact", "full"):
            raise InvalidRequestError(f"summary mode must be 'compact' or 'full', not {mode!r}")
        return await self.snapshot(mode, timeout=timeout)  # type: ignore[return-value]

    async def interaction_model(
        self,
        request: CaptureRequest | dict[str, Any] | None = None,
        *,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> PageModel:
        """The interaction model (002 PageModel) of the page and its frames."""
        return await self.snapshot("interaction", request=request, timeout=timeout)  # type: ignore[return-value]

    async def semantic_tree(
        self,
        *,
        include_offscreen: bool = False,
        include_boxes: bool = False,
        include_values: bool = False,
        max_iframe_depth: int = 1,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> SemanticView:
        """The minified V3 semantic tree (004 §6). Off-screen controls are pruned unless
        `include_offscreen`; values are redacted unless `include_values` (and sensitive
        fields are never shown)."""
        return await self.snapshot(  # type: ignore[return-value]
            "semantic",
            include_offscreen=include_offscreen,
            include_boxes=include_boxes,
            include_values=include_values,
            max_iframe_depth=max_iframe_depth,
            timeout=timeout,
        )

    async def skeleton(self, *, timeout: float | None = None) -> SkeletonView:  # noqa: ASYNC109
        """The skeleton DOM (004 §5.6) as HTML."""
        return await self.snapshot("skeleton", timeout=timeout)  # type: ignore[return-value]

    async def screenshot(
        self,
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
        """A JPEG of the viewport, of the whole page (`full_page`) or of one element (its
        stable `element_id` from any view, or the first match of a CSS `selector`, scrolled
        into view), at most `max_width` pixels wide (004 §5.2). `marks` draws each visible
        control's box and semantic-view id on it (Set-of-Marks). Given the `hash` of an
        earlier screenshot as `screenshot_hash`, an unchanged screen comes back with
        `unchanged: true` and no image (004 §5.8). Unknown elements raise a PagelensError
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
        return await take_screenshot(self, request, _time_limit(timeout, SCREENSHOT_TIMEOUT_S))

    async def snapshot(
        self,
        mode: str,
        *,
        request: CaptureRequest | dict[str, Any] | None = None,
        include_offscreen: bool = False,
        include_boxes: bool = False,
        include_values: bool | None = None,
        max_iframe_depth: int | None = None,
        timeout: float | None = None,  # noqa: ASYNC109
        if_changed_since: str | None = None,
    ) -> View | Unchanged:
        """Any view by name: compact, full, interaction, semantic or skeleton.

        Returns within `timeout` seconds (default: the view's limit in VIEW_TIMEOUTS) plus
        a short grace, or raises CaptureTimeoutError; bad arguments raise
        InvalidRequestError before the page is touched. Every view has a `hash`; given
        `if_changed_since` (a view's hash), a view that still hashes the same comes back as
        ``Unchanged(hash=...)`` instead."""
        if mode not in VIEWS:
            raise InvalidRequestError(f"unknown view {mode!r}; choose one of {', '.join(VIEWS)}")
        if if_changed_since is not None:
            check_hash(if_changed_since)
        capture_request = _capture_request(request, include_values, max_iframe_depth)
        options = {
            "maxControls": capture_request.maxControls,
            "maxHeadings": capture_request.maxHeadings,
            "includeValues": capture_request.includeValues,
            "includeOffscreen": _flag("include_offscreen", include_offscreen),
            "includeBoxes": _flag("include_boxes", include_boxes),
        }
        limit = _time_limit(timeout, VIEW_TIMEOUTS[mode])
        # One guard around everything, CDP housekeeping included: a renderer whose main
        # thread never yields does not answer even Page.getFrameTree.
        try:
            async with asyncio.timeout(limit + _GRACE_S):
                data = await self._capture(mode, options, capture_request.maxIframeDepth, limit)
        except TimeoutError as exc:
            raise CaptureTimeoutError(f"the {mode} view took longer than {limit:g} s") from exc
        except PlaywrightError as exc:  # the tab closed, crashed or detached meanwhile
            if self.playwright_page.is_closed():
                raise PagelensError("the page is closed", code="page_closed") from exc
            raise CaptureError(f"could not read the page: {exc}") from exc
        view: View = VIEW_MODELS[mode].model_validate(data)  # type: ignore[assignment]
        # Hashing a 10k-control view takes a moment: not on the loop.
        if if_changed_since is not None and await asyncio.to_thread(lambda: view.hash) == if_changed_since:
            return Unchanged(hash=if_changed_since)
        return view

    async def _capture(self, mode: str, options: dict[str, Any], max_depth: int, limit: float) -> dict[str, Any]:
        if mode in ("interaction", "semantic"):
            return await self._capture_frames(mode, options, max_depth, limit)
        world = await self.main_world()
        return (await world.capture(mode, options, limit))["view"]

    # ---- lists that grow as they scroll

    async def scroll_to_load(
        self,
        container: str | None = None,
        *,
        max_items: int = 100,
        timeout: float = 15.0,  # noqa: ASYNC109 - the loop's budget, checked between steps
        idle: float = 1.5,
    ) -> ScrollLoad:
        """Scroll a virtual list or an infinite scroll until `max_items` new items show,
        the end is reached (nothing more loads within `idle` seconds), or `timeout`.
        `container` is a stable id (a `scrollableContainers` entry of the semantic view, or
        any element inside the scroller; "12.5" inside frame 12); None scrolls the page."""
        world = await self.main_world()
        local = None
        if container is not None:
            if not _ELEMENT_ID_RE.match(container):
                raise InvalidRequestError(f'container must be an element id such as "12" or "12.5", not {container!r}')
            *owners, local = container.split(".")
            for owner in owners:
                world = await self.child_world(world, owner)
        return await loading.scroll_to_load(world, local, max_items=max_items, timeout=timeout, idle=idle)

    # ---- worlds and frames

    async def _page_session(self) -> CDPSession:
        if self._session is None:
            self._session = await self.playwright_page.context.new_cdp_session(self.playwright_page)
        return self._session

    async def main_world(self) -> FrameWorld:
        """The pagelens world of the top frame (made, or made again, on demand)."""
        session = await self._page_session()
        if self._main_frame_id is None:
            # A tab's top frame keeps its id across navigations: asked once, not per call
            # (every CDP round trip through Playwright's driver costs milliseconds).
            tree = await session.send("Page.getFrameTree")
            self._main_frame_id = tree["frameTree"]["frame"]["id"]
        return self._world(session, self._main_frame_id)

    def _world(self, session: CDPSession, frame_id: str) -> FrameWorld:
        world = self._worlds.get(frame_id)
        if world is None or world.session is not session:
            world = self._worlds[frame_id] = FrameWorld(session, frame_id)
        return world

    async def _session_for_frame(self, frame_id: str, parent: CDPSession) -> CDPSession:
        """Out-of-process (cross-site) frames have their own CDP session; others share
        their parent's."""
        tree = await parent.send("Page.getFrameTree")
        if _tree_has_frame(tree["frameTree"], frame_id):
            return parent
        context = self.playwright_page.context
        for frame in self.playwright_page.frames[1:]:
            if frame not in self._frame_sessions:
                try:
                    self._frame_sessions[frame] = await context.new_cdp_session(frame)
                except PlaywrightError:
                    self._frame_sessions[frame] = None  # in-process: no session of its own
            session = self._frame_sessions[frame]
            if session is None or frame.is_detached():
                continue
            own = await session.send("Page.getFrameTree")
            if own["frameTree"]["frame"]["id"] == frame_id:
                return session
        raise PagelensError(f"frame {frame_id} has no reachable session", code="frame_unreachable")

    async def child_world(self, parent: FrameWorld, owner_id: str) -> FrameWorld:
        """The pagelens world of the document inside frame element `owner_id` of `parent`."""
        object_id = await parent.element_object(owner_id)
        if not object_id:
            raise PagelensError(f"frame owner {owner_id} is gone", code="frame_unreachable")
        node = await parent.session.send("DOM.describeNode", {"objectId": object_id})
        await parent.session.send("Runtime.releaseObject", {"objectId": object_id})
        frame_id = node["node"].get("frameId")
        if not frame_id:
            raise PagelensError(f"element {owner_id} has no content frame", code="frame_unreachable")
        session = await self._session_for_frame(frame_id, parent.session)
        return self._world(session, frame_id)

    async def _capture_frames(
        self, mode: str, options: dict[str, Any], max_depth: int, budget: float
    ) -> dict[str, Any]:
        """Capture the top frame, then its frames breadth first down to `max_depth`,
        stitching each into the top view within one overall time budget."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + budget
        main = await self.main_world()
        root = await main.capture(mode, options, budget)
        view = root["view"]
        unreachable = Unreachable(closedShadowRoots=await _count_closed_shadow_roots(main, root["stats"]))
        # Frame controls are placed and clipped in the top viewport; semantic children
        # always report boxes, so their click point can be clipped too.
        child_options = {**options, "includeBoxes": True} if mode == "semantic" else options
        top_clip = _Rect(0, 0, *(await _viewport_size(main))) if root["frames"] else _Rect(0, 0, 0, 0)
        queue = [_FrameJob(main, root["frames"], "", 0.0, 0.0, top_clip, True, 1)]
        frame_index = 0
        while queue:
            job = queue.pop(0)
            for owner in job.owners:
                if job.depth > max_depth:
                    unreachable.framesBeyondDepth += 1
                    continue
                try:
                    remaining = deadline - loop.time()
                    if remaining <= 0:
                        raise PagelensError("out of time", code="capture_timeout")
                    child_world = await self.child_world(job.world, owner["id"])
                    width, height = await _viewport_size(child_world)
                    child = await child_world.capture(mode, child_options, deadline - loop.time())
                except (PagelensError, PlaywrightError):  # gone, detached, crashed or too slow
                    unreachable.framesFailed += 1
                    continue
                frame_index += 1
                frame = _FrameJob(
                    world=child_world,
                    owners=child["frames"],
                    prefix=f"{job.prefix}{owner['id']}.",
                    dx=job.dx + owner["x"],
                    dy=job.dy + owner["y"],
                    clip=job.clip.intersect(_Rect(job.dx + owner["x"], job.dy + owner["y"], width, height)),
                    visible=job.visible and owner.get("visible", True),
                    depth=job.depth + 1,
                )
                unreachable.closedShadowRoots += await _count_closed_shadow_roots(child_world, child["stats"])
                if mode == "interaction":
                    _merge_controls(view, child["view"], frame)
                else:
                    _merge_nodes(view, child["view"], frame, frame_index, options)
                queue.append(frame)
        if mode == "interaction":
            _cap_controls(view, options["maxControls"])
        view["unreachable"] = unreachable.model_dump()
        return view


_WAIT_UNTIL = ("load", "domcontentloaded", "networkidle", "commit")
_ELEMENT_ID_RE = re.compile(r"^\d+(\.\d+)*$")
_GRACE_S = 0.5  # on top of a view's limit: the last CDP round trip after Chromium stops the script
_MAX_TIMEOUT_S = 300.0


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidRequestError(f"{name} must be true or false, not {value!r}")
    return value


def _time_limit(timeout: object, default: float) -> float:
    """A capture's limit in seconds: a finite number in (0, 300]."""
    if timeout is None:
        return default
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not math.isfinite(timeout):
        raise InvalidRequestError(f"timeout must be a number of seconds, not {timeout!r}")
    if not 0 < timeout <= _MAX_TIMEOUT_S:
        raise InvalidRequestError(f"timeout must be above 0 and at most {_MAX_TIMEOUT_S:g} s, not {timeout!r}")
    return float(timeout)


def _capture_request(
    request: CaptureRequest | dict[str, Any] | None,
    include_values: bool | None,
    max_iframe_depth: int | None,
) -> CaptureRequest:
    if isinstance(request, CaptureRequest):
        base = request.model_dump()
    elif request is None or isinstance(request, dict):
        base = dict(request or {})
    else:
        raise InvalidRequestError(f"request must be a CaptureRequest or a dict, not {type(request).__name__}")
    if include_values is not None:
        base["includeValues"] = include_values
    if max_iframe_depth is not None:
        base["maxIframeDepth"] = max_iframe_depth
    try:
        return CaptureRequest.model_validate(base)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise InvalidRequestError(f"invalid capture request: {problems}") from exc


def _tree_has_frame(tree: dict[str, Any], frame_id: str) -> bool:
    if tree["frame"]["id"] == frame_id:
        return True
    return any(_tree_has_frame(child, frame_id) for child in tree.get("childFrames", []))


async def _viewport_size(world: FrameWorld) -> tuple[float, float]:
    """The frame's layout viewport (without scrollbars): what of its document shows."""
    width, height = await world.call("viewportSize")
    return float(width), float(height)


@dataclass(frozen=True)
class _Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def empty(self) -> bool:
        return self.width <= 0 or self.height <= 0

    def intersect(self, other: _Rect) -> _Rect:
        left, top = max(self.x, other.x), max(self.y, other.y)
        right = min(self.x + self.width, other.x + other.width)
        bottom = min(self.y + self.height, other.y + other.height)
        return _Rect(left, top, max(0.0, right - left), max(0.0, bottom - top))


@dataclass
class _FrameJob:
    """A captured frame: its world, its own frame elements, its id prefix ("12.5." for
    frame 5 inside frame 12), where its viewport starts in the top viewport, the part of
    the top viewport it shows through (clip), whether its frame elements are visible."""

    world: FrameWorld
    owners: list[dict[str, Any]]
    prefix: str
    dx: float
    dy: float
    clip: _Rect
    visible: bool
    depth: int


def _merge_controls(view: dict[str, Any], child: dict[str, Any], frame: _FrameJob) -> None:
    """Interaction model: ids get the frame prefix, boxes move into the top viewport, and
    a control counts as in the viewport only where its frame shows it."""
    for control in child["controls"]:
        control["id"] = frame.prefix + control["id"]
        box = control["boundingBox"]
        box["x"] = round(box["x"] + frame.dx)
        box["y"] = round(box["y"] + frame.dy)
        shown = frame.clip.intersect(_Rect(box["x"], box["y"], box["width"], box["height"]))
        control["inViewport"] = control["inViewport"] and not shown.empty
        control["visible"] = control["visible"] and frame.visible
        view["controls"].append(control)
        view["aimap"][control["id"]] = control["selector"]
    view["total_controls"] += child["total_controls"]
    view["truncated"] = view["truncated"] or child["truncated"]


def _merge_nodes(
    view: dict[str, Any],
    child: dict[str, Any],
    frame: _FrameJob,
    index: int,
    options: dict[str, Any],
) -> None:
    """Semantic tree: ids get the frame prefix and `f` the frame's number; a node the
    frame does not show in the top viewport is pruned (unless off-screen nodes were
    asked for) and its click point is the centre of the part that shows."""
    for node in child["interactive_tree"]:
        x, y, width, height = node["box"]
        box = _Rect(x + frame.dx, y + frame.dy, width, height)
        shown = frame.clip.intersect(box)
        if shown.empty and not options["includeOffscreen"]:
            continue
        node["i"] = frame.prefix + node["i"]
        if shown.empty:
            node["xy"] = [round(node["xy"][0] + frame.dx), round(node["xy"][1] + frame.dy)]
        else:
            node["xy"] = [round(shown.x + shown.width / 2), round(shown.y + shown.height / 2)]
        if options["includeBoxes"]:
            node["box"] = [round(box.x), round(box.y), width, height]
        else:
            del node["box"]
        node["f"] = index
        view["interactive_tree"].append(node)
    for container in child["scrollableContainers"]:
        container["id"] = frame.prefix + container["id"]
        view["scrollableContainers"].append(container)
    if child.get("occlusionUnchecked"):
        view["occlusionUnchecked"] = view.get("occlusionUnchecked", 0) + child["occlusionUnchecked"]


def _cap_controls(view: dict[str, Any], max_controls: int) -> None:
    if len(view["controls"]) > max_controls:
        dropped = view["controls"][max_controls:]
        view["controls"] = view["controls"][:max_controls]
        for control in dropped:
            view["aimap"].pop(control["id"], None)
        view["truncated"] = True


async def _count_closed_shadow_roots(world: FrameWorld, stats: dict[str, Any]) -> int:
    """Closed shadow roots are invisible to page script; CDP sees them. Only custom
    elements are asked (other hosts would mean asking about every div), and only when
    the engine found some without an open root. A count, not worth failing a capture
    for: what cannot be asked is not counted."""
    if not stats.get("customElementsWithoutOpenRoot"):
        return 0
    try:
        array_id = await world.call("closedRootCandidates", _CLOSED_SHADOW_SCAN_LIMIT, by_value=False)
    except PagelensError:
        return 0
    if not array_id:
        return 0
    session = world.session
    try:
        props = await session.send("Runtime.getProperties", {"objectId": array_id, "ownProperties": True})
        count = 0
        for prop in props["result"]:
            object_id = prop.get("value", {}).get("objectId")
            if prop["name"].isdigit() and object_id:
                count += await _closed_roots_of(session, object_id)
        return count
    except PlaywrightError:
        return 0
    finally:
        await world.release(array_id)


async def _closed_roots_of(session: CDPSession, object_id: str) -> int:
    node = await session.send("DOM.describeNode", {"objectId": object_id, "depth": 1, "pierce": True})
    roots = node["node"].get("shadowRoots", [])
    return sum(1 for r in roots if r.get("shadowRootType") == "closed")
