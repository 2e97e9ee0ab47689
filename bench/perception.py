"""Perception benchmark: how fast each view is, and what it costs in tokens.

    python -m bench.perception                  # the whole corpus and the generated pages
    python -m bench.perception --pages 50 --views compact,semantic --repeat 5

Speed: the wall time of the Python call ``page.snapshot(view)`` on a loaded page whose
engine world is already warm (median of --repeat calls per page, then p50/p95 over the
pages); the first call after a navigation (world creation and engine injection
included) separately; the same on generated pages of 1k to 100k elements (p50/p95 over
the repeats). Playwright's own AI snapshot is timed beside ours. Beside every wall time
the CPU time the page's renderer spent in the call (Linux): it holds still when other
programs load the machine, the wall time does not.

Tokens: the compact summary per page, and the semantic tree with off-screen controls
per covered ground-truth control (bench/axtruth.py: the visible controls of Chromium's
accessibility tree), against Playwright's AI snapshot measured the same way.

Budgets are printed PASS/FAIL; the exit status is 1 when one fails. Results are written
as JSON under bench/results/. bench/README.md explains every column.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from playwright.async_api import CDPSession
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pagelens
from bench.corpus import PAGES_DIR, CorpusPage, corpus_pages
from bench.generate import generate_page
from bench.results import write_results
from pagelens.browser.network import LOOPBACK_HOSTS
from pagelens.engine.models import VIEWS
from pagelens.tokens import count_tokens, to_json

PLAYWRIGHT = "playwright-ai"
GENERATED_SIZES = (1_000, 5_000, 10_000, 100_000)
# Generous limits: the benchmark measures how long a view takes, so the engine must not
# stop early at the production time limits and return a partial view.
SNAPSHOT_TIMEOUT_S = 120.0
NAVIGATION_TIMEOUT_S = 30.0
LARGE_PAGE = 10_000  # elements; larger generated pages get a third of the repeats
# A change between captures, as an agent's action makes one: what the engine keeps for an
# unchanged document (identity keys) is computed again.
PAGE_CHANGE_JS = "document.body.toggleAttribute('data-bench-changed')"
# Per-thread CPU times (Linux): the CPU columns are left empty where they are missing.
HAVE_SCHEDSTAT = Path("/proc/self/schedstat").exists()

# Figures measured elsewhere on the same corpus, printed for comparison.
REFERENCE = {
    "Playwright snapshot per corpus page": "43 ms median, 135 ms p90",
    "browser-use per corpus page": "155 ms median, 701 ms p90",
    "Playwright AI snapshot tokens": "85 per covered element, median page 2,238",
}

T = TypeVar("T")
GroundTruth = Callable[[pagelens.Page], Awaitable[list[Any]]]


# ---- statistics


def percentile(values: Iterable[float | None], q: float) -> float | None:
    """The q-th percentile (0-100) with linear interpolation; None for no values."""
    data = sorted(v for v in values if v is not None)
    if not data:
        return None
    rank = (len(data) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (rank - low)


def median(values: Iterable[float | None]) -> float | None:
    return percentile(values, 50)


# ---- clock


@dataclass
class Timing:
    wall: float  # ms
    cpu: float | None  # ms of renderer main-thread CPU; None where it cannot be read


class Clock:
    """Times calls: wall time, and the CPU time the renderers' main threads (where the
    engine and Playwright's snapshot run) spent meanwhile, read from /proc."""

    def __init__(self, session: CDPSession | None) -> None:
        self.session = session
        self.pids: list[int] = []

    @classmethod
    async def for_browser(cls, browser: pagelens.Browser) -> Clock:
        if not HAVE_SCHEDSTAT:
            return cls(None)
        return cls(await browser.playwright_browser.new_browser_cdp_session())

    async def attach(self) -> None:
        """Find the renderer processes again (a navigation or a new tab may add one)."""
        if self.session is None:
            return
        info = await self.session.send("SystemInfo.getProcessInfo")
        self.pids = [p["id"] for p in info["processInfo"] if p["type"] == "renderer"]

    def _cpu_ns(self) -> int | None:
        if not self.pids:
            return None
        total = 0
        for pid in self.pids:
            try:
                total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                return None
        return total

    async def time(self, call: Callable[[], Awaitable[T]]) -> tuple[T, Timing]:
        cpu_before = self._cpu_ns()
        started = time.perf_counter()
        result = await call()
        wall = (time.perf_counter() - started) * 1000
        cpu_after = self._cpu_ns()
        cpu = None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) / 1e6
        return result, Timing(wall, cpu)

    async def repeat(self, call: Callable[[], Awaitable[Any]], times: int) -> list[Timing]:
        return [(await self.time(call))[1] for _ in range(times)]


