"""Extraction benchmark: pagelens' main content against each extraction library alone.

    python -m bench.extract                     # every readability-* and aeb-* corpus page
    python -m bench.extract --pages 20          # the first 20 pages of each source

Gold: `expected.html` (Mozilla Readability's expected output) on the readability-* pages,
`ground-truth.json` articleBody on the aeb-* pages (Zyte's article extraction
benchmark). Score: precision, recall and F1 of the extracted text's words against the
gold's, counted with multiplicity (Han, kana and Hangul characters are words of their
own), averaged over the pages of a source.

pagelens reads each page through `pagelens.extract(html, base_url=...)`: rendered in
Chromium with scripts off (a saved page's scripts would redirect or blank it offline),
the live-page pre-pass, then its libraries. The libraries alone get the saved HTML and
the same URL. Budgets (PASS/FAIL, exit status 1 on a FAIL): pagelens' mean F1 >= 0.96 on
each source, above every library's on each source, and no empty output where the gold
has text. Results go to bench/results/extract-<time>.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import lxml.html
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pagelens
from bench.corpus import corpus_pages
from pagelens.extraction.words import words

RESULTS_DIR = Path(__file__).resolve().parent / "results"
SOURCES = ("readability", "aeb")
PAGELENS = "pagelens"
F1_FLOOR = 0.96
# The URL Readability's own test suite loads its pages from (its expected links use it).
READABILITY_URL = "http://fakehost/test/page.html"
PAGE_TIMEOUT_S = 60.0
_GOLD_BLOCKS = frozenset({
    "p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "td", "th", "pre", "blockquote",
    "figcaption", "section", "article", "dd", "dt",
})  # fmt: skip


# ---- pages and gold


@dataclass(frozen=True)
class BenchPage:
    id: str
    source: str
    url: str
    gold: str
    dir: Path

    def html(self) -> str:
        return (self.dir / "page.html").read_text(encoding="utf-8")


def html_text(html: str) -> str:
    """The text of an HTML fragment, blocks on lines of their own."""
    if not html.strip():
        return ""
    root = lxml.html.fromstring(html)
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag in _GOLD_BLOCKS:
            element.tail = "\n" + (element.tail or "")
    return root.text_content()


def bench_pages(limit: int | None) -> list[BenchPage]:
    found: dict[str, list[BenchPage]] = {source: [] for source in SOURCES}
    for page in corpus_pages():
        if page.id.startswith("readability-") and (page.dir / "expected.html").exists():
            gold = html_text((page.dir / "expected.html").read_text(encoding="utf-8"))
            found["readability"].append(BenchPage(page.id, "readability", READABILITY_URL, gold, page.dir))
        elif page.id.startswith("aeb-") and (page.dir / "ground-truth.json").exists():
            truth = page.ground_truth("ground-truth.json")
            found["aeb"].append(BenchPage(page.id, "aeb", truth["url"], truth["articleBody"], page.dir))
    return [page for source in SOURCES for page in found[source][:limit]]


# ---- scoring


@dataclass
class Score:
    precision: float
    recall: float
    f1: float
    empty: bool  # nothing extracted where the gold has text


def score(extracted: str, gold: str) -> Score:
    got, want = Counter(words(extracted)), Counter(words(gold))
    common = (got & want).total()
    precision = common / got.total() if got else 0.0
    recall = common / want.total() if want else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(precision, recall, f1, empty=not got and bool(want))


# ---- the libraries alone (in worker processes: they are CPU-bound)


def _trafilatura(**options: bool) -> Callable[[str, str], str]:
    def run(html: str, url: str) -> str:
        import trafilatura

        return (
            trafilatura.extract(
                html, url=url, output_format="txt", include_comments=False, include_tables=True, **options
            )
            or ""
        )

    return run


def _readability_lxml(html: str, url: str) -> str:
    from readability import Document

    return html_text(Document(html, url=url).summary(html_partial=True))


def _justext(html: str, url: str) -> str:
    import justext

    paragraphs = justext.justext(html.encode("utf-8"), justext.get_stoplist("English"))
    return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)


def _goose3(html: str, url: str) -> str:
    from goose3 import Goose

    with Goose() as goose:
        return goose.extract(raw_html=html, url=url).cleaned_text or ""


def _boilerpy3(html: str, url: str) -> str:
    from boilerpy3 import extractors

    return extractors.ArticleExtractor(raise_on_failure=False).get_content(html) or ""


def _resiliparse(html: str, url: str) -> str:
    from resiliparse.extract.html2text import extract_plain_text

    return extract_plain_text(html, main_content=True)


# name: (module to import, extractor); those whose module is missing are skipped.
LIBRARIES: dict[str, tuple[str, Callable[[str, str], str]]] = {
    "trafilatura": ("trafilatura", _trafilatura()),
    "trafilatura (precision)": ("trafilatura", _trafilatura(favor_precision=True)),
    "trafilatura (recall)": ("trafilatura", _trafilatura(favor_recall=True)),
    "readability-lxml": ("readability", _readability_lxml),
    "justext": ("justext", _justext),
    "goose3": ("goose3", _goose3),
    "boilerpy3": ("boilerpy3", _boilerpy3),
    "resiliparse": ("resiliparse", _resiliparse),
}


def available_libraries() -> tuple[list[str], list[str]]:
    import importlib.util

    present = [name for name, (module, _) in LIBRARIES.items() if importlib.util.find_spec(module)]
    return present, [name for name in LIBRARIES if name not in present]


def run_library(job: tuple[str, BenchPage]) -> tuple[str, str, Score, str | None]:
    name, page = job
    warnings.filterwarnings("ignore")
    logging.disable(logging.CRITICAL)  # the libraries log a warning per page they find little in
    try:
        text, error = LIBRARIES[name][1](page.html(), page.url), None
    except Exception as exc:  # noqa: BLE001 - a library failing on a page scores an empty output
        text, error = "", f"{type(exc).__name__}: {str(exc)[:160]}"
    return name, page.id, score(text, page.gold), error


# ---- pagelens


@dataclass
class PageResult:
    id: str
    source: str
    scores: dict[str, Score] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    strategy: str | None = None
    seconds: float | None = None


async def run_pagelens(pages: list[BenchPage], results: dict[str, PageResult], progress: Progress) -> None:
    task = progress.add_task(PAGELENS, total=len(pages))
    async with pagelens.launch(allowed_hosts=()) as browser:
        for page in pages:
            progress.update(task, description=f"{PAGELENS} {page.id[:40]}")
            result = results[page.id]
            started = time.perf_counter()
            try:
                extraction = await pagelens.extract(
                    page.html(), base_url=page.url, browser=browser, format="text", timeout=PAGE_TIMEOUT_S
                )
                result.scores[PAGELENS] = score(extraction.content, page.gold)
                result.strategy = extraction.strategy
            except pagelens.PagelensError as exc:
                result.scores[PAGELENS] = score("", page.gold)
                result.errors[PAGELENS] = str(exc)
            result.seconds = time.perf_counter() - started
            progress.advance(task)


def run_libraries(
    names: list[str], pages: list[BenchPage], results: dict[str, PageResult], progress: Progress, workers: int
) -> None:
    jobs = [(name, page) for name in names for page in pages]
    task = progress.add_task("libraries", total=len(jobs))
    with ProcessPoolExecutor(workers) as pool:
        for name, page_id, page_score, error in pool.map(run_library, jobs, chunksize=4):
            results[page_id].scores[name] = page_score
            if error:
                results[page_id].errors[name] = error
            progress.advance(task)


# ---- summary and budgets


@dataclass
class Row:
    candidate: str
    source: str
    pages: int
    precision: float
    recall: float
    f1: float
    empty: int


def summarize(results: list[PageResult], candidates: list[str]) -> list[Row]:
    rows = []
    for candidate in candidates:
        for source in SOURCES:
            scores = [r.scores[candidate] for r in results if r.source == source and candidate in r.scores]
            if not scores:
                continue
            rows.append(
                Row(
                    candidate,
                    source,
                    len(scores),
                    statistics.mean(s.precision for s in scores),
                    statistics.mean(s.recall for s in scores),
                    statistics.mean(s.f1 for s in scores),
                    sum(s.empty for s in scores),
                )
            )
    return rows


@dataclass
class Budget:
    name: str
    measured: str
    passed: bool


def budgets(rows: list[Row]) -> list[Budget]:
    ours = {row.source: row for row in rows if row.candidate == PAGELENS}
    out = []
    for source, row in ours.items():
        out.append(Budget(f"{source}: pagelens mean F1 >= {F1_FLOOR}", f"{row.f1:.3f}", row.f1 >= F1_FLOOR))
        others = [r for r in rows if r.source == source and r.candidate != PAGELENS]
        if others:
            best = max(others, key=lambda r: r.f1)
            out.append(
                Budget(
                    f"{source}: pagelens above every library",
                    f"{row.f1:.3f} vs {best.f1:.3f} ({best.candidate})",
                    row.f1 > best.f1,
                )
            )
    empty = sum(row.empty for row in ours.values())
    out.append(Budget("pagelens: no empty output where the gold has text", str(empty), empty == 0))
    return out


def render(
    console: Console, rows: list[Row], checks: list[Budget], missing: list[str], results: list[PageResult]
) -> None:
    table = Table(title="Main content: mean precision, recall and F1 of words against the gold")
    for column in ("candidate", "source", "pages", "P", "R", "F1", "empty"):
        table.add_column(column, justify="left" if column in ("candidate", "source") else "right")
    for source in SOURCES:
        for row in sorted((r for r in rows if r.source == source), key=lambda r: -r.f1):
            table.add_row(
                row.candidate,
                source,
                str(row.pages),
                f"{row.precision:.3f}",
                f"{row.recall:.3f}",
                f"{row.f1:.3f}",
                str(row.empty),
                style="bold" if row.candidate == PAGELENS else None,
            )
        table.add_section()
    console.print(table)
    pages = {source: sum(1 for r in results if r.source == source) for source in SOURCES}
    console.print(f"  pages: {', '.join(f'{s} {n}' for s, n in pages.items())}")
    strategies = Counter(r.strategy for r in results if r.strategy)
    if strategies:
        console.print("  pagelens strategies: " + ", ".join(f"{k} {v}" for k, v in strategies.most_common()))
    seconds = [r.seconds for r in results if r.seconds is not None]
    if seconds:
        console.print(
            f"  pagelens seconds per page: median {statistics.median(seconds):.2f}, max {max(seconds):.2f} "
            "(rendering in Chromium included)"
        )
    worst = sorted((r for r in results if PAGELENS in r.scores), key=lambda r: r.scores[PAGELENS].f1)[:5]
    if worst:
        console.print("  lowest pagelens F1: " + ", ".join(f"{r.id} {r.scores[PAGELENS].f1:.2f}" for r in worst))
    if missing:
        console.print(f"  [dim]not installed, not measured: {', '.join(missing)}[/dim]")
    checks_table = Table(title="Budgets")
    for column in ("budget", "measured", "result"):
        checks_table.add_column(column)
    for check in checks:
        verdict = "[green]PASS[/green]" if check.passed else "[red]FAIL[/red]"
        checks_table.add_row(check.name, check.measured, verdict)
    console.print(checks_table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.extract", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=None, help="the first N pages of each source")
    parser.add_argument("--no-libraries", action="store_true", help="pagelens only")
    parser.add_argument("--workers", type=int, default=2, help="processes running the libraries")
    parser.add_argument("--json", type=Path, default=None, help="where to write the results")
    args = parser.parse_args(argv)

    console = Console()
    pages = bench_pages(args.pages)
    names, missing = ([], []) if args.no_libraries else available_libraries()
    results = {page.id: PageResult(page.id, page.source) for page in pages}
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        asyncio.run(run_pagelens(pages, results, progress))
        if names:
            run_libraries(names, pages, results, progress, args.workers)
    ordered = list(results.values())
    rows = summarize(ordered, [PAGELENS, *names])
    checks = budgets(rows)
    render(console, rows, checks, missing, ordered)

    RESULTS_DIR.mkdir(exist_ok=True)
    path = args.json or RESULTS_DIR / f"extract-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(
        json.dumps(
            {
                "rows": [asdict(row) for row in rows],
                "budgets": [asdict(check) for check in checks],
                "pages": [asdict(result) for result in ordered],
            },
            indent=1,
        ),
        encoding="utf-8",
    )
    console.print(f"[dim]results: {path}[/dim]")
    return 0 if all(check.passed for check in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
