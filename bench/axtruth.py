"""Ground truth for names, roles and coverage: Chromium's own accessibility tree.

Chromium computes an accessible name and a role for every node it exposes to assistive
technology (CDP ``Accessibility.getFullAXTree``). This module takes the *visible interactive*
part of that tree for the main frame and compares pagelens' interaction model with it.

Definitions (deliberately independent of pagelens' own role and visibility code):

interactive
    A node that Chromium does not mark ``ignored`` and whose Chromium role is a widget
    role an agent acts on: ``button``, ``link``, ``textbox``, ``searchbox``, ``combobox``,
    ``listbox``, ``checkbox``, ``radio``, ``switch``, ``slider``, ``spinbutton``, ``tab``,
    ``menuitem``, ``menuitemcheckbox``, ``menuitemradio``, ``treeitem``, ``scrollbar``,
    ``option`` (except ``<option>`` elements, which belong to their ``<select>`` or
    ``<datalist>``), ``DisclosureTriangle`` (``<summary>``), ``ColorWell``, ``Date``,
    ``DateTime`` and ``InputTime`` (see :data:`ROLE_MAP`). Nodes inside a user-agent shadow
    tree (the date picker's spin buttons, a ``<video>``'s controls) are Chromium's own
    furniture, not page elements, and are left out.

visible
    The DOM element is connected, ``Element.checkVisibility({checkVisibilityCSS: true})``
    holds (no ``display:none`` or ``content-visibility:hidden`` on it or an ancestor, not
    ``visibility:hidden``), and it has a non-empty box: one of its client rects, or the
    bounding rect of its contents (an inline link around a block, a ``display:contents``
    element), is wider and taller than 0 px. Opacity, clipping and the viewport do not
    matter: a control scrolled out of view or faded out is still on the page.

seen
    Visible, and not faded out: ``checkVisibility({checkOpacity: true})`` holds (no
    ``opacity: 0`` on it or an ancestor). The semantic view shows what a person can see,
    so its coverage is counted over these.

named
    Chromium's name, whitespace-normalised, is not empty.

Element identity: each AX node's ``backendDOMNodeId`` is looked up in the DOM
(``DOM.getDocument``, shadow trees pierced) for its tag and ``data-llm-id``; a pagelens
capture must have run first to stamp those ids (:func:`agreement` runs it). Visibility is
evaluated in an isolated world of our own: for stamped elements in one call, for the rest
(``DOM.resolveNode``) one by one.

Agreement (:func:`agreement`, pooled by :func:`corpus_agreement`): over the *named*
visible interactive elements, the share whose interaction-view name equals Chromium's
(both whitespace-normalised; a name pagelens truncated at 160 characters agrees when it is
a prefix), whose role equals the mapped Chromium role, and that appear in the interaction
view (no control cap) and, of those seen, in the semantic view (off-screen controls
included). Elements missing from a view count against every rate.

Run ``python -m bench.axtruth [page ids] [--json mismatches.json]`` for the whole corpus.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

import pagelens
from bench.corpus import answer_https_from_disk

# Chromium role (as CDP reports it) -> the pagelens interaction role.
ROLE_MAP: dict[str, str] = {
    "button": "button",
    "link": "link",
    "textbox": "textbox",
    "searchbox": "searchbox",
    "combobox": "combobox",
    "listbox": "listbox",
    "option": "option",
    "checkbox": "checkbox",
    "radio": "radio",
    "switch": "switch",
    "slider": "slider",
    "spinbutton": "spinbutton",
    "tab": "tab",
    "menuitem": "menuitem",
    "menuitemcheckbox": "menuitemcheckbox",
    "menuitemradio": "menuitemradio",
    "treeitem": "treeitem",
    "scrollbar": "scrollbar",
    "DisclosureTriangle": "button",
    "ColorWell": "color",
    "Date": "date",
    "DateTime": "date",
    "InputTime": "date",
}

MAX_NAME = 160  # the interaction view's name limit (engine/js/interaction.js)
ID_ATTR = "data-llm-id"
_WORLD = "pagelens-axtruth"
_GROUP = "pagelens-axtruth"
_CHUNK = 500  # elements per Runtime.callFunctionOn

# The visibility test (see the module docstring), run in our own isolated world: 0 not
# visible, 1 visible but faded out, 2 seen.
_VISIBLE_JS = """function visible(el) {
  if (!el || el.nodeType !== 1 || !el.isConnected) return false;
  const hasBox = (r) => r.width > 0 && r.height > 0;
  let box = Array.from(el.getClientRects()).some(hasBox);
  if (!box) {
    const range = document.createRange();
    range.selectNodeContents(el);
    box = hasBox(range.getBoundingClientRect());
  }
  if (!box || !el.checkVisibility({ checkVisibilityCSS: true })) return 0;
  return el.checkVisibility({ checkOpacity: true }) ? 2 : 1;
}"""

# Visibility of every element pagelens stamped, by id: one call for the whole page.
_STAMPED_VISIBILITY = f"""(() => {{
  {_VISIBLE_JS}
  const out = {{}};
  const visit = (root) => {{
    for (const el of root.querySelectorAll('[{ID_ATTR}]')) out[el.getAttribute('{ID_ATTR}')] = visible(el);
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
  }};
  visit(document);
  return out;
}})()"""

# Visibility of elements passed in (the few AX nodes pagelens did not stamp).
_ELEMENTS_VISIBILITY = f"function (...els) {{ {_VISIBLE_JS} return els.map(visible); }}"


def normalize_name(text: str | None) -> str:
    return re.sub(r"[\s\u00a0\u200b]+", " ", text or "").strip()


def names_agree(pagelens_name: str, chromium_name: str) -> bool:
    """Equal after whitespace normalisation; a name pagelens truncated ("…") agrees when it
    is a prefix of Chromium's long name."""
    ours, theirs = normalize_name(pagelens_name), normalize_name(chromium_name)
    if ours == theirs:
        return True
    return ours.endswith("\u2026") and len(theirs) > MAX_NAME - 10 and theirs.startswith(ours[:-1].rstrip())