def median_timing(samples: list[Timing]) -> Timing:
    return Timing(median(s.wall for s in samples) or 0.0, median(s.cpu for s in samples))


# ---- Playwright's AI snapshot


async def playwright_snapshot(page: pagelens.Page) -> str:
    return await page.playwright_page.aria_snapshot(mode="ai", timeout=SNAPSHOT_TIMEOUT_S * 1000)


# `- role "name" [ref=e5]`: a node line of Playwright's YAML snapshot.
_SNAPSHOT_LINE = re.compile(r'^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?', re.MULTILINE)
# Date/time and colour inputs are textboxes to Playwright (its role table has no entry
# for them); the other ground-truth roles are ARIA roles it uses as they are.
_PAGELENS_TO_ARIA = {"date": "textbox", "color": "textbox"}


def snapshot_nodes(text: str) -> Counter[tuple[str, str]]:
    """(role, name) of every node in a Playwright aria snapshot, with multiplicity."""
    nodes: Counter[tuple[str, str]] = Counter()
    for match in _SNAPSHOT_LINE.finditer(text):
        name = match.group(2) or ""
        with contextlib.suppress(json.JSONDecodeError):
            name = json.loads(f'"{name}"')
        nodes[(match.group(1), _norm(name))] += 1
    return nodes


def _norm(text: str) -> str:
    return " ".join(text.split())


def snapshot_coverage(text: str, controls: list[Any]) -> int:
    """Ground-truth controls found in a Playwright snapshot by role and name (a snapshot
    node stands for one control at most)."""
    nodes = snapshot_nodes(text)
    covered = 0
    for control in controls:
        key = (_PAGELENS_TO_ARIA.get(control.role, control.role), _norm(control.name))
        if nodes[key] > 0:
            nodes[key] -= 1
            covered += 1
    return covered


# ---- ground truth (bench/axtruth.py)


def load_ground_truth() -> GroundTruth | None:
    try:
        from bench.axtruth import ax_ground_truth
    except ImportError:
        return None
    return ax_ground_truth


# ---- one corpus page


@dataclass
class PageResult:
    id: str
    error: str | None = None  # the page could not be measured at all
    view_errors: dict[str, str] = field(default_factory=dict)  # a view (or step) that failed
    first_view: str | None = None
    first: Timing | None = None
    warm: dict[str, Timing] = field(default_factory=dict)
    playwright_first: Timing | None = None
    playwright: Timing | None = None
    compact_tokens: int | None = None
    semantic_tokens: int | None = None
    semantic_covered: int | None = None
    ax_controls: int | None = None
    playwright_tokens: int | None = None
    playwright_covered: int | None = None


@dataclass
class Options:
    views: tuple[str, ...]
    repeat: int
    playwright: bool
    tokens: bool


def snapshot_call(page: pagelens.Page, view: str) -> Callable[[], Awaitable[Any]]:
    return lambda: page.snapshot(view, timeout=SNAPSHOT_TIMEOUT_S)


async def measure_page(
    page: pagelens.Page, clock: Clock, url: str, first_view: str, options: Options, ground_truth: GroundTruth | None
) -> PageResult:
    result = PageResult(id=url, first_view=first_view)
    await page.goto(url, timeout=NAVIGATION_TIMEOUT_S)
    await clock.attach()
    # The first call after a navigation makes the engine's world; the views take turns
    # over the pages so each gets its share of first calls.
    first = await attempt(result, "first", lambda: clock.time(snapshot_call(page, first_view)))
    result.first = first[1] if first else None
    for view in options.views:
        repeated = functools.partial(clock.repeat, snapshot_call(page, view), options.repeat)
        samples = await attempt(result, view, repeated)
        if samples:
            result.warm[view] = median_timing(samples)
    text = None
    if options.playwright:
        first_pw = await attempt(result, PLAYWRIGHT, lambda: clock.time(lambda: playwright_snapshot(page)))
        if first_pw:
            text, result.playwright_first = first_pw
            result.playwright = median_timing(await clock.repeat(lambda: playwright_snapshot(page), options.repeat))
    if options.tokens:
        await attempt(result, "tokens", lambda: measure_tokens(page, result, text, ground_truth))
    return result


