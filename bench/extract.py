"""Extraction benchmark: pagelens' main content against each extraction library alone,
with its rules chosen by cross-validation by site, and its live path beside the static one.

    python -m bench.extract                     # every readability-* and aeb-* corpus page
    python -m bench.extract --pages 20          # the first 20 pages of each source

Gold: `expected.html` (Mozilla Readability's expected output) on the readability-* pages,
`ground-truth.json` articleBody on the aeb-* pages (Zyte's article extraction
benchmark). Score: precision, recall and F1 of the extracted text's words against the
gold's, counted with multiplicity (Han, kana and Hangul characters are words of their
own), averaged over the pages of a source.

Static path: each page as `pagelens.extract(html, base_url=...)` reads it (rendered in
Chromium with scripts off, the pre-pass), scored under every candidate rule set; the
rules are chosen leaving one site out (bench/extract_cv.py). Live path: each page served
on 127.0.0.1 and loaded with scripts on, then `pagelens.extract(page)`. The libraries
alone get the saved HTML and the same URL. Budgets and tables: bench/README.md. Results
go to bench/results/extract-<time>.json.
"""

from __future__ import annotations

import argparse
import asyncio
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
from typing import Any

import lxml.html
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pagelens
from bench.corpus import PAGES_DIR, answer_https_from_disk, corpus_pages
from bench.extract_cv import CANDIDATES, CrossValidation, PageScores, cross_validate, describe, site_of
from bench.extract_cv import choose as choose_rules
from bench.results import write_results
from pagelens.browser.error_document import ERROR_DOCUMENT_PREFIX
from pagelens.browser.network import LOOPBACK_HOSTS
from pagelens.extraction.consensus import DEFAULT_RULES, choose
from pagelens.extraction.libraries import Readings
from pagelens.extraction.models import DEFAULT_MAX_CHARACTERS
from pagelens.extraction.prepass import PrunedDocument, prune_html
from pagelens.extraction.render import render, truncate
from pagelens.extraction.words import words

SOURCES = ("readability", "aeb")
PAGELENS = "pagelens (out of fold)"
SHIPPED = "pagelens (shipped rules, in sample)"
F1_FLOOR = 0.96
LIVE_GAP = 0.01
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

    @property
    def site(self) -> str:
        return site_of(self.dir, self.source)

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


def _trafilatura(**options: Any) -> Callable[[str, str], str]:
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
    site: str
    scores: dict[str, Score] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    strategy: str | None = None
    seconds: float | None = None  # the static pre-pass in Chromium
    pruned_characters: int | None = None  # of the pre-pass's copy, what the libraries read
    candidates: list[Score] = field(default_factory=list)  # under each of extract_cv.CANDIDATES
    live: Score | None = None  # `pagelens extract URL`'s path: served on 127.0.0.1, scripts on
    live_error: str | None = None  # its typed error code when the page did not load
    live_url: str | None = None


async def prune_static(
    pages: list[BenchPage], progress: Progress
) -> dict[str, tuple[PrunedDocument | None, str | None, float]]:
    """Each saved page as `pagelens.extract(html, base_url=...)` reads it: rendered in
    Chromium with scripts off, then the pre-pass (the libraries run in worker processes)."""
    task = progress.add_task(f"{PAGELENS} static", total=len(pages))
    found: dict[str, tuple[PrunedDocument | None, str | None, float]] = {}
    async with pagelens.launch(allowed_hosts=()) as browser:
        for page in pages:
            progress.update(task, description=f"{PAGELENS} static {page.id[:40]}")
            started = time.perf_counter()
            try:
                document, error = await prune_html(browser, page.html(), page.url, PAGE_TIMEOUT_S), None
            except pagelens.PagelensError as exc:
                document, error = None, str(exc)
            found[page.id] = (document, error, time.perf_counter() - started)
            progress.advance(task)
    return found


def score_candidates(job: tuple[BenchPage, PrunedDocument | None]) -> tuple[str, list[Score], str | None]:
    """The page's score under every candidate rule set, and the strategy the shipped
    rules took. Each candidate's content is what `pagelens.extract(..., format="text")`
    returns with those rules."""
    page, document = job
    logging.disable(logging.CRITICAL)
    if document is None:
        return page.id, [score("", page.gold)] * len(CANDIDATES), None
    readings = Readings(document.html, document.url)
    texts: dict[str, str] = {}
    scores, strategy = [], None
    for rules in CANDIDATES:
        choice = choose(readings, rules)
        if choice.html not in texts:
            texts[choice.html] = truncate(render(choice.html, "text"), DEFAULT_MAX_CHARACTERS, "text")[0]
        scores.append(score(texts[choice.html], page.gold))
        if rules == DEFAULT_RULES:
            strategy = choice.strategy
    return page.id, scores, strategy