@dataclass(frozen=True)
class AxControl:
    """A visible interactive element as Chromium's accessibility tree exposes it."""

    backend_node_id: int
    role: str  # Chromium's role mapped to the pagelens role vocabulary
    chromium_role: str
    name: str  # whitespace-normalised
    tag: str
    llm_id: str | None  # the element's data-llm-id, None when pagelens never stamped it
    seen: bool = True  # not faded out (opacity 0 on it or an ancestor)


@dataclass
class Mismatch:
    page: str
    llm_id: str | None
    tag: str
    kind: str  # "name", "role", "missing", or "unnamed" (pagelens names what Chromium does not)
    chromium_role: str
    expected_role: str
    expected_name: str
    pagelens_role: str | None
    pagelens_name: str | None


@dataclass
class AgreementStats:
    """Counts over the named visible interactive AX elements of one page (or pooled)."""

    named: int = 0
    name_matches: int = 0
    role_matches: int = 0
    covered_interaction: int = 0
    covered_semantic: int = 0
    seen: int = 0  # named elements not faded out: what the semantic view is measured on
    unnamed: int = 0  # visible interactive elements Chromium leaves unnamed (not in the rates)
    unnamed_matches: int = 0  # ... that pagelens leaves unnamed too
    pages: int = 0
    failed: list[str] = field(default_factory=list)  # pages that could not be measured
    mismatches: list[Mismatch] = field(default_factory=list)

    def merge(self, other: AgreementStats) -> None:
        self.named += other.named
        self.name_matches += other.name_matches
        self.role_matches += other.role_matches
        self.covered_interaction += other.covered_interaction
        self.covered_semantic += other.covered_semantic
        self.seen += other.seen
        self.unnamed += other.unnamed
        self.unnamed_matches += other.unnamed_matches
        self.pages += other.pages
        self.failed.extend(other.failed)
        self.mismatches.extend(other.mismatches)

    def rate(self, count: int) -> float:
        return count / self.named if self.named else 1.0

    @property
    def name_rate(self) -> float:
        return self.rate(self.name_matches)

    @property
    def role_rate(self) -> float:
        return self.rate(self.role_matches)

    @property
    def interaction_coverage(self) -> float:
        return self.rate(self.covered_interaction)

    @property
    def semantic_coverage(self) -> float:
        return self.covered_semantic / self.seen if self.seen else 1.0

    def summary(self) -> str:
        return (
            f"{self.named} named AX elements on {self.pages} pages ({self.unnamed} unnamed, "
            f"{self.unnamed_matches} unnamed by pagelens too): "
            f"name {self.name_rate:.2%}, role {self.role_rate:.2%}, "
            f"coverage interaction {self.interaction_coverage:.2%} / semantic {self.semantic_coverage:.2%}"
        )


