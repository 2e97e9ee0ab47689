"""Action-layer benchmark: what navigate adds to a bare navigation, what settling saves,
how fast a click comes back verified, and whether settling early changes what the agent
reads.

    python -m bench.actions                 # 60 corpus pages, spread over the corpus
    python -m bench.actions --pages 0       # every corpus page (about 4 s a page)

Per corpus page, on loopback:
  - side by side, `--repeat` times each, taking turns which goes first, in two tabs that
    have loaded the page once already (HTTP cache and renderer warm, as in an agent's
    tab): a bare navigation (Playwright's goto until `load`, in a plain tab) and pagelens'
    navigate with its summary, settling switched off (its wait is by design, and timed
    on its own below), each brought to the front first, as an agent's tab is. The
    overhead is the median of the differences of each pair (the two navigations of a
    turn, one right after the other, see the machine alike): the first capture of a new
    document with everything around it (loading policy, engine world, the capture cold,
    the title, the result). The difference of the two medians, which drifts with
    whatever else the machine does, is printed beside it. Beside wall time, the CPU time
    the whole process tree (this process, Playwright's driver, every Chromium process)
    spent on each navigation, from /proc: it hardly moves when other programs load the
    machine;
  - in one more tab, loaded until `load`: the engine world (the isolated world and the
    engine, ready to be called), then settling (the DOM quiet for 300 ms with no request
    in flight, 3 s cap) against the fixed 500 ms post-load delay, then the summary right
    after settling (warm: settling's quiet window warms the engine up), and the same
    summary again 2 s after `load`: identical or not (the ones that differ are listed
    with the fields that changed).
Click-to-result: Session.interact(click) on the action fixture pages, from the call to
its verified result (actionability, input, settle, observations), p50/p95.

Budgets are printed PASS/FAIL (overhead over a bare navigation p95 <= 50 ms; settled
summaries identical to the 2 s ones on every page but those that keep changing by
themselves); the exit status is 1 when one fails. The load average is printed before and
after: wall times on a busy machine are inflated. Results are written as JSON under
bench/results/.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Page as PlaywrightPage
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pagelens
from bench.corpus import PAGES_DIR, CorpusPage, answer_https_from_disk, corpus_pages
from bench.results import write_results
from pagelens.actions import Session, bridge
from pagelens.actions.dialogs import DialogPolicy
from pagelens.actions.models import ActionResult
from pagelens.actions.navigation import NavigationOptions, navigate, take_summary
from pagelens.actions.settle import SettlePolicy, settle
from pagelens.actions.tabs import Tab
from pagelens.browser.launcher import find_browser
from pagelens.browser.network import LOOPBACK_HOSTS

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "actions"
FIXED_DELAY_MS = 500  # the fixed wait that settling replaces
LATE_READ_S = 2.0
OVERHEAD_BUDGET_P95_MS = 50.0
NAVIGATION_TIMEOUT_S = 30.0
# navigate as an agent calls it, but for settling, which waits on purpose.
UNSETTLED = NavigationOptions(settle=SettlePolicy(fixed_ms=0), timeout=NAVIGATION_TIMEOUT_S)

# Click-to-result cases: (page, accessible name of the button to click).
CLICK_CASES = (
    ("modal.html", "No thanks"),
    ("choices.html", "Save preferences"),
    ("dialogs.html", "Say hello"),
    ("login.html", "Sign in"),
    ("rerender.html", "Refresh prices"),
)


@dataclass
class PageRun:
    id: str
    bare_ms: float | None = None  # median of the bare navigations
    navigate_ms: float | None = None  # median of pagelens' navigate with its summary, unsettled
    overhead_ms: float | None = None  # median of the paired differences
    overhead_of_medians_ms: float | None = None  # navigate_ms - bare_ms
    bare_cpu_ms: float | None = None  # the same in CPU time of the whole process tree
    navigate_cpu_ms: float | None = None
    overhead_cpu_ms: float | None = None
    load_complete: bool | None = None
    world_ms: float | None = None
    settle_ms: float | None = None
    settled_quietly: bool | None = None
    summary_ms: float | None = None
    identical: bool | None = None
    changed_fields: list[str] = field(default_factory=list)
    error: str | None = None


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def spread(pages: tuple[CorpusPage, ...], count: int) -> list[CorpusPage]:
    """`count` pages spread evenly over the corpus (all of them for 0)."""
    if count <= 0 or count >= len(pages):
        return list(pages)
    step = len(pages) / count
    return [pages[int(i * step)] for i in range(count)]


def tree_cpu_ns(root: int) -> int:
    """CPU time run so far by process `root` and all its descendants, every thread
    (/proc/<pid>/task/<tid>/schedstat): Python, Playwright's driver, Chromium."""
    total = 0
    pids = [root]
    while pids:
        pid = pids.pop()
        try:
            for task in os.scandir(f"/proc/{pid}/task"):
                with open(f"{task.path}/schedstat", encoding="ascii") as stat:
                    total += int(stat.read().split()[0])
                with open(f"{task.path}/children", encoding="ascii") as children:
                    pids.extend(int(child) for child in children.read().split())
        except (OSError, ValueError):
            continue  # gone meanwhile
    return total