def run_candidates(
    pages: list[BenchPage],
    documents: dict[str, tuple[PrunedDocument | None, str | None, float]],
    results: dict[str, PageResult],
    progress: Progress,
    workers: int,
) -> None:
    task = progress.add_task(f"{PAGELENS} rules", total=len(pages))
    default = CANDIDATES.index(DEFAULT_RULES) if DEFAULT_RULES in CANDIDATES else None
    with ProcessPoolExecutor(workers) as pool:
        jobs = [(page, documents[page.id][0]) for page in pages]
        for page_id, scores, strategy in pool.map(score_candidates, jobs):
            result = results[page_id]
            document, error, result.seconds = documents[page_id]
            if error:
                result.errors[PAGELENS] = error
            result.pruned_characters = len(document.html) if document is not None else None
            result.candidates = scores
            result.strategy = strategy
            if default is not None:
                result.scores[SHIPPED] = scores[default]
            progress.advance(task)


async def run_live(pages: list[BenchPage], results: dict[str, PageResult], progress: Progress) -> None:
    """`pagelens extract URL`'s path: each saved page served on 127.0.0.1, loaded with
    scripts on (Page.visit: one that never finishes loading is read as it is), then
    `pagelens.extract(page)`. A page that does not load is the typed navigation error,
    never content."""
    task = progress.add_task(f"{PAGELENS} live", total=len(pages))
    with pagelens.serve_directory(PAGES_DIR) as base:
        async with pagelens.launch(allowed_hosts=LOOPBACK_HOSTS) as browser:
            await answer_https_from_disk(browser.context, base)
            for page in pages:
                progress.update(task, description=f"{PAGELENS} live {page.id[:40]}")
                result = results[page.id]
                tab = await browser.new_page()
                try:
                    await tab.visit(f"{base}{page.id}/page.html", timeout=PAGE_TIMEOUT_S)
                    extraction = await pagelens.extract(tab, format="text", timeout=PAGE_TIMEOUT_S)
                    result.live, result.live_url = score(extraction.content, page.gold), extraction.url
                except pagelens.PagelensError as exc:
                    result.live_error = exc.code
                    result.errors["live"] = str(exc)
                finally:
                    await tab.close()
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
class LiveRow:
    source: str
    pages: int
    static_f1: float
    live_f1: float  # a page that did not load scores 0
    failed: dict[str, int]  # typed error codes of the pages that did not load, with their counts
    loaded: int
    static_f1_loaded: float  # both on the pages the live path loaded
    live_f1_loaded: float


def summarize_live(results: list[PageResult]) -> list[LiveRow]:
    rows = []
    for source in SOURCES:
        mine = [r for r in results if r.source == source and SHIPPED in r.scores]
        if not mine or all(r.live is None and r.live_error is None for r in mine):
            continue
        loaded = [r for r in mine if r.live is not None]
        rows.append(
            LiveRow(
                source,
                len(mine),
                statistics.mean(r.scores[SHIPPED].f1 for r in mine),
                statistics.mean(r.live.f1 if r.live else 0.0 for r in mine),
                dict(Counter(r.live_error for r in mine if r.live_error).most_common()),
                len(loaded),
                statistics.mean(r.scores[SHIPPED].f1 for r in loaded) if loaded else 0.0,
                statistics.mean(r.live.f1 for r in loaded if r.live) if loaded else 0.0,
            )
        )
    return rows


@dataclass
class Budget:
    name: str
    measured: str
    passed: bool


def budgets(rows: list[Row], live: list[LiveRow], results: list[PageResult], shipped_is_choice: bool) -> list[Budget]:
    ours = {row.source: row for row in rows if row.candidate == PAGELENS}
    out = []
    for source, row in ours.items():
        out.append(Budget(f"{source}: pagelens out-of-fold mean F1 >= {F1_FLOOR}", f"{row.f1:.3f}", row.f1 >= F1_FLOOR))
        others = [r for r in rows if r.source == source and r.candidate not in (PAGELENS, SHIPPED)]
        if others:
            best = max(others, key=lambda r: r.f1)
            out.append(
                Budget(
                    f"{source}: pagelens out of fold above every library",
                    f"{row.f1:.3f} vs {best.f1:.3f} ({best.candidate})",
                    row.f1 > best.f1,
                )
            )
    if ours:
        out.append(Budget("shipped rules are the choice on all pages", describe(DEFAULT_RULES), shipped_is_choice))
    empty = sum(row.empty for row in rows if row.candidate == SHIPPED)
    out.append(Budget("pagelens: no empty output where the gold has text", str(empty), empty == 0))
    for live_row in live:
        gap = abs(live_row.live_f1_loaded - live_row.static_f1_loaded)
        out.append(
            Budget(
                f"{live_row.source}: live F1 within {LIVE_GAP} of static (pages that load)",
                f"{live_row.live_f1_loaded:.3f} vs {live_row.static_f1_loaded:.3f} ({live_row.loaded} pages)",
                gap <= LIVE_GAP,
            )
        )
    if live:
        read = [r.id for r in results if (r.live_url or "").startswith(ERROR_DOCUMENT_PREFIX)]
        out.append(Budget("live: no browser error page read as content", str(len(read)), not read))
    return out


