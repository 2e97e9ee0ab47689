"""The engine's worlds in a tab's frames, and views stitched across frames.

Each frame document gets its own pagelens world; out-of-process (cross-site) frames are
reached through CDP sessions of their own. The interaction and semantic views of a page
are its top frame's, with every frame's controls merged in: ids prefixed by their frame
elements' ids ("12.5" is control 5 inside frame element 12), boxes moved into the top
viewport and clipped by the frames they show through (docs/ids.md)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from playwright.async_api import CDPSession, Frame
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as PlaywrightPage

from pagelens.browser.guard import Lifeline
from pagelens.browser.world import FrameWorld
from pagelens.engine.models import Unreachable
from pagelens.errors import ErrorCode, PagelensError

_CLOSED_SHADOW_SCAN_LIMIT = 200


class FrameWorlds:
    """The worlds of one tab's frames, by CDP frame id, made on demand and kept while
    their documents live."""

    def __init__(self, page: PlaywrightPage, lifeline: Lifeline | None = None) -> None:
        self._page = page
        self._lifeline = lifeline  # its browser's, handed to every world
        self._top: tuple[CDPSession, str] | None = None  # the tab's session, its top frame's id
        self._session_lock = asyncio.Lock()
        self._worlds: dict[str, FrameWorld] = {}
        self._frame_sessions: dict[Frame, CDPSession | None] = {}

    async def _page_session(self) -> tuple[CDPSession, str]:
        """The tab's CDP session and its top frame's id, set up once, before any view asks
        (every CDP round trip through Playwright's driver costs milliseconds)."""
        async with self._session_lock:  # one session per tab, however many ask at once
            if self._top is None:
                session = await self._page.context.new_cdp_session(self._page)
                # A tab's top frame keeps its id across navigations.
                tree = await session.send("Page.getFrameTree")
                self._top = session, tree["frameTree"]["frame"]["id"]
            return self._top

    async def prepare(self) -> None:
        """Set up the tab's CDP session now, before a navigation needs it."""
        await self._page_session()

    async def main(self) -> FrameWorld:
        """The pagelens world of the top frame (made, or made again, on demand)."""
        session, frame_id = await self._page_session()
        return self._world(session, frame_id)

    def _world(self, session: CDPSession, frame_id: str) -> FrameWorld:
        world = self._worlds.get(frame_id)
        if world is None or world.session is not session:
            world = self._worlds[frame_id] = FrameWorld(session, frame_id, self._lifeline)
        return world

    async def _session_for_frame(self, frame_id: str, parent: CDPSession) -> CDPSession:
        """Out-of-process (cross-site) frames have their own CDP session; others share
        their parent's."""
        tree = await parent.send("Page.getFrameTree")
        if _tree_has_frame(tree["frameTree"], frame_id):
            return parent
        context = self._page.context
        for frame in self._page.frames[1:]:
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
        raise PagelensError(f"frame {frame_id} has no reachable session", code=ErrorCode.FRAME_UNREACHABLE)

    async def child(self, parent: FrameWorld, owner_id: str) -> FrameWorld:
        """The pagelens world of the document inside frame element `owner_id` of `parent`."""
        object_id = await parent.element_object(owner_id)
        if not object_id:
            raise PagelensError(f"frame owner {owner_id} is gone", code=ErrorCode.FRAME_UNREACHABLE)
        node = await parent.session.send("DOM.describeNode", {"objectId": object_id})
        await parent.release(object_id)
        frame_id = node["node"].get("frameId")
        if not frame_id:
            raise PagelensError(f"element {owner_id} has no content frame", code=ErrorCode.FRAME_UNREACHABLE)
        session = await self._session_for_frame(frame_id, parent.session)
        return self._world(session, frame_id)


async def capture_frames(
    worlds: FrameWorlds, mode: str, options: dict[str, Any], max_depth: int, budget: float
) -> dict[str, Any]:
    """Capture the top frame, then its frames breadth first down to `max_depth`,
    stitching each into the top view within one overall time budget."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + budget
    main = await worlds.main()
    root = await main.capture(mode, options, budget)
    view = root["view"]
    unreachable = Unreachable(closedShadowRoots=await _count_closed_shadow_roots(main, root["stats"]))
    # Frame controls are placed and clipped in the top viewport; semantic children
    # always report boxes, so their click point can be clipped too. A base URL stands for
    # the top document's address: a frame's document keeps its own.
    child_options = {**options, "baseUrl": None}
    if mode == "semantic":
        child_options["includeBoxes"] = True
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
                    raise PagelensError("out of time", code=ErrorCode.CAPTURE_TIMEOUT)
                child_world = await worlds.child(job.world, owner["id"])
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
        if control.get("selector"):
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
    asked for) and its click point is the centre of the part that shows. A frame nobody
    can see (faded out, clipped away) shows none of its controls."""
    for node in child["interactive_tree"] if frame.visible else []:
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
    if child.get("recentEvents"):  # each frame's document keeps its own log
        view["recentEvents"] = [*view.get("recentEvents", []), *(f"(frame {index}) {e}" for e in child["recentEvents"])]
        view["hasErrors"] = bool(view.get("hasErrors")) or child["hasErrors"]
        view["hasSuccess"] = bool(view.get("hasSuccess")) or child["hasSuccess"]


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