async def _cdp(page: pagelens.Page) -> CDPSession:
    pw = page.playwright_page
    return await pw.context.new_cdp_session(pw)


def _candidates(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for node in nodes:
        role = node.get("role", {}).get("value")
        if node.get("ignored") or role not in ROLE_MAP or not node.get("backendDOMNodeId"):
            continue
        out.append(node)
    return out


@dataclass(frozen=True)
class _DomNode:
    tag: str
    llm_id: str | None
    in_ua_shadow: bool  # Chromium's own furniture (a date picker's fields, <video> controls)


def _dom_index(root: dict[str, Any]) -> dict[int, _DomNode]:
    """Every element of the main frame's DOM (shadow trees included, frames not) by
    backend node id, from one DOM.getDocument."""
    index: dict[int, _DomNode] = {}
    stack = [(root, False)]
    while stack:
        node, in_ua = stack.pop()
        if node.get("nodeType") == 1:
            attributes = node.get("attributes") or []
            llm_id = next((attributes[i + 1] for i in range(0, len(attributes), 2) if attributes[i] == ID_ATTR), None)
            index[node["backendNodeId"]] = _DomNode(node.get("localName", ""), llm_id, in_ua)
        for shadow in node.get("shadowRoots", []):
            stack.append((shadow, in_ua or shadow.get("shadowRootType") == "user-agent"))
        stack.extend((child, in_ua) for child in node.get("children", []))
    return index


async def _visibility(cdp: CDPSession, context_id: int, nodes: list[tuple[int, _DomNode]]) -> list[int]:
    """Whether each (backend id, element) passes the visibility test: stamped elements in
    one call, the others one by one."""
    reply = await cdp.send(
        "Runtime.evaluate", {"expression": _STAMPED_VISIBILITY, "contextId": context_id, "returnByValue": True}
    )
    stamped: dict[str, int] = reply["result"].get("value") or {}
    unstamped = [backend_id for backend_id, node in nodes if node.llm_id not in stamped]
    others = dict(zip(unstamped, await _visibility_of(cdp, context_id, unstamped), strict=True))
    return [stamped[node.llm_id] if node.llm_id in stamped else others[b] for b, node in nodes]


async def _visibility_of(cdp: CDPSession, context_id: int, backend_ids: list[int]) -> list[int]:
    async def resolve(backend_id: int) -> str | None:
        try:
            reply = await cdp.send(
                "DOM.resolveNode",
                {"backendNodeId": backend_id, "executionContextId": context_id, "objectGroup": _GROUP},
            )
        except PlaywrightError:  # the node went away meanwhile
            return None
        return reply["object"].get("objectId")

    object_ids = await asyncio.gather(*(resolve(b) for b in backend_ids))
    out: list[int] = []
    try:
        for start in range(0, len(object_ids), _CHUNK):
            chunk = object_ids[start : start + _CHUNK]
            anchor = next((oid for oid in chunk if oid), None)
            if anchor is None:
                out.extend([0] * len(chunk))
                continue
            args = [{"objectId": oid} if oid else {"value": None} for oid in chunk]
            reply = await cdp.send(
                "Runtime.callFunctionOn",
                {
                    "functionDeclaration": _ELEMENTS_VISIBILITY,
                    "objectId": anchor,
                    "arguments": args,
                    "returnByValue": True,
                },
            )
            out.extend(reply["result"]["value"])
    finally:
        await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": _GROUP})
    return out


async def ax_ground_truth(page: pagelens.Page, cdp: CDPSession | None = None) -> list[AxControl]:
    """The visible interactive elements of the main frame, as Chromium's accessibility
    tree names and roles them (see the module docstring). Run a pagelens capture first
    so that ``llm_id`` is filled in."""
    own = cdp is None
    cdp = cdp or await _cdp(page)
    try:
        tree = await cdp.send("Accessibility.getFullAXTree")
        document = await cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})
        dom = _dom_index(document["root"])
        nodes = [
            (n, dom[n["backendDOMNodeId"]])
            for n in _candidates(tree["nodes"])
            if n["backendDOMNodeId"] in dom
            and not dom[n["backendDOMNodeId"]].in_ua_shadow
            and dom[n["backendDOMNodeId"]].tag != "option"
        ]
        frame_id = (await cdp.send("Page.getFrameTree"))["frameTree"]["frame"]["id"]
        world = await cdp.send("Page.createIsolatedWorld", {"frameId": frame_id, "worldName": _WORLD})
        shown = await _visibility(cdp, world["executionContextId"], [(n["backendDOMNodeId"], d) for n, d in nodes])
    finally:
        if own:
            await cdp.detach()
    return [
        AxControl(
            backend_node_id=node["backendDOMNodeId"],
            role=ROLE_MAP[node["role"]["value"]],
            chromium_role=node["role"]["value"],
            name=normalize_name(node.get("name", {}).get("value")),
            tag=dom_node.tag,
            llm_id=dom_node.llm_id,
            seen=visible == 2,
        )
        for (node, dom_node), visible in zip(nodes, shown, strict=True)
        if visible
    ]