@dataclass(frozen=True)
class Cost:
    wall_ms: float
    cpu_ms: float


async def timed(navigation: Awaitable[Any]) -> tuple[Any, Cost]:
    cpu = tree_cpu_ns(os.getpid())
    started = time.perf_counter()
    result = await navigation
    wall = (time.perf_counter() - started) * 1000
    return result, Cost(wall, (tree_cpu_ns(os.getpid()) - cpu) / 1e6)


async def bare_navigation(page: PlaywrightPage, url: str) -> Cost:
    """Playwright's goto until `load`, in the front tab."""
    await page.bring_to_front()
    _, cost = await timed(page.goto(url, wait_until="load", timeout=NAVIGATION_TIMEOUT_S * 1000))
    return cost


async def pagelens_navigation(tab: Tab, url: str) -> tuple[ActionResult, Cost]:
    """navigate with its summary, settling off, in the front tab."""
    await tab.playwright_page.bring_to_front()
    result, cost = await timed(navigate(tab, url, UNSETTLED, summary=True, base=""))
    if result.summary is None:
        raise RuntimeError(f"navigate: {result.error or result.summary_error}")
    return result, cost


async def pagelens_tab(browser: pagelens.Browser) -> Tab:
    """A new tab as an agent's session has it: dialogs answered by the default policy."""
    page = await browser.new_page()
    tab = Tab("bench", page, DialogPolicy())
    tab.attach(page)
    return tab


async def side_by_side(browser: pagelens.Browser, url: str, run: PageRun, repeat: int, turn: int) -> None:
    """A plain Playwright tab and a pagelens tab, each loading the page once untimed (the
    HTTP cache and the tab's renderer warm, as in an agent's tab), then `repeat` timed
    navigations each, taking turns which goes first. Each navigates as the front tab, as
    an agent's does: left as they were opened, the pagelens tab (opened last) was the
    front one, and there a heavy page loaded up to 240 ms slower than in an identical
    pagelens tab behind it (18 turns), which counted against pagelens."""
    plain = await browser.context.new_page()
    tab = await pagelens_tab(browser)
    bare: list[Cost] = []
    ours: list[Cost] = []

    async def navigation() -> Cost:
        result, cost = await pagelens_navigation(tab, url)
        run.load_complete = result.load_complete
        return cost

    try:
        await bare_navigation(plain, url)
        await navigation()
        for i in range(repeat):
            if (turn + i) % 2:
                bare.append(await bare_navigation(plain, url))
                ours.append(await navigation())
            else:
                ours.append(await navigation())
                bare.append(await bare_navigation(plain, url))
    finally:
        await plain.close()
        await tab.page.close()
    run.bare_ms = statistics.median(c.wall_ms for c in bare)
    run.navigate_ms = statistics.median(c.wall_ms for c in ours)
    run.overhead_ms = statistics.median(o.wall_ms - b.wall_ms for o, b in zip(ours, bare, strict=True))
    run.overhead_of_medians_ms = run.navigate_ms - run.bare_ms
    run.bare_cpu_ms = statistics.median(c.cpu_ms for c in bare)
    run.navigate_cpu_ms = statistics.median(c.cpu_ms for c in ours)
    run.overhead_cpu_ms = statistics.median(o.cpu_ms - b.cpu_ms for o, b in zip(ours, bare, strict=True))


