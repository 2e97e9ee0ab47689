"""Selectors in a fresh load: does every selector the interaction model hands out find its
own element, alone, in a new load of the page where pagelens never ran?

    python -m bench.selectors                 # the whole corpus
    python -m bench.selectors --pages 40      # the first 40 pages
    python -m bench.selectors --only id,id    # these pages

For each corpus page (served on 127.0.0.1, other hosts blocked): load it in a browser
context of its own, stop its scripts once loaded, and take the interaction model (every
control, frames included) and the compact summary. Then load it again in a second, fresh
context, stop its scripts the same way, and before any engine runs there resolve every
selector with ``querySelectorAll`` in the document and each open shadow root (each root
on its own: a CSS selector does not cross a shadow boundary), in the frame the control
was in. A selector that matches exactly one element has that element marked; then the
engine runs in the second context, and the marked element's role and accessible name
there are compared with the control's.

Counted per control: `unique` (exactly one match), `same` (and it has the control's role
and name), `null` (no selector: one cannot be expressed in CSS, docs/ids.md), `stamped`
(a ``[data-llm-id]`` selector, which only the stamped tab knows). The budget is `same` over
every control, nulls counting against it: at least 99.5 %, and no stamped selector.

Pages whose scripts build a different DOM on each load (random ids, shuffled items) are
found by comparing the shape of the two loads (every element's tag, id and classes, in
order). They are counted like any page — a selector that depends on what a script drew
is a real failure for whoever uses it — and shown in a row of their own.

The compact summary's primary actions are checked the same way (their CSS ones; `text=`
selectors are resolved by pagelens against names and are not CSS), beside the budget.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext, CDPSession, Frame
from playwright.async_api import Page as PlaywrightPage
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pagelens
from bench.corpus import PAGES_DIR, CorpusPage, answer_https_from_disk, corpus_pages
from bench.results import write_results
from pagelens.browser.network import LOOPBACK_HOSTS
from pagelens.errors import ErrorCode, PagelensError

BUDGET_SAME_PCT = 99.5
ID_ATTR = "data-llm-id"
PROBE_ATTR = "data-selector-probe"
NAVIGATION_TIMEOUT_S = 10.0
CAPTURE_TIMEOUT_S = 60.0
PAGE_TIMEOUT_S = 180.0
ALL_CONTROLS = {"maxControls": 100_000}
_SLOW_RESOURCES = {"image", "media", "font"}

# The document and its open shadow roots, as a CSS consumer pierces them: each root queried
# on its own.
_ROOTS_JS = """
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
"""

# [[probe, selector]] -> match counts (-1: the browser cannot parse it); a single match is
# marked with its probe (several probes on one element are space-separated).
_RESOLVE_JS = f"""(items) => {{
  {_ROOTS_JS}
  return items.map(([probe, selector]) => {{
    const found = [];
    try {{
      for (const root of roots) found.push(...root.querySelectorAll(selector));
    }} catch (e) {{
      return -1;
    }}
    if (found.length === 1) {{
      const old = found[0].getAttribute('{PROBE_ATTR}');
      found[0].setAttribute('{PROBE_ATTR}', old ? old + ' ' + probe : probe);
    }}
    return found.length;
  }});
}}"""

# Every marked element's probes and the id the engine gave it (null when it is no control).
_PROBES_JS = f"""() => {{
  {_ROOTS_JS}
  const out = [];
  for (const root of roots) {{
    for (const el of root.querySelectorAll('[{PROBE_ATTR}]')) {{
      for (const probe of el.getAttribute('{PROBE_ATTR}').split(' ')) out.push([probe, el.getAttribute('{ID_ATTR}')]);
    }}
  }}
  return out;
}}"""

# The shape of the DOM: every element's tag, id and classes in document order, shadow
# trees after the document (hashed, FNV-1a).
_SHAPE_JS = f"""() => {{
  {_ROOTS_JS}
  let hash = 0x811c9dc5, count = 0;
  for (const root of roots) {{
    for (const el of root.querySelectorAll('*')) {{
      count++;
      const text = el.localName + '#' + el.id + '.' + (el.getAttribute('class') || '') + ';';
      for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
    }}
  }}
  return count + ':' + hash.toString(16);
}}"""

# An element's position from the root: tags with :nth-of-type everywhere, to find a
# frame element again in the other load.
_POSITION_JS = """(el) => {
  const steps = [];
  for (let cur = el; cur; cur = cur.parentElement) {
    let nth = 1;
    for (let sib = cur.previousElementSibling; sib; sib = sib.previousElementSibling) {
      if (sib.localName === cur.localName) nth++;
    }
    steps.unshift(`${CSS.escape(cur.localName)}:nth-of-type(${nth})`);
  }
  return steps.join(' > ');
}"""


@dataclass
class Check:
    """One selector: the control it was made for, and what the fresh load found."""

    id: str
    role: str
    name: str
    selector: str | None
    matches: int | None = None  # None: no selector to resolve; -1: not parsable
    found_role: str | None = None
    found_name: str | None = None

    @property
    def unique(self) -> bool:
        return self.matches == 1

    @property
    def same(self) -> bool:
        return self.unique and self.found_role == self.role and _fold(self.found_name or "") == _fold(self.name)

    @property
    def stamped(self) -> bool:
        return self.selector is not None and ID_ATTR in self.selector

    def outcome(self) -> str:
        if self.selector is None:
            return "no selector"
        if self.matches == -1:
            return "not valid CSS"
        if not self.unique:
            return f"matches {self.matches} elements"
        if not self.same:
            return f"matches {self.found_role or 'a non-control'} {self.found_name!r}"
        return "ok"


@dataclass
class PageSweep:
    id: str
    kind: str
    controls: list[Check] = field(default_factory=list)
    actions: list[Check] = field(default_factory=list)  # the compact summary's CSS selectors
    text_actions: int = 0  # its `text=` selectors, not CSS
    varies: bool = False  # the two loads built different DOMs
    error: str | None = None


def _fold(text: str) -> str:
    return " ".join(text.split()).lower()


# ---- one page


@asynccontextmanager
async def fresh_context(browser: pagelens.Browser) -> AsyncIterator[BrowserContext]:
    """A browser context of its own (no cookies, storage or engine from another load),
    under the browser's network policy."""
    context = await browser.playwright_browser.new_context(
        viewport={"width": browser.viewport[0], "height": browser.viewport[1]}
    )
    try:
        if browser.policy.restricts:
            await context.route("**/*", browser.policy.handle)
        yield context
    finally:
        await context.close()