async def agreement(page: pagelens.Page, label: str = "") -> AgreementStats:
    """Capture the interaction view (no cap) and the semantic view (off-screen included),
    then compare them with Chromium's tree on the named visible interactive elements."""
    model = await page.interaction_model({"maxControls": 100_000})
    semantic = await page.semantic_tree(include_offscreen=True)
    truth = await ax_ground_truth(page)
    controls = {c.id: c for c in model.controls}
    semantic_ids = {n.i for n in semantic.interactive_tree}
    stats = AgreementStats(pages=1)
    for ax in truth:
        if not ax.name:
            stats.unnamed += 1
            unnamed_control = controls.get(ax.llm_id) if ax.llm_id else None
            if unnamed_control is not None and not unnamed_control.name:
                stats.unnamed_matches += 1
            elif unnamed_control is not None:
                stats.mismatches.append(_mismatch(label, ax, "unnamed", unnamed_control.role, unnamed_control.name))
            continue
        stats.named += 1
        control = controls.get(ax.llm_id) if ax.llm_id else None
        if ax.seen:
            stats.seen += 1
            stats.covered_semantic += ax.llm_id in semantic_ids
        if control is None:
            stats.mismatches.append(_mismatch(label, ax, "missing", None, None))
            continue
        stats.covered_interaction += 1
        if names_agree(control.name, ax.name):
            stats.name_matches += 1
        else:
            stats.mismatches.append(_mismatch(label, ax, "name", control.role, control.name))
        if control.role == ax.role:
            stats.role_matches += 1
        else:
            stats.mismatches.append(_mismatch(label, ax, "role", control.role, control.name))
    return stats


def _mismatch(label: str, ax: AxControl, kind: str, role: str | None, name: str | None) -> Mismatch:
    return Mismatch(
        page=label,
        llm_id=ax.llm_id,
        tag=ax.tag,
        kind=kind,
        chromium_role=ax.chromium_role,
        expected_role=ax.role,
        expected_name=ax.name,
        pagelens_role=role,
        pagelens_name=name,
    )