async def attempt(result: PageResult, label: str, call: Callable[[], Awaitable[T]]) -> T | None:
    """Run one measurement; a failure is recorded against its view and the rest go on."""
    try:
        return await call()
    except Exception as exc:  # noqa: BLE001 - engine, browser and validation errors alike
        message = str(exc).splitlines()[0] if str(exc) else ""
        result.view_errors[label] = f"{type(exc).__name__}: {message[:200]}"
        return None


async def measure_tokens(
    page: pagelens.Page, result: PageResult, playwright_text: str | None, ground_truth: GroundTruth | None
) -> None:
    compact = await page.snapshot("compact", timeout=SNAPSHOT_TIMEOUT_S)
    result.compact_tokens = count_tokens(to_json(compact))
    semantic = await page.semantic_tree(include_offscreen=True, timeout=SNAPSHOT_TIMEOUT_S)
    result.semantic_tokens = count_tokens(to_json(semantic))
    if playwright_text is not None:
        result.playwright_tokens = count_tokens(playwright_text)
    if ground_truth is None:
        return
    # What a person can see (not faded out): the semantic view shows that, by design.
    controls = [control for control in await ground_truth(page) if control.seen]
    ids = {node.i for node in semantic.interactive_tree}
    result.ax_controls = len(controls)
    result.semantic_covered = sum(1 for c in controls if c.llm_id is not None and c.llm_id in ids)
    if playwright_text is not None:
        result.playwright_covered = snapshot_coverage(playwright_text, controls)


async def run_corpus(
    browser: pagelens.Browser, clock: Clock, pages: list[CorpusPage], options: Options, progress: Progress
) -> list[PageResult]:
    ground_truth = load_ground_truth() if options.tokens else None
    results = []
    task = progress.add_task("corpus", total=len(pages))
    with pagelens.serve_directory(PAGES_DIR) as base_url:
        page = await browser.new_page()
        for index, corpus_page in enumerate(pages):
            progress.update(task, description=f"corpus {corpus_page.id[:44]}")
            first_view = options.views[index % len(options.views)]
            try:
                result = await measure_page(page, clock, corpus_page.path(base_url), first_view, options, ground_truth)
            except Exception as exc:  # noqa: BLE001 - one bad page must not end the run
                result = PageResult(id=corpus_page.id, error=f"{type(exc).__name__}: {str(exc)[:200]}")
                await page.close()
                page = await browser.new_page()  # whatever state the tab was in, start clean
            result.id = corpus_page.id
            results.append(result)
            progress.advance(task)
        await page.close()
    return results


# ---- generated pages


@dataclass
class GeneratedResult:
    nodes: int
    elements: int = 0
    first: Timing | None = None  # the first compact call after loading
    samples: dict[str, list[Timing]] = field(default_factory=dict)
    error: str | None = None


