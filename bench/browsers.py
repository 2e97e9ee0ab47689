"""Chromium against its headless shell: the same navigations, side by side in one
process, in each of the two (why a headless launch takes the shell: docs/browsers.md).

    python -m bench.browsers                # 30 corpus pages, spread over the corpus
    python -m bench.browsers --pages 0      # every corpus page

Per corpus page, in a tab of each browser that has loaded the page once already:
`--repeat` rounds, taking turns which browser goes first, of pagelens' navigate with its
summary (settling off, as in bench.actions) and of a bare navigation (Playwright's goto
until `load`), each tab brought to the front first. Printed: p50 and p95 over the pages
of each browser's median, and of the per-page ratio shell / Chromium.

Budget (PASS/FAIL, exit status 1 on FAIL): the shell's navigate is not slower than
Chromium's, p50 of the per-page ratio <= 1. Results are written as JSON under
bench/results/.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Page as PlaywrightPage
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pagelens
from bench.actions import bare_navigation, pagelens_navigation, pagelens_tab, percentile, spread
from bench.corpus import PAGES_DIR, CorpusPage, answer_https_from_disk, corpus_pages
from bench.results import write_results
from pagelens.actions.tabs import Tab
from pagelens.browser.launcher import find_browser
from pagelens.browser.network import LOOPBACK_HOSTS

RATIO_BUDGET_P50 = 1.0
MEASURES = {"navigate_ms": "navigate + summary", "bare_ms": "bare navigation"}  # PageRun field -> row name


@dataclass
class Contender:
    """One browser, with a plain tab and a pagelens tab."""

    label: str
    executable: str
    browser: pagelens.Browser
    plain: PlaywrightPage
    tab: Tab

    async def bare(self, url: str) -> float:
        return (await bare_navigation(self.plain, url)).wall_ms

    async def navigate(self, url: str) -> float:
        _, cost = await pagelens_navigation(self.tab, url)
        return cost.wall_ms


@dataclass
class PageRun:
    id: str
    navigate_ms: dict[str, float] = field(default_factory=dict)  # by browser, median of the rounds
    bare_ms: dict[str, float] = field(default_factory=dict)
    error: str | None = None


async def open_contender(label: str, executable: str, base: str) -> Contender:
    browser = await pagelens.Browser.launch(browser=executable, allowed_hosts=LOOPBACK_HOSTS)
    await answer_https_from_disk(browser.context, base)
    plain = await browser.context.new_page()
    return Contender(label, executable, browser, plain, await pagelens_tab(browser))


async def measure_page(contenders: list[Contender], url: str, run: PageRun, repeat: int, turn: int) -> None:
    navigations: dict[str, list[float]] = {c.label: [] for c in contenders}
    bares: dict[str, list[float]] = {c.label: [] for c in contenders}
    for contender in contenders:  # once untimed: the HTTP cache and the tab's renderer warm
        await contender.bare(url)
        await contender.navigate(url)
    for i in range(repeat):
        order = contenders if (turn + i) % 2 else contenders[::-1]
        for contender in order:
            navigations[contender.label].append(await contender.navigate(url))
            bares[contender.label].append(await contender.bare(url))
    run.navigate_ms = {label: statistics.median(v) for label, v in navigations.items()}
    run.bare_ms = {label: statistics.median(v) for label, v in bares.items()}


async def corpus_runs(
    executables: dict[str, str], pages: list[CorpusPage], repeat: int, console: Console
) -> list[PageRun]:
    runs: list[PageRun] = []
    with pagelens.serve_directory(PAGES_DIR) as base:
        contenders = [await open_contender(label, path, base) for label, path in executables.items()]
        try:
            progress = Progress(
                TextColumn("corpus"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
            )
            with progress:
                task = progress.add_task("pages", total=len(pages))
                for turn, corpus_page in enumerate(pages):
                    run = PageRun(corpus_page.id)
                    try:
                        await measure_page(contenders, corpus_page.path(base), run, repeat, turn)
                    except Exception as exc:  # noqa: BLE001 - one page's failure is recorded, not fatal
                        run.error = str(exc).splitlines()[0][:200]
                    runs.append(run)
                    progress.advance(task)
        finally:
            for contender in contenders:
                await contender.browser.close()
    return runs


def report(runs: list[PageRun], executables: dict[str, str], console: Console) -> dict[str, Any]:
    measured = [r for r in runs if r.error is None]
    table = Table(title=f"Chromium and its headless shell: {len(measured)} corpus pages, medians per page")
    table.add_column("measure")
    table.add_column("p50", justify="right")
    table.add_column("p95", justify="right")
    summary: dict[str, Any] = {}
    for what, measure in MEASURES.items():
        for label in executables:
            values = [getattr(r, what)[label] for r in measured]
            p50, p95 = percentile(values, 50), percentile(values, 95)
            summary[f"{what}.{label}"] = {"p50": p50, "p95": p95}
            table.add_row(f"{measure}, {label}", f"{p50:.0f} ms", f"{p95:.0f} ms")
    ratios = {what: [getattr(r, what)["shell"] / getattr(r, what)["chromium"] for r in measured] for what in MEASURES}
    for what, values in ratios.items():
        p50, p95 = percentile(values, 50), percentile(values, 95)
        summary[f"ratio.{what}"] = {"p50": p50, "p95": p95}
        table.add_row(f"ratio shell / chromium, {MEASURES[what]}", f"{p50:.2f}", f"{p95:.2f}")
    console.print(table)
    for label, path in executables.items():
        console.print(f"{label}: {path}")
    for run in runs:
        if run.error is not None:
            console.print(f"[yellow]{run.id}: {run.error}[/yellow]")
    ok = bool(measured) and percentile(ratios["navigate_ms"], 50) <= RATIO_BUDGET_P50
    console.print(
        f"budget: the shell's navigate not slower than Chromium's, p50 ratio <= {RATIO_BUDGET_P50:g}: "
        + ("PASS" if ok else "FAIL")
    )
    return {"executables": executables, "summary": summary, "budget_ok": ok, "runs": [asdict(r) for r in runs]}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.browsers", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=30, help="corpus pages, spread over the corpus (0: all)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per page in each browser")
    parser.add_argument("--json", type=Path, default=None, help="where to write the results")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    console = Console()
    executables = {"chromium": find_browser("chromium"), "shell": find_browser("chromium", headless=True)}
    if executables["chromium"] == executables["shell"]:
        console.print(f"no headless shell found beside {executables['chromium']}: nothing to compare")
        return 1
    pages = spread(corpus_pages(), args.pages)
    runs = asyncio.run(corpus_runs(executables, pages, args.repeat, console))
    results = report(runs, executables, console)
    results["load_average_after"] = os.getloadavg()
    path = write_results("browsers", results, args.json)
    console.print(f"results: {path}")
    return 0 if results["budget_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
