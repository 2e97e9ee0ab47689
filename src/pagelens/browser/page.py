"""A browser tab and its views.

Every view has a time limit (``timeout`` arguments, in seconds, are handed on to the
browser and enforced around each call; hence the ASYNC109 exemptions)."""

from __future__ import annotations

import asyncio
import contextlib
import math
from typing import Any, Literal, overload

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame
from playwright.async_api import Page as PlaywrightPage
from pydantic import ValidationError

from pagelens.browser import loading
from pagelens.browser.arrival import Arrival, arrival
from pagelens.browser.error_document import navigation_error
from pagelens.browser.frames import FrameWorlds, capture_frames
from pagelens.browser.guard import Lifeline
from pagelens.browser.loading import ScrollLoad
from pagelens.browser.network import NetworkPolicy
from pagelens.browser.requests import RequestsInFlight
from pagelens.browser.world import FrameWorld, engine_budget_ms
from pagelens.engine.hashing import Unchanged, check_hash
from pagelens.engine.ids import ElementId
from pagelens.engine.models import (
    MAX_SKELETON_BYTES,
    VIEW_SPECS,
    VIEWS,
    CaptureRequest,
    CompactSummary,
    FullSummary,
    PageModel,
    SemanticView,
    SkeletonView,
    View,
    ViewSpec,
)
from pagelens.errors import (
    CaptureError,
    CaptureTimeoutError,
    ErrorCode,
    InvalidRequestError,
    NavigationError,
    PagelensError,
)

# How long a navigation waits for `load` once the document is parsed (DOMContentLoaded):
# past it, the page is read as it is, and the result says it had not finished loading
# (docs/actions.md, "Navigation").
LOAD_WAIT_S = 5.0