def generated_repeat(nodes: int, repeat: int) -> int:
    return repeat if nodes <= LARGE_PAGE else max(3, repeat // 3)


async def measure_generated_page(
    browser: pagelens.Browser, clock: Clock, url: str, nodes: int, options: Options, repeat: int
) -> GeneratedResult:
    result = GeneratedResult(nodes=nodes)
    page = await browser.new_page()
    try:
        await page.goto(url, timeout=NAVIGATION_TIMEOUT_S * 4)
        await clock.attach()
        result.elements = await page.playwright_page.evaluate("document.getElementsByTagName('*').length")
        _, result.first = await clock.time(snapshot_call(page, "compact"))
        for view in options.views:
            result.samples[view] = await clock.repeat(snapshot_call(page, view), repeat)
            result.samples[after_change(view)] = [await time_after_change(page, clock, view) for _ in range(repeat)]
        if options.playwright:
            await playwright_snapshot(page)  # Playwright injects its script on first use
            result.samples[PLAYWRIGHT] = await clock.repeat(lambda: playwright_snapshot(page), repeat)
    finally:
        await page.close()
    return result


def after_change(view: str) -> str:
    return f"{view}, after a change"


async def time_after_change(page: pagelens.Page, clock: Clock, view: str) -> Timing:
    await page.playwright_page.evaluate(PAGE_CHANGE_JS)
    return (await clock.time(snapshot_call(page, view)))[1]


async def run_generated(
    browser: pagelens.Browser, clock: Clock, sizes: list[int], options: Options, repeat: int, progress: Progress
) -> list[GeneratedResult]:
    results = []
    task = progress.add_task("generated", total=len(sizes))
    with tempfile.TemporaryDirectory(prefix="pagelens-generated-") as folder:
        for nodes in sizes:
            (Path(folder) / f"page-{nodes}.html").write_text(generate_page(nodes, seed=nodes), encoding="utf-8")
        with pagelens.serve_directory(folder) as base_url:
            for nodes in sizes:
                progress.update(task, description=f"generated {nodes:,} elements")
                url = f"{base_url}page-{nodes}.html"
                try:
                    result = await measure_generated_page(
                        browser, clock, url, nodes, options, generated_repeat(nodes, repeat)
                    )
                except Exception as exc:  # noqa: BLE001
                    result = GeneratedResult(nodes=nodes, error=f"{type(exc).__name__}: {str(exc)[:200]}")
                results.append(result)
                progress.advance(task)
    return results


# ---- summary and budgets


@dataclass
class Budget:
    name: str
    measured: float | None
    limit: float
    unit: str
    extra: str = ""

    @property
    def passed(self) -> bool:
        return self.measured is not None and self.measured <= self.limit


def speed_row(warm: list[Timing], first: list[Timing]) -> dict[str, Any]:
    return {
        "pages": len(warm),
        "p50": percentile((t.wall for t in warm), 50),
        "p95": percentile((t.wall for t in warm), 95),
        "max": max((t.wall for t in warm), default=None),
        "cpu_p50": percentile((t.cpu for t in warm), 50),
        "cpu_p95": percentile((t.cpu for t in warm), 95),
        "first_n": len(first),
        "first_p50": percentile((t.wall for t in first), 50),
        "first_p95": percentile((t.wall for t in first), 95),
    }


def corpus_speed(results: list[PageResult], views: Iterable[str]) -> dict[str, dict[str, Any]]:
    ok = [r for r in results if r.error is None]
    rows = {}
    for view in views:
        warm = [r.warm[view] for r in ok if view in r.warm]
        first = [r.first for r in ok if r.first_view == view and r.first is not None]
        rows[view] = speed_row(warm, first)
    playwright = [r.playwright for r in ok if r.playwright is not None]
    if playwright:
        rows[PLAYWRIGHT] = speed_row(playwright, [r.playwright_first for r in ok if r.playwright_first is not None])
    return rows


def slowest(results: list[PageResult], view: str, count: int = 5) -> list[tuple[str, float]]:
    timed = [(r.id, r.warm[view].wall) for r in results if view in r.warm]
    return sorted(timed, key=lambda item: -item[1])[:count]


def token_summary(results: list[PageResult]) -> dict[str, Any]:
    tokens = {r.id: r.compact_tokens for r in results if r.error is None and r.compact_tokens is not None}
    ok = [r for r in results if r.id in tokens]
    return {
        "pages": len(ok),
        "compact_max": max(tokens.values(), default=None),
        "compact_median": median(tokens.values()),
        "compact_over_400": [page for page, count in tokens.items() if count > 400],
        "semantic": coverage_summary(ok, "semantic_tokens", "semantic_covered"),
        PLAYWRIGHT: coverage_summary(ok, "playwright_tokens", "playwright_covered"),
    }


def coverage_summary(results: list[PageResult], tokens_attr: str, covered_attr: str) -> dict[str, Any]:
    tokens = [getattr(r, tokens_attr) for r in results if getattr(r, tokens_attr) is not None]
    judged = [r for r in results if getattr(r, tokens_attr) is not None and getattr(r, covered_attr) is not None]
    judged_tokens = sum(getattr(r, tokens_attr) for r in judged)
    covered = sum(getattr(r, covered_attr) for r in judged)
    controls = sum(r.ax_controls or 0 for r in judged)
    missed = sorted(judged, key=lambda r: getattr(r, covered_attr) - (r.ax_controls or 0))
    return {
        "pages": len(tokens),
        "median_page_tokens": median(tokens),
        "judged_pages": len(judged),
        "ax_controls": controls,
        "covered": covered,
        "coverage_pct": 100 * covered / controls if controls else None,
        "tokens_per_covered": judged_tokens / covered if covered else None,
        "least_covered": [
            {"id": r.id, "covered": getattr(r, covered_attr), "ax_controls": r.ax_controls}
            for r in missed[:10]
            if getattr(r, covered_attr) < (r.ax_controls or 0)
        ],
    }


def generated_speed(results: list[GeneratedResult]) -> dict[int, dict[str, dict[str, float | None]]]:
    return {
        result.nodes: {
            view: {
                "n": len(samples),
                "p50": percentile((t.wall for t in samples), 50),
                "p95": percentile((t.wall for t in samples), 95),
                "cpu_p50": percentile((t.cpu for t in samples), 50),
                "cpu_p95": percentile((t.cpu for t in samples), 95),
            }
            for view, samples in result.samples.items()
        }
        for result in results
    }


def speed_budget(name: str, row: dict[str, Any], limit: float) -> Budget:
    cpu = row.get("cpu_p95")
    return Budget(name, row["p95"], limit, "ms", extra="" if cpu is None else f"cpu p95 {cpu:,.0f} ms")


def budgets(summary: dict[str, Any]) -> list[Budget]:
    out = []
    speed = summary.get("corpus_speed") or {}
    for view, limit in (("compact", 50), ("semantic", 100)):
        if view in speed:
            out.append(speed_budget(f"corpus {view} p95", speed[view], limit))
    generated = summary.get("generated_speed") or {}
    for view in ("compact", "semantic"):
        if view in generated.get(5_000, {}):
            out.append(speed_budget(f"5k-element page {view} p95", generated[5_000][view], 150))
    for view in [*summary["views"], *map(after_change, summary["views"])]:
        if view in generated.get(100_000, {}):
            out.append(speed_budget(f"100k-element page {view} p95", generated[100_000][view], 1000))
    tokens = summary.get("tokens")
    if tokens and tokens["pages"]:
        out.append(Budget("compact tokens, every page", tokens["compact_max"], 400, "tokens"))
        semantic = tokens["semantic"]
        if semantic["coverage_pct"] is not None:
            coverage = f"coverage {semantic['coverage_pct']:.2f} %"
            out.append(
                Budget(
                    "semantic tokens per covered control", semantic["tokens_per_covered"], 28, "tokens", extra=coverage
                )
            )
            out.append(
                Budget(
                    "semantic controls missed (coverage >= 99 %)",
                    100 - semantic["coverage_pct"],
                    1.0,
                    "%",
                    extra=coverage,
                )
            )
    return out


# ---- output


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def render(console: Console, summary: dict[str, Any]) -> None:
    if summary.get("corpus_speed"):
        render_corpus_speed(console, summary)
    if summary.get("generated_speed"):
        render_generated_speed(console, summary)
    if summary.get("tokens"):
        render_tokens(console, summary["tokens"])
    render_budgets(console, summary["budgets"])
    load = summary["load_average"]
    console.print(
        f"[dim]load average (1 min) at start {load['start']:.1f}, at end {load['end']:.1f} "
        f"on {os.cpu_count()} CPUs: wall times grow with it, CPU times much less.[/dim]"
    )
    console.print(
        "[dim]Reference (measured elsewhere): " + "; ".join(f"{k}: {v}" for k, v in REFERENCE.items()) + "[/dim]"
    )


def render_corpus_speed(console: Console, summary: dict[str, Any]) -> None:
    table = Table(
        title=f"Speed on the corpus, ms ({summary['corpus_pages']} pages, {summary['corpus_errors']} "
        f"did not load, {summary['corpus_view_failures']} view failures)"
    )
    columns = ("view", "pages", "p50", "p95", "max", "cpu p50", "cpu p95", "first p50", "first p95", "first n")
    for column in columns:
        table.add_column(column, justify="left" if column == "view" else "right")
    for view, row in summary["corpus_speed"].items():
        table.add_row(
            view,
            str(row["pages"]),
            _ms(row["p50"]),
            _ms(row["p95"]),
            _ms(row["max"]),
            _ms(row["cpu_p50"]),
            _ms(row["cpu_p95"]),
            _ms(row["first_p50"]),
            _ms(row["first_p95"]),
            str(row["first_n"]),
        )
    console.print(table)
    for view, pages in summary.get("corpus_slowest", {}).items():
        console.print(f"  slowest {view}: " + ", ".join(f"{page_id} {ms:,.0f}" for page_id, ms in pages))


def render_generated_speed(console: Console, summary: dict[str, Any]) -> None:
    generated = summary["generated_speed"]
    sizes = sorted(generated)
    table = Table(title="Speed on generated pages, ms: p50 / p95 over the repeats (cpu p50)")
    table.add_column("view")
    for nodes in sizes:
        elements = summary["generated_elements"].get(nodes)
        table.add_column(f"{nodes // 1000}k ({elements:,} el.)" if elements else f"{nodes // 1000}k", justify="right")
    views = [*summary["views"], *map(after_change, summary["views"]), *([PLAYWRIGHT] if summary["playwright"] else [])]
    for view in views:
        cells = []
        for nodes in sizes:
            row = generated[nodes].get(view)
            cells.append(f"{_ms(row['p50'])} / {_ms(row['p95'])} ({_ms(row['cpu_p50'])})" if row else "-")
        table.add_row(view, *cells)
    first = summary["generated_first"]
    table.add_row(
        "[dim]first compact call[/dim]",
        *[f"{_ms(first[n]['wall'])} ({_ms(first[n]['cpu'])})" if first.get(n) else "-" for n in sizes],
    )
    console.print(table)


def render_tokens(console: Console, tokens: dict[str, Any]) -> None:
    table = Table(title=f"Tokens (o200k_base) over {tokens['pages']} pages")
    columns = ("view", "median page", "max page", "tokens / covered control", "coverage", "covered / AX controls")
    for column in columns:
        table.add_column(column, justify="left" if column == "view" else "right")
    table.add_row("compact", _ms(tokens["compact_median"]), f"{tokens['compact_max']:,}", "-", "-", "-")
    for view, label in (("semantic", "semantic (off-screen incl.)"), (PLAYWRIGHT, PLAYWRIGHT)):
        row = tokens[view]
        if not row["pages"]:
            continue
        coverage = "-" if row["coverage_pct"] is None else f"{row['coverage_pct']:.2f} %"
        table.add_row(
            label,
            f"{row['median_page_tokens']:,.0f}",
            "-",
            _ms(row["tokens_per_covered"]),
            coverage,
            f"{row['covered']:,} / {row['ax_controls']:,}",
        )
    console.print(table)
    if tokens["compact_over_400"]:
        console.print(f"  compact over 400 tokens: {', '.join(tokens['compact_over_400'][:10])}")
    least = tokens["semantic"]["least_covered"]
    if least:
        console.print(
            "  semantic, least covered: " + ", ".join(f"{r['id']} {r['covered']}/{r['ax_controls']}" for r in least)
        )


def render_budgets(console: Console, items: list[dict[str, Any]]) -> None:
    table = Table(title="Budgets")
    for column in ("budget", "measured", "limit", "result", "note"):
        table.add_column(column, justify="left" if column in ("budget", "note") else "right")
    for item in items:
        measured = "-" if item["measured"] is None else f"{item['measured']:,.1f} {item['unit']}"
        verdict = "[green]PASS[/green]" if item["passed"] else "[red]FAIL[/red]"
        table.add_row(item["name"], measured, f"<= {item['limit']:,g} {item['unit']}", verdict, item["extra"])
    console.print(table)


# ---- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.perception", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=None, help="only the first N corpus pages")
    parser.add_argument("--views", default=",".join(VIEWS), help="comma-separated views to time")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per view and corpus page")
    parser.add_argument(
        "--gen-repeat",
        type=int,
        default=15,
        help=f"timed calls per view on a generated page (a third above {LARGE_PAGE:,} elements)",
    )
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, GENERATED_SIZES)),
        help="generated page sizes in elements, comma-separated (empty: none)",
    )
    parser.add_argument("--no-corpus", action="store_true", help="skip the corpus")
    parser.add_argument("--no-tokens", action="store_true", help="skip token counts and coverage")
    parser.add_argument("--no-playwright", action="store_true", help="skip Playwright's AI snapshot")
    parser.add_argument("--json", type=Path, default=None, help="where to write the results")
    args = parser.parse_args(argv)
    unknown = set(args.views.split(",")) - set(VIEWS)
    if unknown:
        parser.error(f"unknown views: {', '.join(sorted(unknown))}")
    return args