async def load_and_stop(context: BrowserContext, url: str) -> pagelens.Page:
    """Load `url` in a new tab and stop its scripts: both loads are compared as they were
    when loaded, not after timers moved things around. Images, media and fonts are not
    fetched (they cannot change what a selector matches)."""
    tab = await context.new_page()
    await tab.route("**/*", skip_slow_resources)
    page = pagelens.Page(tab)
    await load_frozen(page, await context.new_cdp_session(tab), url)
    return page


async def load_frozen(page: pagelens.Page, cdp: CDPSession, url: str, seconds: float = NAVIGATION_TIMEOUT_S) -> None:
    """Load `url` with scripts on, then stop them (`cdp`: the tab's session), so the
    page stays as it was when loaded."""
    await cdp.send("Emulation.setScriptExecutionDisabled", {"value": False})
    try:
        await page.goto(url, timeout=seconds)
    except PagelensError as exc:
        if exc.code != ErrorCode.NAVIGATION_TIMEOUT:
            raise
        # A page whose load event never comes is still a page: compare what rendered.
    await cdp.send("Emulation.setScriptExecutionDisabled", {"value": True})


async def skip_slow_resources(route: Any) -> None:
    """Images, media and fonts are not fetched: they cannot change what a selector matches."""
    if route.request.resource_type in _SLOW_RESOURCES:
        await route.abort()
    else:
        await route.fallback()


