"""A browser tab and its views."""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import CDPSession, Error as PlaywrightError, Frame, Page as PlaywrightPage

from pagelens.browser.world import FrameWorld
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
from pagelens.errors import InvalidRequestError, NavigationError, PagelensError

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
        self._worlds: dict[str, FrameWorld] = {}
        self._frame_sessions: dict[Frame, CDPSession | None] = {}

    @property
    def url(self) -> str:
        return self.playwright_page.url

    async def title(self) -> str:
        return await self.playwright_page.title()

    async def goto(self, url: str, *, wait_until: str = "load", timeout: float = 30.0) -> int | None:
        """Navigate and wait for `wait_until`; returns the HTTP status (None for non-HTTP
        URLs). Raises NavigationError with Chromium's ``net::ERR_*`` reason as its code."""
        try:
            response = await self.playwright_page.goto(url, wait_until=wait_until, timeout=timeout * 1000)
        except PlaywrightError as exc:
            raise NavigationError.from_playwright(exc, url) from exc
        return response.status if response else None

    async def set_content(self, html: str) -> None:
        await self.playwright_page.set_content(html)

    async def close(self) -> None:
        await self.playwright_page.close()

    # ---- views

    async def summary(self, mode: str = "compact", *, timeout: float | None = None) -> CompactSummary | FullSummary:
        """The compact (000 §3.3) or full (000 §4.3) page summary."""
        if mode not in ("compact", "full"):
            raise InvalidRequestError(f"summary mode must be 'compact' or 'full', not {mode!r}")
        return await self.snapshot(mode, timeout=timeout)  # type: ignore[return-value]

    async def interaction_model(
        self, request: CaptureRequest | dict[str, Any] | None = None, *, timeout: float | None = None
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
        timeout: float | None = None,
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

    async def skeleton(self, *, timeout: float | None = None) -> SkeletonView:
        """The skeleton DOM (004 §5.6) as HTML."""
        return await self.snapshot("skeleton", timeout=timeout)  # type: ignore[return-value]

    async def snapshot(
        self,
        mode: str,
        *,
        request: CaptureRequest | dict[str, Any] | None = None,
        include_offscreen: bool = False,
        include_boxes: bool = False,
        include_values: bool | None = None,
        max_iframe_depth: int | None = None,
        timeout: float | None = None,
    ) -> View:
        """Any view by name: compact, full, interaction, semantic or skeleton."""
        if mode not in VIEWS:
            raise InvalidRequestError(f"unknown view {mode!r}; choose one of {', '.join(VIEWS)}")
        capture_request = _capture_request(request, include_values, max_iframe_depth)
        options = {
            "maxControls": capture_request.maxControls,
            "maxHeadings": capture_request.maxHeadings,
            "includeValues": capture_request.includeValues,
            "includeOffscreen": include_offscreen,
            "includeBoxes": include_boxes,
        }
        limit = timeout if timeout is not None else VIEW_TIMEOUTS[mode]
        if limit <= 0:
            raise InvalidRequestError("timeout must be positive")
        if mode in ("interaction", "semantic"):
            data = await self._capture_frames(mode, options, capture_request.maxIframeDepth, limit)
        else:
            world = await self._main_world()
            data = (await world.capture(mode, options, limit))["view"]
        return VIEW_MODELS[mode].model_validate(data)  # type: ignore[return-value]

    # ---- worlds and frames

    async def _page_session(self) -> CDPSession:
        if self._session is None:
            self._session = await self.playwright_page.context.new_cdp_session(self.playwright_page)
        return self._session

    async def _main_world(self) -> FrameWorld:
        session = await self._page_session()
        tree = await session.send("Page.getFrameTree")
        return self._world(session, tree["frameTree"]["frame"]["id"])

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

    async def _child_world(self, parent: FrameWorld, owner_id: str) -> FrameWorld:
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
        self, mode: str, options: dict[str, Any], max_depth: int, timeout: float
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        main = await self._main_world()
        root = await main.capture(mode, options, timeout)
        view = root["view"]
        unreachable = Unreachable(
            closedShadowRoots=await _count_closed_shadow_roots(main, root["stats"]),
        )
        queue = [(main, root["frames"], "", 0.0, 0.0, 1)]
        frame_index = 0
        while queue:
            world, owners, prefix, ox, oy, depth = queue.pop(0)
            for owner in owners:
                remaining = deadline - loop.time()
                if depth > max_depth:
                    unreachable.framesBeyondDepth += 1
                    continue
                try:
                    if remaining <= 0:
                        raise PagelensError("out of time", code="capture_timeout")
                    child_world = await self._child_world(world, owner["id"])
                    child = await child_world.capture(mode, options, remaining)
                except PagelensError:
                    unreachable.framesFailed += 1
                    continue
                frame_index += 1
                child_prefix = f"{prefix}{owner['id']}."
                cx, cy = ox + owner["x"], oy + owner["y"]
                unreachable.closedShadowRoots += await _count_closed_shadow_roots(child_world, child["stats"])
                _merge_frame(mode, view, child["view"], child_prefix, cx, cy, frame_index)
                queue.append((child_world, child["frames"], child_prefix, cx, cy, depth + 1))
        if mode == "interaction":
            _cap_controls(view, options["maxControls"])
        view["unreachable"] = unreachable.model_dump()
        return view


def _capture_request(
    request: CaptureRequest | dict[str, Any] | None, include_values: bool | None, max_iframe_depth: int | None
) -> CaptureRequest:
    from pydantic import ValidationError

    try:
        if isinstance(request, CaptureRequest):
            base = request.model_dump()
        else:
            base = dict(request or {})
        if include_values is not None:
            base["includeValues"] = include_values
        if max_iframe_depth is not None:
            base["maxIframeDepth"] = max_iframe_depth
        return CaptureRequest.model_validate(base)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise InvalidRequestError(f"invalid capture request: {problems}") from exc


def _tree_has_frame(tree: dict[str, Any], frame_id: str) -> bool:
    if tree["frame"]["id"] == frame_id:
        return True
    return any(_tree_has_frame(child, frame_id) for child in tree.get("childFrames", []))


def _merge_frame(
    mode: str, view: dict[str, Any], child: dict[str, Any], prefix: str, dx: float, dy: float, index: int
) -> None:
    """Stitch a frame's view into its parent's: ids get the owner's id as a prefix
    ("12.5" is control 5 inside the frame element 12) and boxes move into the top
    viewport's coordinates."""
    if mode == "interaction":
        for control in child["controls"]:
            control["id"] = prefix + control["id"]
            box = control["boundingBox"]
            box["x"] = round(box["x"] + dx)
            box["y"] = round(box["y"] + dy)
            view["controls"].append(control)
            view["aimap"][control["id"]] = control["selector"]
        view["total_controls"] += child["total_controls"]
        view["truncated"] = view["truncated"] or child["truncated"]
    else:
        for node in child["interactive_tree"]:
            node["i"] = prefix + node["i"]
            node["xy"] = [round(node["xy"][0] + dx), round(node["xy"][1] + dy)]
            if "box" in node:
                node["box"] = [round(node["box"][0] + dx), round(node["box"][1] + dy), *node["box"][2:]]
            node["f"] = index
            view["interactive_tree"].append(node)
        for container in child["scrollableContainers"]:
            container["id"] = prefix + container["id"]
            view["scrollableContainers"].append(container)


def _cap_controls(view: dict[str, Any], max_controls: int) -> None:
    if len(view["controls"]) > max_controls:
        dropped = view["controls"][max_controls:]
        view["controls"] = view["controls"][:max_controls]
        for control in dropped:
            view["aimap"].pop(control["id"], None)
        view["truncated"] = True


async def _count_closed_shadow_roots(world: FrameWorld, stats: dict[str, Any]) -> int:
    """Closed shadow roots are invisible to page script; CDP sees them. Only custom
    elements can host one, so only those the engine found without an open root are asked."""
    if not stats.get("customElementsWithoutOpenRoot"):
        return 0
    session = world.session
    candidates = await world.evaluate(
        "Array.from(document.querySelectorAll('*'))"
        f".filter((e) => e.localName.includes('-') && !e.shadowRoot).slice(0, {_CLOSED_SHADOW_SCAN_LIMIT})",
        timeout_ms=5_000,
        by_value=False,
    )
    array_id = candidates.get("objectId")
    if not array_id:
        return 0
    count = 0
    try:
        props = await session.send("Runtime.getProperties", {"objectId": array_id, "ownProperties": True})
        for prop in props["result"]:
            object_id = prop.get("value", {}).get("objectId")
            if not prop["name"].isdigit() or not object_id:
                continue
            node = await session.send("DOM.describeNode", {"objectId": object_id, "depth": 1, "pierce": True})
            roots = node["node"].get("shadowRoots", [])
            count += sum(1 for r in roots if r.get("shadowRootType") == "closed")
    finally:
        await session.send("Runtime.releaseObject", {"objectId": array_id})
    return count