async def engine_evaluate(page: pagelens.Page, expression: str, *, by_value: bool = True) -> Any:
    """Evaluate `expression` in the pagelens engine's isolated world of the main frame,
    where ``engine`` is the engine's entry object (its name, role and visibility
    primitives among its methods). By reference: ``{"objectId": ...}``."""
    world = await page.main_world()
    function = f"function () {{ const engine = this; return ({expression}); }}"
    value = await world.apply(function, timeout=10.0, by_value=by_value)
    return value if by_value else {"objectId": value}


async def chromium_name(page: pagelens.Page, expression: str) -> str | None:
    """Chromium's accessible name for the element `expression` evaluates to (in the
    engine's world), or None when there is no such element or node."""
    remote = await engine_evaluate(page, expression, by_value=False)
    object_id = remote.get("objectId")
    if not object_id:
        return None
    world = await page.main_world()
    node = await world.session.send("DOM.describeNode", {"objectId": object_id})
    await world.session.send("Runtime.releaseObject", {"objectId": object_id})
    tree = await world.session.send(
        "Accessibility.getPartialAXTree",
        {"backendNodeId": node["node"]["backendNodeId"], "fetchRelatives": False},
    )
    nodes = tree.get("nodes") or [{}]
    return normalize_name(nodes[0].get("name", {}).get("value"))


@dataclass(frozen=True)
class NameCase:
    """One expected accessible name from a WPT accname page."""

    page: str
    element: str  # the element's id, or its position among the page's tested elements
    expected: str
    pagelens: str | None  # None: the element is not on the page
    chromium: str | None

    @property
    def matches(self) -> bool:
        return self.pagelens is not None and normalize_name(self.pagelens) == normalize_name(self.expected)


async def wpt_name_cases(page: pagelens.Page, corpus_page: Any) -> list[NameCase]:
    """The expected names of a loaded ``wpt-accname-*`` corpus page (its
    expected-names.json) next to the names pagelens and Chromium compute."""
    truth = corpus_page.ground_truth("expected-names.json")
    cases = []
    if "elements" in truth:  # data-expectedlabel pages: elements in document order
        for element in truth["elements"]:
            query = f"document.querySelectorAll('[data-expectedlabel]')[{element['ordinal']}]"
            cases.append((element.get("id") or f"#{element['ordinal']}", element["expected_label"], query))
    else:
        for step in truth["steps"]:
            if "expected_name" in step:
                query = f"document.getElementById({json.dumps(step['element_id'])})"
                cases.append((step["element_id"], step["expected_name"], query))
    out = []
    for element, expected, query in cases:
        ours = await engine_evaluate(
            page, f"(() => {{ const e = {query}; return e ? engine.accessibleName(e) : null; }})()"
        )
        out.append(NameCase(corpus_page.id, element, expected, ours, await chromium_name(page, query)))
    return out


_DEAD_PROXY = "http://127.0.0.1:9"  # the discard port; loopback itself bypasses proxies
LOAD_GRACE_MS = 3_000  # how long a page may keep loading after its DOM is ready


@contextlib.asynccontextmanager
async def offline_browser() -> AsyncIterator[pagelens.Browser]:
    """A Chromium that reaches loopback only, enforced by Chromium itself: every other
    request goes to a dead proxy and fails at once. Unlike an allow-list route, no request
    makes a round trip through Python, which makes a corpus walk a fifth cheaper."""
    browser = await pagelens.Browser.launch(args=[f"--proxy-server={_DEAD_PROXY}"])
    try:
        yield browser
    finally:
        await browser.close()


async def open_page(page: pagelens.Page, url: str, seconds: float = 30.0) -> None:
    """Navigate and wait for the DOM, then for the load event for a short while: a saved
    page whose subresources never finish must not stall a benchmark."""
    await page.goto(url, wait_until="domcontentloaded", timeout=seconds)
    with contextlib.suppress(PlaywrightError):
        await page.playwright_page.wait_for_load_state("load", timeout=LOAD_GRACE_MS)