async def _frame_positions(frame: Frame, main: Frame) -> list[str] | None:
    """The positions of the frame elements from the top document down to `frame`."""
    chain: list[str] = []
    while frame != main:
        parent = frame.parent_frame
        if parent is None:
            return None
        owner = await frame.frame_element()
        chain.insert(0, await owner.evaluate(_POSITION_JS))
        frame = parent
    return chain


async def _frame_at(tab: PlaywrightPage, chain: list[str]) -> Frame | None:
    frame: Frame | None = tab.main_frame
    for position in chain:
        assert frame is not None
        owner = await frame.query_selector(position)
        frame = await owner.content_frame() if owner else None
        if frame is None:
            return None
    return frame


async def _prefix(frame: Frame, main: Frame) -> str | None:
    """The id prefix of a frame's controls ("12." inside frame element 12)."""
    prefix = ""
    while frame != main:
        parent = frame.parent_frame
        owner_id = await (await frame.frame_element()).get_attribute(ID_ATTR) if parent else None
        if parent is None or owner_id is None:
            return None
        prefix = f"{owner_id}.{prefix}"
        frame = parent
    return prefix


async def _frames_by_prefix(tab: PlaywrightPage) -> dict[str, Frame]:
    found = {}
    for frame in tab.frames:
        prefix = await _prefix(frame, tab.main_frame)
        if prefix is not None:
            found[prefix] = frame
    return found


async def sweep_page(browser: pagelens.Browser, url: str, *, page_id: str = "", kind: str = "") -> PageSweep:
    """Take the interaction model and the compact summary of `url` in one context and
    resolve their selectors in a fresh load in another (see the module's doc)."""
    sweep = PageSweep(id=page_id or url, kind=kind)
    async with fresh_context(browser) as first_context, fresh_context(browser) as second_context:
        for context in (first_context, second_context):
            await answer_https_from_disk(context, url)
        first = await load_and_stop(first_context, url)
        shape = await first.playwright_page.evaluate(_SHAPE_JS)
        model = await first.interaction_model(ALL_CONTROLS, timeout=CAPTURE_TIMEOUT_S)
        compact = await first.summary("compact", timeout=CAPTURE_TIMEOUT_S)
        controls = {c.id: c for c in model.controls}
        sweep.controls = [Check(c.id, c.role, c.name, c.selector) for c in model.controls]
        tab = first.playwright_page
        # Which control each CSS action selector names, found in this load.
        css_actions = [a for a in compact.primary_actions if not a.selector.startswith("text=")]
        sweep.text_actions = len(compact.primary_actions) - len(css_actions)
        named = await tab.main_frame.evaluate(_RESOLVE_JS, [[str(i), a.selector] for i, a in enumerate(css_actions)])
        action_ids = dict(await tab.main_frame.evaluate(_PROBES_JS))
        for i, (action, count) in enumerate(zip(css_actions, named, strict=True)):
            control = controls.get(action_ids.get(str(i)) or "") if count == 1 else None
            role, name = (control.role, control.name) if control else ("?", action.label)
            sweep.actions.append(Check(f"action {i}", role, name, action.selector))
        # Each frame's controls go to the same frame of the other load.
        groups: dict[str, list[Check]] = {}
        for check in sweep.controls:
            prefix, _, _ = check.id.rpartition(".")
            groups.setdefault(f"{prefix}." if prefix else "", []).append(check)
        first_frames = await _frames_by_prefix(tab)
        positions = {p: await _frame_positions(f, tab.main_frame) for p, f in first_frames.items() if p in groups}

        second = await load_and_stop(second_context, url)
        other = second.playwright_page
        sweep.varies = await other.evaluate(_SHAPE_JS) != shape
        probed: dict[str, Check] = {}
        frames_used: list[Frame] = []
        for prefix, checks in groups.items():
            chain = positions.get(prefix)
            frame = await _frame_at(other, chain) if chain is not None else None
            checks_here = checks + (sweep.actions if prefix == "" else [])
            if frame is None:
                continue  # the frame is not in the other load: nothing matches
            frames_used.append(frame)
            items = [[f"{prefix}{n}", c.selector] for n, c in enumerate(checks_here) if c.selector is not None]
            counts = await frame.evaluate(_RESOLVE_JS, items)
            by_probe = {probe: c for (probe, _), c in zip(items, (c for c in checks_here if c.selector), strict=True)}
            for (probe, _), count in zip(items, counts, strict=True):
                by_probe[probe].matches = count
            probed.update(by_probe)
        if not probed:
            return sweep
        found = await second.interaction_model(ALL_CONTROLS, timeout=CAPTURE_TIMEOUT_S)
        found_controls = {c.id: c for c in found.controls}
        second_prefixes = {frame: await _prefix(frame, other.main_frame) for frame in frames_used}
        for frame in frames_used:
            found_prefix = second_prefixes[frame]
            for probe, local_id in await frame.evaluate(_PROBES_JS):
                control = (
                    found_controls.get(f"{found_prefix}{local_id}") if found_prefix is not None and local_id else None
                )
                resolved = probed.get(probe)
                if resolved is not None and control is not None:
                    resolved.found_role, resolved.found_name = control.role, control.name
    return sweep