def render_tables(
    console: Console,
    rows: list[Row],
    live: list[LiveRow],
    checks: list[Budget],
    missing: list[str],
    results: list[PageResult],
    cv: CrossValidation | None,
    all_pages_choice: int | None,
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
    if cv is not None and all_pages_choice is not None:
        console.print(
            f"  {PAGELENS}: rules chosen by leave-one-site-out cross-validation over {cv.folds} sites; "
            f"{SHIPPED}: the shipped rules scored on the pages they were chosen on"
        )
        console.print(f"  choice on all pages: {describe(CANDIDATES[all_pages_choice])}")
        console.print(f"  shipped rules: {describe(DEFAULT_RULES)}")
        console.print(
            "  folds' choices: " + "; ".join(f"{describe(CANDIDATES[i])} ×{n}" for i, n in cv.chosen.most_common())
        )
    strategies = Counter(r.strategy for r in results if r.strategy)
    if strategies:
        console.print("  shipped rules' strategies: " + ", ".join(f"{k} {v}" for k, v in strategies.most_common()))
    seconds = [r.seconds for r in results if r.seconds is not None]
    if seconds:
        console.print(
            f"  static pre-pass seconds per page: median {statistics.median(seconds):.2f}, max {max(seconds):.2f} "
            "(rendering in Chromium included)"
        )
    failed_static = [f"{r.id} ({r.errors[PAGELENS]})" for r in results if PAGELENS in r.errors]
    if failed_static:
        console.print("  static pre-pass failed: " + ", ".join(failed_static))
    worst = sorted((r for r in results if PAGELENS in r.scores), key=lambda r: r.scores[PAGELENS].f1)[:5]
    if worst:
        console.print("  lowest out-of-fold F1: " + ", ".join(f"{r.id} {r.scores[PAGELENS].f1:.2f}" for r in worst))
    if missing:
        console.print(f"  [dim]not installed, not measured: {', '.join(missing)}[/dim]")
    if live:
        live_table = Table(title="Live path (served on 127.0.0.1, scripts on) beside the static path, shipped rules")
        for column in ("source", "pages", "static F1", "live F1", "did not load", "loaded", "static F1", "live F1"):
            live_table.add_column(column, justify="left" if column == "source" else "right")
        for live_row in live:
            failed = ", ".join(f"{code} {n}" for code, n in live_row.failed.items()) or "0"
            live_table.add_row(
                live_row.source,
                str(live_row.pages),
                f"{live_row.static_f1:.3f}",
                f"{live_row.live_f1:.3f}",
                failed,
                str(live_row.loaded),
                f"{live_row.static_f1_loaded:.3f}",
                f"{live_row.live_f1_loaded:.3f}",
            )
        console.print(live_table)
        console.print(
            "  live F1 counts a page that did not load as 0; the last two columns compare the pages that loaded"
        )
        failed_pages = [f"{r.id} ({r.live_error})" for r in results if r.live_error]
        if failed_pages:
            console.print("  did not load live: " + ", ".join(failed_pages))
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
    parser.add_argument("--no-live", action="store_true", help="the static path only")
    parser.add_argument("--workers", type=int, default=2, help="processes running the libraries")
    parser.add_argument("--json", type=Path, default=None, help="where to write the results")
    args = parser.parse_args(argv)

    console = Console()
    pages = bench_pages(args.pages)
    names, missing = ([], []) if args.no_libraries else available_libraries()
    results = {page.id: PageResult(page.id, page.source, page.site) for page in pages}
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        documents = asyncio.run(prune_static(pages, progress))
        run_candidates(pages, documents, results, progress, args.workers)
        if not args.no_live:
            asyncio.run(run_live(pages, results, progress))
        if names:
            run_libraries(names, pages, results, progress, args.workers)
    ordered = list(results.values())
    page_scores = [PageScores(r.id, r.source, r.site, tuple(s.f1 for s in r.candidates)) for r in ordered]
    cv = cross_validate(page_scores)
    for result in ordered:
        result.scores[PAGELENS] = result.candidates[cv.out_of_fold[result.id]]
    all_pages_choice = choose_rules(page_scores)
    rows = summarize(ordered, [PAGELENS, SHIPPED, *names])
    live = summarize_live(ordered)
    checks = budgets(rows, live, ordered, CANDIDATES[all_pages_choice] == DEFAULT_RULES)
    render_tables(console, rows, live, checks, missing, ordered, cv, all_pages_choice)

    saved: dict[str, Any] = {
        "rows": [asdict(row) for row in rows],
        "live": [asdict(row) for row in live],
        "budgets": [asdict(check) for check in checks],
        "candidates": [describe(rules) for rules in CANDIDATES],
        "all_pages_choice": all_pages_choice,
        "pages": [{**asdict(result), "candidates": [round(s.f1, 4) for s in result.candidates]} for result in ordered],
    }
    path = write_results("extract", saved, args.json)
    console.print(f"[dim]results: {path}[/dim]")
    return 0 if all(check.passed for check in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