@contextlib.asynccontextmanager
async def scripts_stopped(page: pagelens.Page) -> AsyncIterator[None]:
    """The page's scripts stopped meanwhile: what is read is the page as loaded, not what
    a timer changed between two reads, and a page whose script sends the tab elsewhere
    after its load (a consent script on a saved copy) stays to be measured."""
    pw = page.playwright_page
    cdp = await pw.context.new_cdp_session(pw)
    try:
        await cdp.send("Emulation.setScriptExecutionDisabled", {"value": True})
        yield
    finally:
        with contextlib.suppress(PlaywrightError):  # the tab is gone: nothing to restore
            await cdp.send("Emulation.setScriptExecutionDisabled", {"value": False})
            await cdp.detach()


async def corpus_agreement(
    browser: pagelens.Browser,
    base_url: str,
    page_ids: list[str],
    *,
    tabs: int = 2,
    seconds: float = 30.0,
    progress: Callable[[str, AgreementStats], None] | None = None,
    also: Callable[[pagelens.Page, str], Awaitable[None]] | None = None,
) -> AgreementStats:
    """Pool :func:`agreement` over corpus pages. `tabs` tabs work through the pages side
    by side (each its own renderer, so two cores both work); a tab that fails a page is
    replaced and the failure recorded in ``failed``. `base_url` serves
    bench.corpus.PAGES_DIR. Mismatches come back in `page_ids` order. `also(page, id)`
    reads whatever else its caller wants from the same load of each page, after the
    agreement: loading the corpus is most of a walk's cost. Both read each page with its
    scripts stopped once it has loaded (`scripts_stopped`)."""
    queue = list(enumerate(page_ids))
    await answer_https_from_disk(browser.context, base_url)
    results: dict[int, AgreementStats] = {}
    pooled = AgreementStats()

    async def measure(page: pagelens.Page, page_id: str) -> AgreementStats:
        await open_page(page, f"{base_url}{page_id}/page.html", seconds)
        async with scripts_stopped(page):
            stats = await agreement(page, page_id)
            if also is not None:
                await also(page, page_id)
        return stats

    async def worker() -> None:
        page = await browser.new_page()
        try:
            while queue:
                index, page_id = queue.pop(0)
                # A page that fails (a load timeout on a busy machine) gets one more try
                # in a fresh tab before it counts as failed.
                for attempt in (1, 2):
                    try:
                        results[index] = await measure(page, page_id)
                        break
                    except (pagelens.PagelensError, PlaywrightError) as exc:
                        results[index] = AgreementStats(failed=[f"{page_id}: {exc}"])
                        await page.close()
                        page = await browser.new_page()
                        if attempt == 2:
                            break
                if progress:
                    pooled.merge(results[index])
                    progress(page_id, pooled)
        finally:
            await page.close()

    await asyncio.gather(*(worker() for _ in range(max(1, tabs))))
    total = AgreementStats()
    for index in sorted(results):
        total.merge(results[index])
    return total


async def _main() -> None:
    import argparse
    import sys
    import time
    from collections import Counter
    from dataclasses import asdict

    from bench.corpus import PAGES_DIR, corpus_pages

    parser = argparse.ArgumentParser(description="pagelens vs Chromium's accessibility tree")
    parser.add_argument("ids", nargs="*", help="corpus page ids (default: all)")
    parser.add_argument("--json", help="write the mismatches here")
    parser.add_argument("--tabs", type=int, default=2, help="pages measured side by side")
    args = parser.parse_args()
    ids = args.ids or [p.id for p in corpus_pages()]
    started = time.monotonic()
    with pagelens.serve_directory(PAGES_DIR) as base:
        async with offline_browser() as browser:
            stats = await corpus_agreement(
                browser,
                base,
                ids,
                tabs=args.tabs,
                progress=lambda pid, s: print(pid, s.summary(), file=sys.stderr, flush=True),
            )
    print(stats.summary(), f"in {time.monotonic() - started:.0f} s")
    kinds = Counter((m.kind, m.chromium_role) for m in stats.mismatches)
    for (kind, role), n in kinds.most_common():
        print(f"  {kind:8} {role:20} {n}")
    if args.json:
        _write_json(args.json, [asdict(m) for m in stats.mismatches])


def _write_json(path: str, data: Any) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    asyncio.run(_main())