# ---- the corpus


async def sweep_corpus(pages: list[CorpusPage], workers: int, progress: Progress) -> list[PageSweep]:
    results: list[PageSweep] = []
    queue: asyncio.Queue[CorpusPage] = asyncio.Queue()
    for page in pages:
        queue.put_nowait(page)
    task = progress.add_task("pages", total=len(pages))
    async with pagelens.launch(allowed_hosts=LOOPBACK_HOSTS) as browser:
        with pagelens.serve_directory(PAGES_DIR) as base_url:

            async def worker() -> None:
                while not queue.empty():
                    entry = queue.get_nowait()
                    progress.update(task, description=entry.id[:48])
                    try:
                        async with asyncio.timeout(PAGE_TIMEOUT_S):
                            result = await sweep_page(browser, entry.path(base_url), page_id=entry.id, kind=entry.kind)
                    except Exception as exc:  # noqa: BLE001 - one bad page must not end the run
                        result = PageSweep(id=entry.id, kind=entry.kind, error=f"{type(exc).__name__}: {exc}"[:300])
                    results.append(result)
                    progress.advance(task)

            await asyncio.gather(*(worker() for _ in range(workers)))
    order = {p.id: i for i, p in enumerate(pages)}
    return sorted(results, key=lambda r: order[r.id])


@dataclass
class Row:
    label: str
    pages: int = 0
    selectors: int = 0
    unique: int = 0
    same: int = 0
    null: int = 0
    stamped: int = 0

    def add(self, checks: list[Check]) -> None:
        self.selectors += len(checks)
        self.unique += sum(c.unique for c in checks)
        self.same += sum(c.same for c in checks)
        self.null += sum(c.selector is None for c in checks)
        self.stamped += sum(c.stamped for c in checks)

    def pct(self, count: int) -> float | None:
        return 100.0 * count / self.selectors if self.selectors else None


def tabulate(results: list[PageSweep]) -> dict[str, Any]:
    kinds: dict[str, Row] = {}
    total, varying, actions = Row("all"), Row("pages that vary per load"), Row("compact summary actions (CSS)")
    for result in results:
        if result.error:
            continue
        row = kinds.setdefault(result.kind, Row(result.kind))
        for target in (row, total, *([varying] if result.varies else [])):
            target.pages += 1
            target.add(result.controls)
        actions.pages += 1
        actions.add(result.actions)
    rows = [*sorted(kinds.values(), key=lambda r: r.label), total, varying, actions]
    same_pct = total.pct(total.same)
    budgets = [
        {
            "name": "same element in a fresh load (of every control)",
            "measured": same_pct,
            "limit": f">= {BUDGET_SAME_PCT} %",
            "passed": same_pct is not None and same_pct >= BUDGET_SAME_PCT,
        },
        {
            "name": "[data-llm-id] selectors handed out",
            "measured": total.stamped,
            "limit": "0",
            "passed": not total.stamped,
        },
    ]
    failures = [
        {
            "page": r.id,
            "varies": r.varies,
            "role": c.role,
            "name": c.name[:60],
            "selector": c.selector,
            "outcome": c.outcome(),
        }
        for r in results
        for c in r.controls
        if not c.same
    ]
    return {
        "rows": [asdict(r) for r in rows],
        "budgets": budgets,
        "failures": failures,
        "errors": {r.id: r.error for r in results if r.error},
        "text_actions": sum(r.text_actions for r in results),
    }


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} %"