async def measure_page(page: pagelens.Page, url: str, run: PageRun) -> None:
    loop = asyncio.get_running_loop()
    await page.playwright_page.goto(url, wait_until="load", timeout=NAVIGATION_TIMEOUT_S * 1000)
    loaded = loop.time()
    # The engine's world is set up first: a fixed delay needs it as much (for the summary
    # that follows), so it is timed on its own and not counted against settling.
    await bridge.call(await bridge.main_world(page), "docToken")
    ready = loop.time()
    run.world_ms = (ready - loaded) * 1000
    run.settled_quietly = await settle(page, SettlePolicy())
    run.settle_ms = (loop.time() - ready) * 1000
    started = loop.time()
    early, error = await take_summary(page)
    run.summary_ms = (loop.time() - started) * 1000
    if early is None:
        run.error = f"summary: {error}"
        return
    await asyncio.sleep(max(0.0, loaded + LATE_READ_S - loop.time()))
    late, error = await take_summary(page)
    if late is None:
        run.error = f"late summary: {error}"
        return
    a, b = early.model_dump(), late.model_dump()
    run.changed_fields = sorted(k for k in a if a[k] != b[k])
    run.identical = not run.changed_fields


async def corpus_runs(pages: list[CorpusPage], repeat: int, console: Console) -> list[PageRun]:
    runs: list[PageRun] = []
    with pagelens.serve_directory(PAGES_DIR) as base:
        async with pagelens.launch(allowed_hosts=LOOPBACK_HOSTS) as browser:
            await answer_https_from_disk(browser.context, base)
            progress = Progress(
                TextColumn("corpus"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
            )
            with progress:
                task = progress.add_task("pages", total=len(pages))
                for turn, corpus_page in enumerate(pages):
                    run = PageRun(corpus_page.id)
                    url = corpus_page.path(base)
                    try:
                        await side_by_side(browser, url, run, repeat, turn)
                        page = await browser.new_page()  # a fresh tab: no history, no leftovers
                        try:
                            await measure_page(page, url, run)
                        finally:
                            await page.close()
                    except Exception as exc:  # noqa: BLE001 - one page's failure is recorded, not fatal
                        run.error = str(exc).splitlines()[0][:200]
                    runs.append(run)
                    progress.advance(task)
    return runs


async def click_latencies(repeat: int) -> list[float]:
    """Milliseconds from interact(click) to its verified result, per click."""
    timings: list[float] = []
    loop = asyncio.get_running_loop()
    with pagelens.serve_directory(FIXTURES) as base:
        async with await Session.start(allowed_hosts=list(LOOPBACK_HOSTS)) as session:
            for _ in range(repeat):
                for page, name in CLICK_CASES:
                    await session.interact({"action": "navigate", "url": f"{base}{page}", "summary": False})
                    view = await session.analyze({"what": "semantic"})
                    element_id = next(n["i"] for n in view.data["interactive_tree"] if n["n"] == name)
                    started = loop.time()
                    result = await session.interact({"action": "click", "element_id": element_id})
                    timings.append((loop.time() - started) * 1000)
                    if not result["success"]:
                        raise RuntimeError(f"click on {name!r} in {page} failed: {result}")
                    if result["observations"].get("dialog", {}).get("handled") == "pending":
                        await session.interact({"action": "handle_dialog"})
    return timings


def report(runs: list[PageRun], clicks: list[float], console: Console) -> dict[str, Any]:
    measured = [r for r in runs if r.error is None]
    settle_ms = [r.settle_ms for r in measured if r.settle_ms is not None]
    summary_ms = [r.summary_ms for r in measured if r.summary_ms is not None]
    world_ms = [r.world_ms for r in measured if r.world_ms is not None]
    overhead_ms = [r.overhead_ms for r in measured if r.overhead_ms is not None]
    of_medians_ms = [r.overhead_of_medians_ms for r in measured if r.overhead_of_medians_ms is not None]
    overhead_cpu_ms = [r.overhead_cpu_ms for r in measured if r.overhead_cpu_ms is not None]
    bare_cpu_ms = [r.bare_cpu_ms for r in measured if r.bare_cpu_ms is not None]
    navigate_cpu_ms = [r.navigate_cpu_ms for r in measured if r.navigate_cpu_ms is not None]
    bare_ms = [r.bare_ms for r in measured if r.bare_ms is not None]
    navigate_ms = [r.navigate_ms for r in measured if r.navigate_ms is not None]
    unfinished = sum(1 for r in measured if r.load_complete is False)
    saved = [FIXED_DELAY_MS - ms for ms in settle_ms]
    capped = sum(1 for r in measured if r.settled_quietly is False)
    identical = sum(1 for r in measured if r.identical)
    different = [r for r in measured if r.identical is False]
    different_quiet = [r for r in different if r.settled_quietly]

    overhead_p95 = percentile(overhead_ms, 95)
    overhead_ok = overhead_p95 <= OVERHEAD_BUDGET_P95_MS
    failed = len(runs) - len(measured)
    table = Table(title=f"pagelens actions — {len(measured)} corpus pages measured, {failed} failed")
    table.add_column("measure")
    table.add_column("p50", justify="right")
    table.add_column("p95", justify="right")
    table.add_column("notes")
    table.add_row(
        "navigate + summary over a bare navigation",
        f"{percentile(overhead_ms, 50):.0f} ms",
        f"{overhead_p95:.0f} ms",
        f"budget p95 <= {OVERHEAD_BUDGET_P95_MS:.0f} ms: {_verdict(overhead_ok)}",
    )
    table.add_row(
        "  the difference of the medians",
        f"{percentile(of_medians_ms, 50):.0f} ms",
        f"{percentile(of_medians_ms, 95):.0f} ms",
        "for comparison: drifts with the machine's load",
    )
    table.add_row(
        "  the same in CPU time",
        f"{percentile(overhead_cpu_ms, 50):.0f} ms",
        f"{percentile(overhead_cpu_ms, 95):.0f} ms",
        f"bare {percentile(bare_cpu_ms, 50):.0f} ms, navigate {percentile(navigate_cpu_ms, 50):.0f} ms (p50)",
    )
    table.add_row(
        "  bare navigation (goto until load)",
        f"{percentile(bare_ms, 50):.0f} ms",
        f"{percentile(bare_ms, 95):.0f} ms",
        "Playwright, plain tab",
    )
    table.add_row(
        "  navigate + summary (settling off)",
        f"{percentile(navigate_ms, 50):.0f} ms",
        f"{percentile(navigate_ms, 95):.0f} ms",
        f"{unfinished} page(s) load_complete false",
    )
    table.add_row(
        "engine world after load",
        f"{percentile(world_ms, 50):.0f} ms",
        f"{percentile(world_ms, 95):.0f} ms",
        "isolated world and engine ready to call",
    )
    table.add_row(
        "summary after settling",
        f"{percentile(summary_ms, 50):.0f} ms",
        f"{percentile(summary_ms, 95):.0f} ms",
        "warmed up during the quiet window",
    )
    table.add_row(
        "settle (quiet DOM 300 ms, no request in flight, cap 3 s)",
        f"{percentile(settle_ms, 50):.0f} ms",
        f"{percentile(settle_ms, 95):.0f} ms",
        f"{capped} page(s) never went quiet (capped)",
    )
    table.add_row(
        f"saved vs fixed {FIXED_DELAY_MS} ms",
        f"{percentile(saved, 50):.0f} ms",
        f"{percentile(saved, 5):.0f} ms (p5)",
        f"mean {statistics.fmean(saved) if saved else float('nan'):.0f} ms a navigation, "
        f"{sum(saved) / 1000:.1f} s over the run",
    )
    table.add_row(
        "click to verified result",
        f"{percentile(clicks, 50):.0f} ms",
        f"{percentile(clicks, 95):.0f} ms",
        f"{len(clicks)} clicks on {len(CLICK_CASES)} fixture pages",
    )
    console.print(table)

    same_ok = not different_quiet
    console.print(
        f"settled summary vs summary {LATE_READ_S:g} s after load: {identical} identical, "
        f"{len(different)} different ({len(different_quiet)} of them on pages that had gone quiet)"
        f" — {_verdict(same_ok)}"
    )
    for r in different:
        why = "went quiet" if r.settled_quietly else "never quiet (changes by itself)"
        console.print(f"  {r.id}: {', '.join(r.changed_fields)} [{why}]")
    for r in runs:
        if r.error:
            console.print(f"  [dim]{r.id}: {r.error}[/dim]")
    return {
        "pages": len(runs),
        "measured": len(measured),
        "overhead_ms": {"p50": percentile(overhead_ms, 50), "p95": overhead_p95},
        "overhead_of_medians_ms": {"p50": percentile(of_medians_ms, 50), "p95": percentile(of_medians_ms, 95)},
        "overhead_cpu_ms": {"p50": percentile(overhead_cpu_ms, 50), "p95": percentile(overhead_cpu_ms, 95)},
        "bare_cpu_ms": {"p50": percentile(bare_cpu_ms, 50), "p95": percentile(bare_cpu_ms, 95)},
        "navigate_cpu_ms": {"p50": percentile(navigate_cpu_ms, 50), "p95": percentile(navigate_cpu_ms, 95)},
        "bare_ms": {"p50": percentile(bare_ms, 50), "p95": percentile(bare_ms, 95)},
        "navigate_ms": {"p50": percentile(navigate_ms, 50), "p95": percentile(navigate_ms, 95)},
        "load_incomplete": unfinished,
        "summary_ms": {"p50": percentile(summary_ms, 50), "p95": percentile(summary_ms, 95)},
        "world_ms": {"p50": percentile(world_ms, 50), "p95": percentile(world_ms, 95)},
        "settle_ms": {
            "p50": percentile(settle_ms, 50),
            "p95": percentile(settle_ms, 95),
            "capped": capped,
        },
        "saved_vs_fixed_ms": {
            "p50": percentile(saved, 50),
            "mean": statistics.fmean(saved) if saved else None,
        },
        "click_ms": {
            "p50": percentile(clicks, 50),
            "p95": percentile(clicks, 95),
            "n": len(clicks),
        },
        "summaries": {
            "identical": identical,
            "different": len(different),
            "different_after_quiet": len(different_quiet),
        },
        "budgets": {
            "overhead_p95": overhead_ok,
            "settled_identical": same_ok,
        },
        "runs": [asdict(r) for r in runs],
    }


def _loads(loads: tuple[float, float, float]) -> str:
    return " ".join(f"{x:.1f}" for x in loads)


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.actions", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=60, help="corpus pages, spread over the corpus (0: all)")
    parser.add_argument("--repeat", type=int, default=5, help="side-by-side navigations per page, each way")
    parser.add_argument("--clicks", type=int, default=4, help="rounds of the click-to-result cases")
    parser.add_argument("--json", type=Path, default=None, help="where to write the results")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    console = Console()
    pages = spread(corpus_pages(), args.pages)

    async def run() -> tuple[list[PageRun], list[float]]:
        return await corpus_runs(pages, args.repeat, console), await click_latencies(args.clicks)

    load_before = os.getloadavg()
    runs, clicks = asyncio.run(run())
    results = report(runs, clicks, console)
    results["load_average"] = {"before": load_before, "after": os.getloadavg(), "cpus": os.cpu_count()}
    results["browser"] = find_browser(headless=True)  # what pagelens.launch ran (docs/browsers.md)
    console.print(f"browser: {results['browser']}")
    console.print(
        f"load average (1, 5, 15 min) before {_loads(load_before)}, after {_loads(os.getloadavg())} "
        f"on {os.cpu_count()} CPUs: above the CPU count, wall times are inflated"
    )
    path = write_results("actions", results, args.json)
    console.print(f"results: {path}")
    return 0 if all(results["budgets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