class Page:
    """A tab. Navigate with :meth:`goto`, read it with :meth:`summary`,
    :meth:`interaction_model`, :meth:`semantic_tree`, :meth:`skeleton` or :meth:`snapshot`."""

    def __init__(
        self, page: PlaywrightPage, *, policy: NetworkPolicy | None = None, lifeline: Lifeline | None = None
    ) -> None:
        self.playwright_page = page
        self.policy = policy  # the network policy its context routes through, if known
        self.requests = RequestsInFlight(page)
        self._worlds = FrameWorlds(page, lifeline)  # the engine's calls end when the browser dies, if known
        self._opening: asyncio.Future[bool] | None = None  # held, so it is not collected midway
        page.on("framenavigated", self._on_navigated)

    def _on_navigated(self, frame: Frame) -> None:
        # A new top document (a navigation, a click, a script): its engine is readied
        # while it loads, so that its first view does not wait for it (browser/world.py).
        if frame.parent_frame is None:
            self._opening = asyncio.ensure_future(self._open_main_world())

    async def _open_main_world(self) -> bool:
        """Whether the world is ready. Gone already, or too busy: the next call tries
        again, within its own limit."""
        with contextlib.suppress(PagelensError, PlaywrightError):
            await (await self.main_world()).open()
            return True
        return False

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
        URLs). Raises NavigationError with Chromium's ``net::ERR_*`` reason as its code,
        also when the page loaded but its script sent the tab on to an address that
        failed before `wait_until` (Chromium's error document is what shows)."""
        if wait_until not in _WAIT_UNTIL:
            raise InvalidRequestError(f"wait_until must be one of {', '.join(_WAIT_UNTIL)}, not {wait_until!r}")
        limit = time_limit(timeout, 30.0)
        try:
            response = await self.playwright_page.goto(
                url,
                wait_until=wait_until,  # type: ignore[arg-type]
                timeout=limit * 1000,
            )
        except PlaywrightError as exc:
            raise NavigationError.from_playwright(exc, url) from exc
        if (failed := await self.navigation_error()) is not None:
            raise failed
        return response.status if response else None

    async def visit(self, url: str, *, timeout: float = 30.0) -> bool:  # noqa: ASYNC109
        """Load `url` as the navigate action does (docs/actions.md, "Navigation"): to
        DOMContentLoaded within `timeout` seconds, then `load` for LOAD_WAIT_S at most.
        Whether `load` came: False for a page that never finishes loading (a stream that
        keeps sending, a resource that never answers), which is then read as it is rather
        than failed. Raises NavigationError as :meth:`goto` does."""
        await self.goto(url, wait_until="domcontentloaded", timeout=timeout)
        return await self.wait_for_load(LOAD_WAIT_S)

    async def navigation_error(self) -> NavigationError | None:
        """The failed load the browser's error document in this tab stands for, or None
        when the tab shows a document of its own (browser/error_document.py)."""
        return await navigation_error(self.playwright_page, self.requests, self.policy)

    async def wait_for_load(self, timeout: float) -> bool:  # noqa: ASYNC109
        """Wait for the document's `load` event (at once when it has fired); False when it
        has not fired within `timeout` seconds: a resource that never finishes loading
        holds it back for good."""
        try:
            await self.playwright_page.wait_for_load_state("load", timeout=timeout * 1000)
        except PlaywrightError:
            return False
        return True

    async def set_content(self, html: str) -> None:
        await self.playwright_page.set_content(html)

    async def close(self) -> None:
        if self._opening is not None:
            self._opening.cancel()
        await self.playwright_page.close()

    # ---- views

    @overload
    async def summary(
        self,
        mode: Literal["compact"] = "compact",
        *,
        mask_contact_details: bool = True,
        timeout: float | None = None,  # noqa: ASYNC109
        http_status: int | None = None,
    ) -> CompactSummary: ...

    @overload
    async def summary(
        self,
        mode: Literal["full"],
        *,
        mask_contact_details: bool = True,
        timeout: float | None = None,  # noqa: ASYNC109
        http_status: int | None = None,
    ) -> FullSummary: ...

    async def summary(
        self,
        mode: str = "compact",
        *,
        mask_contact_details: bool = True,
        timeout: float | None = None,  # noqa: ASYNC109
        http_status: int | None = None,
    ) -> CompactSummary | FullSummary:
        """The compact or full page summary, e-mail addresses and phone numbers masked
        unless `mask_contact_details` is false. `http_status` is the HTTP status the page's
        main document came with, where the caller knows it (a navigation's response): the
        page runs in the browser and cannot tell, and an error status makes the page an
        `error_page` unless its content says otherwise (docs/page-types.md)."""
        if mode not in ("compact", "full"):
            raise InvalidRequestError(f"summary mode must be 'compact' or 'full', not {mode!r}")
        return await self.snapshot(  # type: ignore[return-value]
            mode, mask_contact_details=mask_contact_details, timeout=timeout, http_status=http_status
        )

    async def interaction_model(
        self,
        request: CaptureRequest | dict[str, Any] | None = None,
        *,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> PageModel:
        """The interaction model (PageModel) of the page and its frames."""
        return await self.snapshot("interaction", request=request, timeout=timeout)  # type: ignore[return-value]

    async def semantic_tree(
        self,
        *,
        include_offscreen: bool = False,
        include_boxes: bool = False,
        include_values: bool = False,
        max_iframe_depth: int = 1,
        mask_contact_details: bool = True,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> SemanticView:
        """The minified V3 semantic tree, with the page's recent events. Off-screen
        controls are pruned unless `include_offscreen`; values are redacted unless
        `include_values` (and sensitive fields are never shown); e-mail addresses and
        phone numbers are masked unless `mask_contact_details` is false."""
        return await self.snapshot(  # type: ignore[return-value]
            "semantic",
            include_offscreen=include_offscreen,
            include_boxes=include_boxes,
            include_values=include_values,
            max_iframe_depth=max_iframe_depth,
            mask_contact_details=mask_contact_details,
            timeout=timeout,
        )

    async def skeleton(self, *, timeout: float | None = None) -> SkeletonView:  # noqa: ASYNC109
        """The skeleton DOM as HTML."""
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
        mask_contact_details: bool | None = None,
        timeout: float | None = None,  # noqa: ASYNC109
        if_changed_since: str | None = None,
        http_status: int | None = None,
    ) -> View | Unchanged:
        """Any view by name (VIEWS: compact, full, interaction, semantic, skeleton, ...).
        `include_values`, `max_iframe_depth` and `mask_contact_details` override the
        `request`'s (CaptureRequest) fields of the same meaning.

        Returns within `timeout` seconds (default: the view's limit in VIEW_SPECS) plus
        a short grace, or raises CaptureTimeoutError; bad arguments raise
        InvalidRequestError before the page is touched. Every view has a `hash`; given
        `if_changed_since` (a view's hash), a view that still hashes the same comes back as
        ``Unchanged(hash=...)`` instead. `http_status` (see `summary`) is read by the
        summaries only."""
        if mode not in VIEWS:
            raise InvalidRequestError(f"unknown view {mode!r}; choose one of {', '.join(VIEWS)}")
        if if_changed_since is not None:
            check_hash(if_changed_since)
        capture_request = _capture_request(
            request,
            {
                "includeValues": include_values,
                "maxIframeDepth": max_iframe_depth,
                "maskContactDetails": mask_contact_details,
            },
        )
        options = _engine_options(
            capture_request,
            include_offscreen=_flag("include_offscreen", include_offscreen),
            include_boxes=_flag("include_boxes", include_boxes),
            http_status=http_status,
        )
        spec = VIEW_SPECS[mode]
        options["frames"] = spec.frames
        limit = time_limit(timeout, spec.timeout)
        # One guard around everything, CDP housekeeping included: a renderer whose main
        # thread never yields does not answer even Page.getFrameTree.
        try:
            async with asyncio.timeout(limit + _GRACE_S):
                data = await self._capture(spec, options, capture_request.maxIframeDepth, limit)
        except TimeoutError as exc:
            raise CaptureTimeoutError(f"the {mode} view took longer than {limit:g} s") from exc
        except PlaywrightError as exc:  # the tab closed, crashed or detached meanwhile
            if self.playwright_page.is_closed():
                raise PagelensError("the page is closed", code=ErrorCode.PAGE_CLOSED) from exc
            raise CaptureError(f"could not read the page: {exc}") from exc
        view = spec.model.model_validate(data)
        # Hashing a 10k-control view takes a moment: not on the loop.
        if if_changed_since is not None and await asyncio.to_thread(lambda: view.hash) == if_changed_since:
            return Unchanged(hash=if_changed_since)
        return view

    async def _capture(self, spec: ViewSpec, options: dict[str, Any], max_depth: int, limit: float) -> dict[str, Any]:
        if spec.frames:
            return await capture_frames(self._worlds, spec.name, options, max_depth, limit)
        world = await self.main_world()
        return (await world.capture(spec.name, options, limit))["view"]

    async def ready(self) -> None:
        """Have the engine's world ready in the document now loading: the one readied since
        the document committed, or, where that failed, made now (of this document, not the
        one before)."""
        world = await self.main_world()
        opening = self._opening
        if opening is not None:
            await asyncio.wait([opening])  # cancelled with its page: not an error of ours
        if opening is None or opening.cancelled() or not opening.result():
            await world.open()

    async def arrive(
        self,
        *,
        summary: bool,
        http_status: int | None = None,
        summary_timeout: float | None = None,
        load_wait: float = 0.0,
        delay: float = 0.0,
        timeout: float = 5.0,  # noqa: ASYNC109 - the call's own limit, around the round trip
    ) -> Arrival:
        """What a navigation reports of the document it loaded, in one call to the engine
        (browser/arrival.py). With `summary`, the compact summary as
        `summary("compact", timeout=summary_timeout, http_status=...)` takes it; one that
        comes later than `summary_timeout` is `summary_error: summary_timeout`.

        Called before `load` (once the document is parsed), the engine waits for `load`
        itself, `load_wait` seconds at most (`Arrival.loaded` says whether it came), then
        `delay` seconds, and reads the page after that: a round trip sooner than being told
        of `load` here and asking after it. The summary is then taken at `load` and kept for
        the end of the delay while the page stays as it was (engine/js/arrival.js).

        Raises CaptureTimeoutError when the page does not answer within `timeout` seconds
        (beyond those waits), DocumentChanged when the document goes away meanwhile,
        CaptureError when the engine fails."""
        summary_limit = time_limit(summary_timeout, VIEW_SPECS["compact"].timeout)
        options = _engine_options(_capture_request(None, {}), http_status=http_status)
        options["timeoutMs"] = engine_budget_ms(summary_limit)  # as `FrameWorld.capture` has it
        options["loadWaitMs"] = round(load_wait * 1000)
        options["delayMs"] = round(delay * 1000)
        world = await self.main_world()
        loop = asyncio.get_running_loop()
        started = loop.time()
        facts = await world.call("arrive", summary, options, timeout=timeout + load_wait + delay)
        reading = loop.time() - started - facts["waitedMs"] / 1000
        return arrival(facts, summary_late=reading > summary_limit)

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
            parsed = ElementId.parse(container, parameter="container")
            local = parsed.local
            for owner in parsed.frames:
                world = await self.child_world(world, owner)
        return await loading.scroll_to_load(world, local, max_items=max_items, timeout=timeout, idle=idle)

    # ---- the engine's worlds

    async def prepare(self) -> None:
        """Set up what the tab's views and navigations go through (its CDP session) now,
        rather than in the first one."""
        await self._worlds.prepare()

    async def headings_of(self, ids: list[str], *, timeout: float = 2.0) -> dict[str, str]:  # noqa: ASYNC109 - the call's own limit
        """The heading each of the controls `ids` sits under (the last rendered heading
        before it, engine/js/context.js), by id: for ranking a view against a query.
        Controls inside frames, and those under no heading, are left out."""
        own = [element_id for element_id in ids if not ElementId.parse(element_id).frames]
        found = await (await self.main_world()).call("headingsOf", own, timeout=timeout)
        return {element_id: found["headings"][index] for element_id, index in found["of"].items()}

    async def main_world(self) -> FrameWorld:
        """The pagelens world of the top frame (made, or made again, on demand)."""
        return await self._worlds.main()

    async def child_world(self, parent: FrameWorld, owner_id: str) -> FrameWorld:
        """The pagelens world of the document inside frame element `owner_id` of `parent`."""
        return await self._worlds.child(parent, owner_id)


_WAIT_UNTIL = ("load", "domcontentloaded", "networkidle", "commit")
_GRACE_S = 0.5  # on top of a view's limit: the last CDP round trip after Chromium stops the script
_MAX_TIMEOUT_S = 300.0


def _engine_options(
    request: CaptureRequest, *, include_offscreen: bool = False, include_boxes: bool = False, http_status: object
) -> dict[str, Any]:
    """A capture's options as the engine reads them."""
    return {
        "maxControls": request.maxControls,
        "maxHeadings": request.maxHeadings,
        "includeValues": request.includeValues,
        "maxDomChars": request.maxDomChars,
        "maxSkeletonBytes": MAX_SKELETON_BYTES,
        "baseUrl": request.baseUrl,
        "maskContactDetails": request.maskContactDetails,
        "includeOffscreen": include_offscreen,
        "includeBoxes": include_boxes,
        "httpStatus": _http_status(http_status),
    }


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidRequestError(f"{name} must be true or false, not {value!r}")
    return value


def _http_status(status: object) -> int:
    """An HTTP status for the engine (0: unknown)."""
    if status is None:
        return 0
    if isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
        raise InvalidRequestError(f"http_status must be an HTTP status code (100-599), not {status!r}")
    return status


def time_limit(timeout: object, default: float) -> float:
    """A call's limit in seconds (a caller's `timeout`, else `default`): a finite number in (0, 300]."""
    if timeout is None:
        return default
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not math.isfinite(timeout):
        raise InvalidRequestError(f"timeout must be a number of seconds, not {timeout!r}")
    if not 0 < timeout <= _MAX_TIMEOUT_S:
        raise InvalidRequestError(f"timeout must be above 0 and at most {_MAX_TIMEOUT_S:g} s, not {timeout!r}")
    return float(timeout)


def _capture_request(
    request: CaptureRequest | dict[str, Any] | None,
    overrides: dict[str, Any],
) -> CaptureRequest:
    """`request` with the keyword arguments given (`overrides` by CaptureRequest field;
    None where not given), validated."""
    if isinstance(request, CaptureRequest):
        base = request.model_dump()
    elif request is None or isinstance(request, dict):
        base = dict(request or {})
    else:
        raise InvalidRequestError(f"request must be a CaptureRequest or a dict, not {type(request).__name__}")
    base.update({field: value for field, value in overrides.items() if value is not None})
    try:
        return CaptureRequest.model_validate(base)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise InvalidRequestError(f"invalid capture request: {problems}") from exc