def render(console: Console, summary: dict[str, Any], shown: int) -> None:
    table = Table(title="Selectors resolved in a fresh load (querySelectorAll, open shadow roots, same frame)")
    for column in ("kind", "pages", "selectors", "unique", "same element", "missed", "null", "[data-llm-id]"):
        table.add_column(escape(column), justify="left" if column == "kind" else "right")
    for row in summary["rows"]:
        n = row["selectors"]
        table.add_row(
            row["label"],
            str(row["pages"]),
            f"{n:,}",
            _pct(100 * row["unique"] / n if n else None),
            _pct(100 * row["same"] / n if n else None),
            str(n - row["same"]),
            str(row["null"]),
            str(row["stamped"]),
        )
    console.print(table)
    console.print(f"  compact summary `text=` actions (not CSS, not resolved here): {summary['text_actions']}")
    for page_id, error in list(summary["errors"].items())[:shown]:
        console.print(f"[yellow]could not sweep[/yellow] {page_id}: {escape(error)}")
    for failure in summary["failures"][:shown]:
        varies = " (varies per load)" if failure["varies"] else ""
        console.print(
            f"  {failure['page']}{varies}: {failure['role']} {failure['name']!r} {failure['selector']!r}: "
            f"{failure['outcome']}",
            markup=False,
        )
    if len(summary["failures"]) > shown:
        console.print(f"  ... and {len(summary['failures']) - shown} more (see the JSON)")
    budgets = Table(title="Budgets")
    for column in ("budget", "measured", "limit", "result"):
        budgets.add_column(column, justify="left" if column == "budget" else "right")
    for budget in summary["budgets"]:
        measured = budget["measured"]
        shown_value = (
            "-" if measured is None else (f"{measured:.2f} %" if isinstance(measured, float) else str(measured))
        )
        verdict = "[green]PASS[/green]" if budget["passed"] else "[red]FAIL[/red]"
        budgets.add_row(escape(budget["name"]), shown_value, budget["limit"], verdict)
    console.print(budgets)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.selectors", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=None, help="only the first N corpus pages")
    parser.add_argument("--only", default="", help="comma-separated page ids")
    parser.add_argument("--workers", type=int, default=2, help="pages swept at once")
    parser.add_argument("--failures", type=int, default=25, help="failures to print")
    parser.add_argument("--json", type=Path, default=None, help="where to write the results")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 150)
    pages = list(corpus_pages())[: args.pages]
    if args.only:
        wanted = set(args.only.split(","))
        pages = [p for p in pages if p.id in wanted]
    if not pages:
        console.print("[red]no corpus pages[/red] (see bench/corpus.py)")
        return 1
    columns = (TextColumn("{task.description:<50}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    start = time.monotonic()
    with Progress(*columns, console=console, transient=True) as progress:
        results = asyncio.run(sweep_corpus(pages, args.workers, progress))
    summary = tabulate(results)
    render(console, summary, args.failures)
    console.print(
        f"[dim]{len(pages)} pages in {time.monotonic() - start:.0f} s, load average {os.getloadavg()[0]:.1f}[/dim]"
    )
    path = write_results("selectors", {**summary, "pages": [asdict(r) for r in results]}, args.json)
    console.print(f"results: {path}")
    return 0 if all(b["passed"] for b in summary["budgets"]) else 1


if __name__ == "__main__":
    sys.exit(main())
