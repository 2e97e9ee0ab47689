"""analyze: the views of a tab as JSON-ready data, for agents.

The ids every view shows are remembered for the tab (healing.py), so an action on one
of them can be checked and healed later. The page's views (not screenshots, tabs or
command results) carry a content hash (`if_changed_since` answers `{unchanged: true}`
when it still matches) and are cut to a token budget, by relevance to `query` or into
pages (pagelens.budget).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from pagelens.actions import bridge, screenshots
from pagelens.actions.errors import ActionError
from pagelens.actions.healing import Descriptor
from pagelens.actions.models import HASHED_VIEWS, AnalyzeRequest, AnalyzeResult
from pagelens.actions.tabs import Tab
from pagelens.browser.world import engine_budget_ms
from pagelens.budget import DEFAULT_MAX_TOKENS, FitRequest, Unchanged, fit_view, get_ranker, view_hash
from pagelens.budget.layouts import LAYOUTS, ListLayout
from pagelens.engine import ENGINE
from pagelens.engine.models import VIEW_SPECS, CaptureRequest, FullSummary, View
from pagelens.errors import ErrorCode, PagelensError
from pagelens.extraction import extract

MAIN_WORLD_TIMEOUT_S = 3.0
_HEADINGS_TIMEOUT_S = 2.0


async def page_view(
    tab: Tab,
    request: AnalyzeRequest,
    *,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    ranker: str = "bm25",
) -> AnalyzeResult:
    """A view of `tab`. The hashed views are answered `unchanged`, or cut to the request's
    max_tokens (else `max_tokens`) with `ranker` ranking chunks against the query."""
    result = await _view(tab, request)
    if request.what not in HASHED_VIEWS:
        return result
    view = result.data
    # Hashing, ranking and counting the tokens of a 10k-control view take a while: not on the loop.
    digest = await asyncio.to_thread(
        view_hash, view, query=request.query, page=request.page, max_tokens=request.max_tokens
    )
    if request.if_changed_since == digest:  # the caller has this answer already
        return AnalyzeResult(data=Unchanged(hash=digest).model_dump(), image=result.image)
    contexts = await _headings(tab, request, view)
    fit = FitRequest(max_tokens=request.max_tokens or max_tokens, query=request.query, page=request.page or 1)
    data = await asyncio.to_thread(fit_view, request.what, view, fit, get_ranker(ranker), {"hash": digest}, contexts)
    return AnalyzeResult(data=data, image=result.image)


async def _headings(tab: Tab, request: AnalyzeRequest, view: dict[str, Any]) -> dict[str, str]:
    """For a query over a view of controls: the heading each control sits under, by id,
    which the ranking reads beside its name (pagelens.budget.fit). Without it (the page
    did not answer in time), the ranking reads names alone."""
    layout = LAYOUTS.get(request.what)
    if not request.query or not isinstance(layout, ListLayout) or not layout.applies(view):
        return {}
    ids = [element_id for chunk in layout.chunks(view) if (element_id := layout.element_id(chunk))]
    try:
        return await tab.page.headings_of(ids, timeout=_HEADINGS_TIMEOUT_S)
    except PagelensError:  # the engine failed, the page was busy or moved on
        return {}


async def _view(tab: Tab, request: AnalyzeRequest) -> AnalyzeResult:
    """An engine view, markdown or a screenshot of `tab`, whole."""
    page = tab.page
    match request.what:
        case "full" if request.world == "main":
            view = await _main_world_summary(tab, request.capture_request())
            return AnalyzeResult(data=view.model_dump(mode="json"))
        case "interaction":
            model = (await _engine_view(tab, request)).model_dump(mode="json", exclude_none=True)
            await _remember(
                tab,
                [(c["id"], c["role"], c["name"], _centre(c["boundingBox"])) for c in model["controls"]],
            )
            return AnalyzeResult(data=model)
        case "semantic":
            data = (await _engine_view(tab, request)).model_dump(mode="json", exclude_none=True)
            await _remember(tab, [(n["i"], n["r"], n["n"], tuple(n["xy"])) for n in data["interactive_tree"]])
            return AnalyzeResult(data=data)
        case name if name in VIEW_SPECS:  # the engine's other views, as they are
            return AnalyzeResult(data=(await _engine_view(tab, request)).model_dump(mode="json"))
        case "markdown":
            extraction = await extract(page, format="markdown")
            data = extraction.model_dump(mode="json", exclude={"content", "format"})
            return AnalyzeResult(data={**data, "markdown": extraction.content})
        case "screenshot":
            shot = await screenshots.take(
                tab,
                full_page=request.full_page,
                element_id=request.element_id,
                selector=request.selector,
                marks=request.marks,
                screenshot_hash=request.screenshot_hash,
            )
            if shot.marks:
                await _remember(tab, [(m.id, m.role, m.name, m.xy) for m in shot.marks])
            return AnalyzeResult(data=screenshots.describe(shot), image=shot.image)
    raise AssertionError(request.what)


async def _engine_view(tab: Tab, request: AnalyzeRequest) -> View:
    """The engine view `request.what` with the capture options the request gives."""
    view = await tab.page.snapshot(
        request.what,
        request=request.capture_request(),
        include_offscreen=request.include_offscreen,
        include_boxes=request.include_boxes,
    )
    assert isinstance(view, View)  # no if_changed_since here: the budget answers that
    return view


def _centre(box: dict[str, int]) -> tuple[int, int]:
    return box["x"] + box["width"] // 2, box["y"] + box["height"] // 2


async def _remember(tab: Tab, entries: list[tuple[str, str, str, tuple[int, int]]]) -> None:
    doc = await bridge.call(await bridge.main_world(tab.page), "docToken")
    for element_id, role, name, xy in entries:
        tab.memory.remember(element_id, Descriptor(role=role, name=name, xy=xy, doc=doc))


def _main_world_script(request: CaptureRequest) -> str:
    # The page's world is the page's: the engine lives for this one call (its bundle
    # declares no global), and the ids it stamped are removed again, so it leaves nothing
    # behind that the page (or the isolated world's numbering) could trip over.
    options = json.dumps(
        {
            "timeoutMs": engine_budget_ms(MAIN_WORLD_TIMEOUT_S),
            "baseUrl": request.baseUrl,
            "maskContactDetails": request.maskContactDetails,
        }
    )
    return (
        "(() => {"
        "const before = new Set(document.querySelectorAll('[data-llm-id]'));"
        f"const engine = {ENGINE.source()};\n"
        f"try {{ return engine.capture('full', {options}).view; }} finally {{"
        "for (const el of document.querySelectorAll('[data-llm-id]')) {"
        "if (!before.has(el)) el.removeAttribute('data-llm-id'); }"
        "}})()"
    )


async def _main_world_summary(tab: Tab, request: CaptureRequest) -> FullSummary:
    try:
        script = _main_world_script(request)
        view = await asyncio.wait_for(tab.playwright_page.evaluate(script), MAIN_WORLD_TIMEOUT_S)
    except TimeoutError as exc:
        raise ActionError(
            ErrorCode.CAPTURE_TIMEOUT, f"the page summary took longer than {MAIN_WORLD_TIMEOUT_S:g} s"
        ) from exc
    return FullSummary.model_validate(view)
