"""analyze: the views of a tab as JSON-ready data, for agents.

The ids every view shows are remembered for the tab (healing.py), so an action on one
of them can be checked and healed later. `query` narrows the control lists, and
`max_tokens` trims them (from the end, so the first controls survive) to fit a budget.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from pagelens.actions import bridge
from pagelens.actions.errors import ActionError
from pagelens.actions.healing import Descriptor
from pagelens.actions.models import AnalyzeRequest, AnalyzeResult
from pagelens.actions.tabs import Tab
from pagelens.engine import engine_source
from pagelens.engine.models import FullSummary
from pagelens.tokens import count_tokens

MAIN_WORLD_TIMEOUT_S = 3.0


async def page_view(tab: Tab, request: AnalyzeRequest) -> AnalyzeResult:
    """page_summary, interactive, semantic, skeleton or screenshot of `tab`."""
    page = tab.page
    match request.what:
        case "page_summary":
            view = await (_main_world_summary(tab) if request.world == "main" else page.summary("full"))
            return AnalyzeResult(data=view.model_dump(mode="json"))
        case "interactive":
            model = (await page.interaction_model()).model_dump(mode="json", exclude_none=True)
            await _remember(
                tab,
                [(c["id"], c["role"], c["name"], _centre(c["boundingBox"])) for c in model["controls"]],
            )
            _narrow(model, "controls", request, lambda c: f"{c['role']} {c['name']}")
            model["aimap"] = {c["id"]: model["aimap"][c["id"]] for c in model["controls"]}
            return AnalyzeResult(data=model)
        case "semantic":
            tree = await page.semantic_tree(include_offscreen=request.include_offscreen)
            data = tree.model_dump(mode="json", exclude_none=True)
            await _remember(tab, [(n["i"], n["r"], n["n"], tuple(n["xy"])) for n in data["interactive_tree"]])
            _narrow(data, "interactive_tree", request, lambda n: f"{n['r']} {n['n']}")
            return AnalyzeResult(data=data)
        case "skeleton":
            return AnalyzeResult(data=(await page.skeleton()).model_dump(mode="json"))
        case "screenshot":
            png = await tab.playwright_page.screenshot(type="png", timeout=30_000)
            size = tab.playwright_page.viewport_size or {}
            data = {"url": tab.playwright_page.url, "mime_type": "image/png", **size}
            return AnalyzeResult(data=data, image=png)
    raise AssertionError(request.what)


def _centre(box: dict[str, int]) -> tuple[int, int]:
    return box["x"] + box["width"] // 2, box["y"] + box["height"] // 2


async def _remember(tab: Tab, entries: list[tuple[str, str, str, tuple[int, int]]]) -> None:
    doc = await bridge.call(await bridge.main_world(tab.page), "docToken")
    for element_id, role, name, xy in entries:
        tab.memory.remember(element_id, Descriptor(role=role, name=name, xy=xy, doc=doc))


def _narrow(view: dict[str, Any], key: str, request: AnalyzeRequest, text_of: Any) -> None:
    """Keep the items matching `query`, then as many as fit in `max_tokens`."""
    items = view[key]
    if request.query:
        wanted = request.query.lower()
        items = [item for item in items if wanted in text_of(item).lower()]
        view["query"] = request.query
    view[key] = items
    if request.max_tokens is None or count_tokens(json.dumps(view)) <= request.max_tokens:
        return
    low, high = 0, len(items)  # the most items that fit: binary search on the prefix length
    while low < high:
        mid = (low + high + 1) // 2
        view[key] = items[:mid]
        if count_tokens(json.dumps(view)) <= request.max_tokens:
            low = mid
        else:
            high = mid - 1
    view[key] = items[:low]
    view["trimmed"] = len(items) - low


def _main_world_script() -> str:
    # The page's world is the page's: the engine is defined for this one call, its globals
    # are put back as they were, and the ids it stamped are removed again, so it leaves
    # nothing behind that the page (or the isolated world's numbering) could trip over.
    return (
        "(() => {"
        "const names = ['__pagelens', '__pagelensAct'];"
        "const saved = names.map((n) => Object.getOwnPropertyDescriptor(globalThis, n));"
        "const before = new Set(document.querySelectorAll('[data-llm-id]'));"
        "try {"
        f"{engine_source()}\n"
        "return globalThis.__pagelens.capture('full', {timeoutMs: 2400}).view;"
        "} finally {"
        "names.forEach((n, i) => saved[i] ? Object.defineProperty(globalThis, n, saved[i])"
        " : delete globalThis[n]);"
        "for (const el of document.querySelectorAll('[data-llm-id]')) {"
        "if (!before.has(el)) el.removeAttribute('data-llm-id'); }"
        "}})()"
    )


async def _main_world_summary(tab: Tab) -> FullSummary:
    try:
        view = await asyncio.wait_for(tab.playwright_page.evaluate(_main_world_script()), MAIN_WORLD_TIMEOUT_S)
    except TimeoutError as exc:
        raise ActionError("capture_timeout", f"the page summary took longer than {MAIN_WORLD_TIMEOUT_S:g} s") from exc
    return FullSummary.model_validate(view)