async def run(args: argparse.Namespace, console: Console) -> dict[str, Any]:
    views = tuple(v for v in VIEWS if v in args.views.split(","))
    options = Options(views=views, repeat=args.repeat, playwright=not args.no_playwright, tokens=not args.no_tokens)
    pages = [] if args.no_corpus else list(corpus_pages())[: args.pages]
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    summary: dict[str, Any] = {
        "views": views,
        "playwright": options.playwright,
        "repeat": args.repeat,
        "load_average": {"start": os.getloadavg()[0]},
    }
    columns = (TextColumn("{task.description:<56}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    async with pagelens.launch(allowed_hosts=LOOPBACK_HOSTS) as browser:
        clock = await Clock.for_browser(browser)
        with Progress(*columns, console=console, transient=True) as progress:
            corpus = await run_corpus(browser, clock, pages, options, progress) if pages else []
            generated = await run_generated(browser, clock, sizes, options, args.gen_repeat, progress) if sizes else []
    summary["load_average"]["end"] = os.getloadavg()[0]
    if corpus:
        summary["corpus_pages"] = len(corpus)
        summary["corpus_errors"] = sum(1 for r in corpus if r.error)
        summary["corpus_view_failures"] = sum(len(r.view_errors) for r in corpus)
        summary["corpus_speed"] = corpus_speed(corpus, views)
        summary["corpus_slowest"] = {view: slowest(corpus, view) for view in ("compact", "semantic") if view in views}
        if options.tokens:
            summary["tokens"] = token_summary(corpus)
            if load_ground_truth() is None:
                console.print("[yellow]bench/axtruth.py is missing: no coverage figures[/yellow]")
    if generated:
        summary["generated_speed"] = generated_speed(generated)
        summary["generated_elements"] = {r.nodes: r.elements for r in generated}
        summary["generated_first"] = {r.nodes: asdict(r.first) if r.first else None for r in generated}
        summary["generated_errors"] = {r.nodes: r.error for r in generated if r.error}
    summary["budgets"] = [{**asdict(b), "passed": b.passed} for b in budgets(summary)]
    summary["corpus_results"] = [asdict(r) for r in corpus]
    summary["generated_results"] = [asdict(r) for r in generated]
    return summary


def report_failures(console: Console, summary: dict[str, Any], shown: int = 15) -> None:
    failures = [(r["id"], "page", r["error"]) for r in summary["corpus_results"] if r["error"]]
    for result in summary["corpus_results"]:
        failures += [(result["id"], label, error) for label, error in result["view_errors"].items()]
    failures += [(f"generated {n:,}", "page", error) for n, error in (summary.get("generated_errors") or {}).items()]
    for page_id, label, error in failures[:shown]:
        console.print(f"[yellow]failed[/yellow] {page_id} {label}: {error}")
    if len(failures) > shown:
        console.print(f"[yellow]... and {len(failures) - shown} more (see the JSON)[/yellow]")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 150)
    summary = asyncio.run(run(args, console))
    report_failures(console, summary)
    render(console, summary)
    path = write_results("perception", summary, args.json)
    console.print(f"results: {path}")
    return 0 if all(b["passed"] for b in summary["budgets"]) else 1


if __name__ == "__main__":
    sys.exit(main())
