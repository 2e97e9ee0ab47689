"""Action-layer benchmark: what the summary costs a navigation, what settling on a quiet
DOM saves, how fast a click comes back verified, and whether settling early changes
what the agent reads.

    python -m bench.actions                 # 60 corpus pages, spread over the corpus
    python -m bench.actions --pages 0       # every corpus page (about 3 s a page)

Per corpus page (loaded once, on loopback):
  - engine world: creating the isolated world and injecting the engine after `load`,
    paid by every navigation that summarises, whichever way it settles;
  - settle: from `load` until the DOM has been quiet for 300 ms (MutationObserver, 3 s
    cap), against the fixed 500 ms post-load delay;
  - summary overhead: the compact summary taken right after settling (what a navigate
    call adds to the load; the engine's world is already up, as it is in navigate);
  - the same summary again 2 s after `load`: identical or not (the ones that differ are
    listed with the fields that changed).
Click-to-result: Session.interact(click) on the action fixture pages, from the call to
its verified result (actionability, input, settle, observations), p50/p95.

Budgets are printed PASS/FAIL (summary overhead p95 <= 100 ms; settled summaries identical
to the 2 s ones on every page but those that keep changing by themselves); the exit
status is 1 when one fails. Results are written as JSON under bench/results/.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pagelens
from bench.corpus import PAGES_DIR, CorpusPage, corpus_pages
from pagelens.actions import Session, bridge
from pagelens.actions.navigation import take_summary
from pagelens.actions.settle import SettlePolicy, settle
from pagelens.browser.network import LOOPBACK_HOSTS

RESULTS_DIR = Path(__file__).resolve().parent / "results"
FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "actions"
FIXED_DELAY_MS = 500  # the fixed wait that settling replaces
LATE_READ_S = 2.0
SUMMARY_BUDGET_P95_MS = 100.0
NAVIGATION_TIMEOUT_S = 30.0

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


async def corpus_runs(pages: list[CorpusPage], console: Console) -> list[PageRun]:
    runs: list[PageRun] = []
    with pagelens.serve_directory(PAGES_DIR) as base:
        async with pagelens.launch(allowed_hosts=LOOPBACK_HOSTS) as browser:
            progress = Progress(
                TextColumn("corpus"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
            )
            with progress:
                task = progress.add_task("pages", total=len(pages))
                for corpus_page in pages:
                    run = PageRun(corpus_page.id)
                    page = await browser.new_page()  # a fresh tab: no history, no leftovers
                    try:
                        await measure_page(page, corpus_page.path(base), run)
                    except Exception as exc:  # noqa: BLE001 - one page's failure is recorded, not fatal
                        run.error = str(exc).splitlines()[0][:200]
                    finally:
                        await page.close()
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
    saved = [FIXED_DELAY_MS - ms for ms in settle_ms]
    capped = sum(1 for r in measured if r.settled_quietly is False)
    identical = sum(1 for r in measured if r.identical)
    different = [r for r in measured if r.identical is False]
    different_quiet = [r for r in different if r.settled_quietly]

    summary_p95 = percentile(summary_ms, 95)
    summary_ok = summary_p95 <= SUMMARY_BUDGET_P95_MS
    failed = len(runs) - len(measured)
    table = Table(title=f"pagelens actions — {len(measured)} corpus pages measured, {failed} failed")
    table.add_column("measure")
    table.add_column("p50", justify="right")
    table.add_column("p95", justify="right")
    table.add_column("notes")
    table.add_row(
        "summary overhead on navigation",
        f"{percentile(summary_ms, 50):.0f} ms",
        f"{summary_p95:.0f} ms",
        f"budget p95 <= {SUMMARY_BUDGET_P95_MS:.0f} ms: {_verdict(summary_ok)}",
    )
    table.add_row(
        "engine world after load (either way)",
        f"{percentile(world_ms, 50):.0f} ms",
        f"{percentile(world_ms, 95):.0f} ms",
        "isolated world created, engine injected",
    )
    table.add_row(
        "settle (DOM quiet 300 ms, cap 3 s)",
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
        "summary_ms": {"p50": percentile(summary_ms, 50), "p95": summary_p95},
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
            "summary_p95": summary_p95 <= SUMMARY_BUDGET_P95_MS,
            "settled_identical": same_ok,
        },
        "runs": [asdict(r) for r in runs],
    }


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.actions", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=60, help="corpus pages, spread over the corpus (0: all)")
    parser.add_argument("--clicks", type=int, default=4, help="rounds of the click-to-result cases")
    parser.add_argument("--json", type=Path, default=None, help="where to write the results")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    console = Console()
    pages = spread(corpus_pages(), args.pages)

    async def run() -> tuple[list[PageRun], list[float]]:
        return await corpus_runs(pages, console), await click_latencies(args.clicks)

    runs, clicks = asyncio.run(run())
    results = report(runs, clicks, console)
    path = args.json or RESULTS_DIR / f"actions-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1), encoding="utf-8")
    console.print(f"results: {path}")
    return 0 if all(results["budgets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
