"""Perception benchmark: how fast each view is, and what it costs in tokens.

    python -m bench.perception                  # the whole corpus and the generated pages
    python -m bench.perception --pages 50 --views compact,semantic --repeat 5

Speed: the wall time of the Python call ``page.snapshot(view)`` on a loaded page whose
engine world is already warm (median of --repeat calls per page, then p50/p95 over the
pages), the first call after a navigation (world creation and engine injection
included) separately, and the same on generated pages of 1k to 100k elements (p50/p95
over the repeats). Playwright's own AI snapshot is timed beside ours.

Tokens: the compact summary per page, and the semantic tree with off-screen controls
per covered ground-truth control (bench/axtruth.py: the controls in Chromium's
accessibility tree), against Playwright's AI snapshot measured the same way.

Budgets are printed PASS/FAIL; the exit status is 1 when one fails. Results are written
as JSON under bench/results/. See bench/README.md for every column.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pagelens
from bench.corpus import PAGES_DIR, CorpusPage, corpus_pages
from bench.generate import generate_page
from pagelens.browser.network import LOOPBACK_HOSTS
from pagelens.engine.models import VIEWS
from pagelens.tokens import count_tokens, to_json

RESULTS_DIR = Path(__file__).resolve().parent / "results"
PLAYWRIGHT = "playwright-ai"
GENERATED_SIZES = (1_000, 5_000, 10_000, 100_000)
# Generous limits: the benchmark measures how long a view takes, so the engine must not
# stop early at the production time limits and return a partial view.
SNAPSHOT_TIMEOUT_S = 60.0
NAVIGATION_TIMEOUT_S = 30.0

# Figures measured elsewhere on the same corpus, printed for comparison.
REFERENCE = {
    "playwright snapshot per corpus page": "43 ms median, 135 ms p90",
    "browser-use per corpus page": "155 ms median, 701 ms p90",
    "playwright AI snapshot tokens": "85 per covered element, median page 2,238",
}

T = TypeVar("T")


# ---- statistics


def percentile(values: Iterable[float], q: float) -> float | None:
    """The q-th percentile (0-100) with linear interpolation; None for no values."""
    data = sorted(values)
    if not data:
        return None
    rank = (len(data) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (rank - low)


async def timed(call: Callable[[], Awaitable[T]]) -> tuple[T, float]:
    started = time.perf_counter()
    result = await call()
    return result, (time.perf_counter() - started) * 1000


async def median_ms(call: Callable[[], Awaitable[Any]], repeat: int) -> float:
    samples = [(await timed(call))[1] for _ in range(repeat)]
    return statistics.median(samples)


# ---- Playwright's AI snapshot


async def playwright_snapshot(page: pagelens.Page) -> str:
    return await page.playwright_page.aria_snapshot(mode="ai", timeout=SNAPSHOT_TIMEOUT_S * 1000)


# `- role "name" [ref=e5]`: a node line of Playwright's YAML snapshot.
_SNAPSHOT_LINE = re.compile(r'^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?', re.MULTILINE)


def snapshot_nodes(text: str) -> Counter[tuple[str, str]]:
    """(role, name) of every node in a Playwright aria snapshot, with multiplicity."""
    nodes: Counter[tuple[str, str]] = Counter()
    for match in _SNAPSHOT_LINE.finditer(text):
        name = match.group(2) or ""
        try:
            name = json.loads(f'"{name}"')
        except json.JSONDecodeError:
            pass
        nodes[(match.group(1), _norm(name))] += 1
    return nodes


def _norm(text: str) -> str:
    return " ".join(text.split())


# Chromium's AX role names where Playwright's snapshot spells the ARIA role differently.
_AX_TO_ARIA = {"image": "img", "ListBoxOption": "option", "MenuListOption": "option"}


def snapshot_coverage(text: str, controls: list[Any]) -> int:
    """Ground-truth controls found in a Playwright snapshot by role and name (each
    snapshot node counts for one control at most)."""
    nodes = snapshot_nodes(text)
    covered = 0
    for control in controls:
        key = (_AX_TO_ARIA.get(control.role, control.role), _norm(control.name))
        if nodes[key] > 0:
            nodes[key] -= 1
            covered += 1
    return covered


# ---- ground truth (bench/axtruth.py, written alongside this benchmark)


def load_ground_truth() -> Callable[[pagelens.Page], Awaitable[list[Any]]] | None:
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
    first_ms: float | None = None
    warm_ms: dict[str, float] = field(default_factory=dict)
    playwright_first_ms: float | None = None
    playwright_ms: float | None = None
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


async def measure_page(
    page: pagelens.Page,
    url: str,
    first_view: str,
    options: Options,
    ground_truth: Callable[[pagelens.Page], Awaitable[list[Any]]] | None,
) -> PageResult:
    result = PageResult(id=url)
    await page.goto(url, timeout=NAVIGATION_TIMEOUT_S)
    # The first call after a navigation makes the engine's world; views rotate over the
    # pages so each gets its share of first calls.
    result.first_view = first_view
    first = await attempt(result, "first", lambda: timed(lambda: page.snapshot(first_view, timeout=SNAPSHOT_TIMEOUT_S)))
    result.first_ms = first[1] if first else None
    for view in options.views:
        warm = await attempt(result, view, lambda view=view: median_ms(
            lambda: page.snapshot(view, timeout=SNAPSHOT_TIMEOUT_S), options.repeat))
        if warm is not None:
            result.warm_ms[view] = warm
    text = None
    if options.playwright:
        first_pw = await attempt(result, PLAYWRIGHT, lambda: timed(lambda: playwright_snapshot(page)))
        if first_pw:
            text, result.playwright_first_ms = first_pw
            result.playwright_ms = await median_ms(lambda: playwright_snapshot(page), options.repeat)
    if options.tokens:
        await attempt(result, "tokens", lambda: measure_tokens(page, result, text, ground_truth))
    return result


async def attempt(result: PageResult, label: str, call: Callable[[], Awaitable[T]]) -> T | None:
    """Run one measurement; a failure is recorded against its view and the rest go on."""
    try:
        return await call()
    except Exception as exc:  # noqa: BLE001 - engine, browser and validation errors alike
        result.view_errors[label] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
        return None


async def measure_tokens(
    page: pagelens.Page,
    result: PageResult,
    playwright_text: str | None,
    ground_truth: Callable[[pagelens.Page], Awaitable[list[Any]]] | None,
) -> None:
    compact = await page.snapshot("compact", timeout=SNAPSHOT_TIMEOUT_S)
    result.compact_tokens = count_tokens(to_json(compact))
    semantic = await page.semantic_tree(include_offscreen=True, timeout=SNAPSHOT_TIMEOUT_S)
    result.semantic_tokens = count_tokens(to_json(semantic))
    if playwright_text is not None:
        result.playwright_tokens = count_tokens(playwright_text)
    if ground_truth is None:
        return
    controls = await ground_truth(page)
    ids = {node.i for node in semantic.interactive_tree}
    result.ax_controls = len(controls)
    result.semantic_covered = sum(1 for c in controls if c.llm_id is not None and c.llm_id in ids)
    if playwright_text is not None:
        result.playwright_covered = snapshot_coverage(playwright_text, controls)


async def run_corpus(
    browser: pagelens.Browser,
    pages: list[CorpusPage],
    options: Options,
    progress: Progress,
) -> list[PageResult]:
    ground_truth = load_ground_truth() if options.tokens else None
    results = []
    task = progress.add_task("corpus", total=len(pages))
    with pagelens.serve_directory(PAGES_DIR) as base_url:
        page = await browser.new_page()
        for index, corpus_page in enumerate(pages):
            progress.update(task, description=f"corpus {corpus_page.id[:40]}")
            first_view = options.views[index % len(options.views)]
            try:
                result = await measure_page(page, corpus_page.path(base_url), first_view, options, ground_truth)
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
    first_ms: float | None = None
    samples_ms: dict[str, list[float]] = field(default_factory=dict)
    error: str | None = None


def generated_repeat(nodes: int, repeat: int) -> int:
    return repeat if nodes <= 10_000 else max(3, repeat // 3)


async def measure_generated_page(
    browser: pagelens.Browser, url: str, nodes: int, options: Options, repeat: int
) -> GeneratedResult:
    result = GeneratedResult(nodes=nodes)
    page = await browser.new_page()
    try:
        await page.goto(url, timeout=NAVIGATION_TIMEOUT_S * 4)
        result.elements = await page.playwright_page.evaluate("document.getElementsByTagName('*').length")
        _, result.first_ms = await timed(lambda: page.snapshot("compact", timeout=SNAPSHOT_TIMEOUT_S))
        for view in options.views:
            result.samples_ms[view] = [
                (await timed(lambda view=view: page.snapshot(view, timeout=SNAPSHOT_TIMEOUT_S)))[1]
                for _ in range(repeat)
            ]
        if options.playwright:
            await playwright_snapshot(page)  # Playwright injects its script on first use
            result.samples_ms[PLAYWRIGHT] = [
                (await timed(lambda: playwright_snapshot(page)))[1] for _ in range(repeat)
            ]
    finally:
        await page.close()
    return result


async def run_generated(
    browser: pagelens.Browser, sizes: list[int], options: Options, repeat: int, progress: Progress
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
                    result = await measure_generated_page(browser, url, nodes, options, generated_repeat(nodes, repeat))
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


def corpus_speed(results: list[PageResult], views: Iterable[str]) -> dict[str, dict[str, Any]]:
    ok = [r for r in results if r.error is None]
    rows: dict[str, dict[str, Any]] = {}
    for view in views:
        warm = [r.warm_ms[view] for r in ok if view in r.warm_ms]
        first = [r.first_ms for r in ok if r.first_view == view and r.first_ms is not None]
        rows[view] = _speed_row(warm, first)
    pw_warm = [r.playwright_ms for r in ok if r.playwright_ms is not None]
    if pw_warm:
        rows[PLAYWRIGHT] = _speed_row(pw_warm, [r.playwright_first_ms for r in ok if r.playwright_first_ms is not None])
    return rows


def _speed_row(warm: list[float], first: list[float]) -> dict[str, Any]:
    return {
        "pages": len(warm),
        "p50": percentile(warm, 50),
        "p95": percentile(warm, 95),
        "max": max(warm, default=None),
        "first_pages": len(first),
        "first_p50": percentile(first, 50),
        "first_p95": percentile(first, 95),
    }


def token_summary(results: list[PageResult]) -> dict[str, Any]:
    ok = [r for r in results if r.error is None and r.compact_tokens is not None]
    compact = [r.compact_tokens for r in ok]
    summary: dict[str, Any] = {
        "pages": len(ok),
        "compact_max": max(compact, default=None),
        "compact_median": statistics.median(compact) if compact else None,
        "compact_over_400": sorted((r.id for r in ok if r.compact_tokens > 400), key=str),
    }
    summary["semantic"] = _coverage_summary(ok, "semantic_tokens", "semantic_covered")
    summary[PLAYWRIGHT] = _coverage_summary(ok, "playwright_tokens", "playwright_covered")
    return summary


def _coverage_summary(results: list[PageResult], tokens_attr: str, covered_attr: str) -> dict[str, Any]:
    tokens = [getattr(r, tokens_attr) for r in results if getattr(r, tokens_attr) is not None]
    judged = [r for r in results if getattr(r, tokens_attr) is not None and getattr(r, covered_attr) is not None]
    total_tokens = sum(getattr(r, tokens_attr) for r in judged)
    covered = sum(getattr(r, covered_attr) for r in judged)
    controls = sum(r.ax_controls or 0 for r in judged)
    worst = sorted(judged, key=lambda r: getattr(r, covered_attr) - (r.ax_controls or 0))[:10]
    return {
        "pages": len(tokens),
        "median_page_tokens": statistics.median(tokens) if tokens else None,
        "total_tokens": sum(tokens),
        "judged_pages": len(judged),
        "ax_controls": controls,
        "covered": covered,
        "coverage_pct": 100 * covered / controls if controls else None,
        "tokens_per_covered": total_tokens / covered if covered else None,
        "least_covered": [
            {"id": r.id, "covered": getattr(r, covered_attr), "ax_controls": r.ax_controls}
            for r in worst if getattr(r, covered_attr) < (r.ax_controls or 0)
        ],
    }


def generated_speed(results: list[GeneratedResult]) -> dict[int, dict[str, dict[str, float | None]]]:
    table: dict[int, dict[str, dict[str, float | None]]] = {}
    for result in results:
        table[result.nodes] = {
            view: {"p50": percentile(samples, 50), "p95": percentile(samples, 95), "n": len(samples)}
            for view, samples in result.samples_ms.items()
        }
    return table


def budgets(summary: dict[str, Any]) -> list[Budget]:
    out = []
    speed = summary.get("corpus_speed") or {}
    for view, limit in (("compact", 50), ("semantic", 100)):
        if view in speed:
            out.append(Budget(f"corpus {view} p95", speed[view]["p95"], limit, "ms"))
    generated = summary.get("generated_speed") or {}
    if 5_000 in generated:
        for view in ("compact", "semantic"):
            if view in generated[5_000]:
                out.append(Budget(f"5k-element page {view} p95", generated[5_000][view]["p95"], 150, "ms"))
    if 100_000 in generated:
        for view in summary["views"]:
            if view in generated[100_000]:
                out.append(Budget(f"100k-element page {view} p95", generated[100_000][view]["p95"], 1000, "ms"))
    tokens = summary.get("tokens")
    if tokens and tokens["pages"]:
        out.append(Budget("compact tokens, every page", tokens["compact_max"], 400, "tokens"))
        semantic = tokens["semantic"]
        if semantic["coverage_pct"] is not None:
            out.append(Budget("semantic tokens per covered control", semantic["tokens_per_covered"], 28, "tokens",
                              extra=f"coverage {semantic['coverage_pct']:.1f} %"))
            coverage_gap = 100 - semantic["coverage_pct"]
            out.append(Budget("semantic coverage gap (>= 99 % covered)", coverage_gap, 1.0, "% points"))
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
    console.print("[dim]Reference (measured elsewhere): " +
                  "; ".join(f"{k}: {v}" for k, v in REFERENCE.items()) + "[/dim]")


def render_corpus_speed(console: Console, summary: dict[str, Any]) -> None:
    table = Table(title=f"Speed on the corpus ({summary['corpus_pages']} pages, {summary['corpus_errors']} "
                        f"did not load, {summary['corpus_view_failures']} view failures), ms")
    for column in ("view", "pages", "warm p50", "warm p95", "warm max", "first p50", "first p95", "first n"):
        table.add_column(column, justify="left" if column == "view" else "right")
    for view, row in summary["corpus_speed"].items():
        table.add_row(view, str(row["pages"]), _ms(row["p50"]), _ms(row["p95"]), _ms(row["max"]),
                      _ms(row["first_p50"]), _ms(row["first_p95"]), str(row["first_pages"]))
    console.print(table)


def render_generated_speed(console: Console, summary: dict[str, Any]) -> None:
    generated = summary["generated_speed"]
    sizes = sorted(generated)
    table = Table(title="Speed on generated pages, ms (p50 / p95 over the repeats)")
    table.add_column("view")
    for nodes in sizes:
        elements = summary["generated_elements"].get(nodes)
        table.add_column(f"{nodes // 1000}k ({elements:,} el.)" if elements else f"{nodes // 1000}k",
                         justify="right")
    views = list(summary["views"]) + ([PLAYWRIGHT] if summary["playwright"] else [])
    for view in views:
        cells = []
        for nodes in sizes:
            row = generated[nodes].get(view)
            cells.append(f"{_ms(row['p50'])} / {_ms(row['p95'])}" if row else "-")
        table.add_row(view, *cells)
    first = [f"{_ms(summary['generated_first_ms'].get(nodes))}" for nodes in sizes]
    table.add_row("[dim]first compact call[/dim]", *first)
    console.print(table)


def render_tokens(console: Console, tokens: dict[str, Any]) -> None:
    table = Table(title=f"Tokens (o200k_base) over {tokens['pages']} pages")
    for column in ("view", "median page", "max page", "tokens / covered control", "coverage",
                   "covered / AX controls"):
        table.add_column(column, justify="left" if column == "view" else "right")
    table.add_row("compact", f"{tokens['compact_median']:,.0f}", f"{tokens['compact_max']:,}", "-", "-", "-")
    for view in ("semantic", PLAYWRIGHT):
        row = tokens[view]
        if not row["pages"]:
            continue
        coverage = "-" if row["coverage_pct"] is None else f"{row['coverage_pct']:.1f} %"
        per = "-" if row["tokens_per_covered"] is None else f"{row['tokens_per_covered']:.1f}"
        label = "semantic (offscreen incl.)" if view == "semantic" else view
        table.add_row(label, f"{row['median_page_tokens']:,.0f}", "-", per, coverage,
                      f"{row['covered']:,} / {row['ax_controls']:,}")
    console.print(table)
    if tokens["compact_over_400"]:
        console.print(f"compact over 400 tokens: {', '.join(tokens['compact_over_400'][:10])}")
    least = tokens["semantic"]["least_covered"]
    if least:
        console.print("semantic, least covered: " +
                      ", ".join(f"{r['id']} {r['covered']}/{r['ax_controls']}" for r in least))


def render_budgets(console: Console, items: list[dict[str, Any]]) -> None:
    table = Table(title="Budgets")
    for column in ("budget", "measured", "limit", "result"):
        table.add_column(column, justify="left" if column == "budget" else "right")
    for item in items:
        measured = "-" if item["measured"] is None else f"{item['measured']:,.1f} {item['unit']}"
        verdict = "[green]PASS[/green]" if item["passed"] else "[red]FAIL[/red]"
        name = item["name"] + (f" ({item['extra']})" if item["extra"] else "")
        table.add_row(name, measured, f"<= {item['limit']:,g} {item['unit']}", verdict)
    console.print(table)


# ---- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.perception", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=None, help="only the first N corpus pages")
    parser.add_argument("--views", default=",".join(VIEWS), help="comma-separated views to time")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per view and corpus page")
    parser.add_argument("--gen-repeat", type=int, default=15,
                        help="timed calls per view on a generated page (a third of it above 10k elements)")
    parser.add_argument("--sizes", default=",".join(map(str, GENERATED_SIZES)),
                        help="generated page sizes in elements (empty: none)")
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
    summary: dict[str, Any] = {"views": views, "playwright": options.playwright, "repeat": args.repeat}
    columns = (TextColumn("{task.description:<52}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    async with pagelens.launch(allowed_hosts=LOOPBACK_HOSTS) as browser:
        with Progress(*columns, console=console, transient=True) as progress:
            corpus = await run_corpus(browser, pages, options, progress) if pages else []
            generated = await run_generated(browser, sizes, options, args.gen_repeat, progress) if sizes else []
    if corpus:
        summary["corpus_pages"] = len(corpus)
        summary["corpus_errors"] = sum(1 for r in corpus if r.error)
        summary["corpus_view_failures"] = sum(len(r.view_errors) for r in corpus)
        summary["corpus_speed"] = corpus_speed(corpus, views)
        if options.tokens:
            summary["tokens"] = token_summary(corpus)
        if options.tokens and load_ground_truth() is None:
            console.print("[yellow]bench/axtruth.py is missing: no coverage figures[/yellow]")
    if generated:
        summary["generated_speed"] = generated_speed(generated)
        summary["generated_elements"] = {r.nodes: r.elements for r in generated}
        summary["generated_first_ms"] = {r.nodes: r.first_ms for r in generated}
        summary["generated_errors"] = {r.nodes: r.error for r in generated if r.error}
    summary["budgets"] = [{**asdict(b), "passed": b.passed} for b in budgets(summary)]
    summary["corpus_results"] = [asdict(r) for r in corpus]
    summary["generated_results"] = [asdict(r) for r in generated]
    return summary


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 140)
    summary = asyncio.run(run(args, console))
    failures = [(r["id"], "page", r["error"]) for r in summary["corpus_results"] if r["error"]]
    failures += [(r["id"], view, error) for r in summary["corpus_results"] for view, error in r["view_errors"].items()]
    for page_id, label, error in failures[:15]:
        console.print(f"[yellow]failed[/yellow] {page_id} {label}: {error}")
    if len(failures) > 15:
        console.print(f"[yellow]... {len(failures) - 15} more failures in the JSON[/yellow]")
    for nodes, error in (summary.get("generated_errors") or {}).items():
        console.print(f"[yellow]failed[/yellow] generated {nodes}: {error}")
    render(console, summary)
    path = args.json or RESULTS_DIR / f"perception-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(summary, indent=1, default=str), encoding="utf-8")
    console.print(f"results: {path}")
    return 0 if all(b["passed"] for b in summary["budgets"]) else 1


if __name__ == "__main__":
    sys.exit(main())
