"""Page-type accuracy on the labelled corpus pages, split by site into a tuning half and a
checking half.

    python -m bench.page_types                  # both halves
    python -m bench.page_types --half tuning    # only the half the rules may be tuned on

Every labelled page (meta.json expected_type) is loaded in Chromium from a loopback
server and classified by the compact summary; a page counts as correct when the type is
its expected_type or one of its alt_expected_types. Pages are split by site
(`CorpusPage.site`), so the pages of one site, template or test suite stay in one half.
Prints per-type accuracy in each half, the balanced accuracy (the mean of the per-type
accuracies), the misclassified pages, and PASS/FAIL: every type >= 90 % on the checking
half. Exit status 1 on a FAIL.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import get_args

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import pagelens
from bench.corpus import PAGES_DIR, CorpusPage, answer_https_from_disk, corpus_pages
from pagelens.browser.network import LOOPBACK_HOSTS
from pagelens.engine.models import PageType
from pagelens.errors import NavigationError

TUNING, CHECKING = "tuning", "checking"
PER_TYPE_MIN = 0.90  # on the checking half
PAGE_TYPES: tuple[str, ...] = get_args(PageType)


def labelled_pages() -> list[CorpusPage]:
    return [p for p in corpus_pages() if p.expected_type]


def _side(site: str, salt: int) -> int:
    return hashlib.sha256(f"{salt}:{site}".encode()).digest()[0] % 2


def split(pages: Sequence[CorpusPage]) -> dict[str, str]:
    """Page id -> TUNING or CHECKING. A site's pages go to the side a hash of its name
    picks; the salt is the first that gives every type found on two sites or more at
    least a quarter of its pages on each side. A type found on one site only (all app
    pages are one template's) can be tuned or checked, not both: its side is the checking
    half, so it is checked on real pages, and rules for it are tuned on pages of our own
    (tests/fixtures/page_types)."""
    sites_of: dict[str, set[str]] = defaultdict(set)
    for page in pages:
        sites_of[page.expected_type or ""].add(page.site)
    shared = [t for t, sites in sites_of.items() if len(sites) >= 2]
    for salt in range(1000):
        counts = [Counter[str](), Counter[str]()]
        for page in pages:
            counts[_side(page.site, salt)][page.expected_type or ""] += 1
        if all(min(counts[0][t], counts[1][t]) >= 0.25 * (counts[0][t] + counts[1][t]) for t in shared):
            break
    else:
        raise RuntimeError("no salt splits the corpus evenly enough")
    single = [next(iter(sites)) for sites in sites_of.values() if len(sites) == 1]
    checking = _side(single[0], salt) if single else 1
    return {p.id: CHECKING if _side(p.site, salt) == checking else TUNING for p in pages}


@dataclass
class Score:
    """Accuracy over a set of pages: per expected type, and the misses."""

    per_type: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    misses: list[tuple[str, str, str]] = field(default_factory=list)  # (page id, expected, got)

    def add(self, page: CorpusPage, got: str) -> None:
        counts = self.per_type[page.expected_type or ""]
        ok = page.accepts(got)
        counts[0] += ok
        counts[1] += 1
        if not ok:
            self.misses.append((page.id, page.expected_type or "", got))

    def accuracy(self, page_type: str) -> float | None:
        correct, total = self.per_type.get(page_type, (0, 0))
        return correct / total if total else None

    @property
    def pages(self) -> int:
        return sum(n for _, n in self.per_type.values())

    @property
    def correct(self) -> int:
        return sum(c for c, _ in self.per_type.values())

    @property
    def balanced(self) -> float:
        """The mean of the per-type accuracies: each type weighs the same however many pages it has."""
        rates = [c / n for c, n in self.per_type.values() if n]
        return sum(rates) / len(rates) if rates else 0.0

    def weak(self, floor: float) -> dict[str, str]:
        return {t: f"{c}/{n}" for t, (c, n) in self.per_type.items() if n and c / n < floor}


def score(pages: Iterable[CorpusPage], types: Mapping[str, str]) -> Score:
    result = Score()
    for page in pages:
        if page.id in types:
            result.add(page, types[page.id])
    return result


async def classify(pages: Sequence[CorpusPage], progress: Progress | None = None) -> dict[str, str]:
    """Page id -> the type the compact summary gives, each page loaded from a loopback server."""
    types: dict[str, str] = {}
    task = progress.add_task("pages", total=len(pages)) if progress else None
    async with pagelens.launch(allowed_hosts=LOOPBACK_HOSTS) as browser:
        tab = await browser.new_page()
        with pagelens.serve_directory(PAGES_DIR) as base_url:
            await answer_https_from_disk(browser.context, base_url)
            for page in pages:
                # A few saved pages never fire `load`; their DOM is there all the same.
                with contextlib.suppress(NavigationError):
                    await tab.goto(page.path(base_url), timeout=8)
                types[page.id] = (await tab.summary("compact", timeout=15)).type
                if progress and task is not None:
                    progress.update(task, advance=1, description=page.id[:40])
        await tab.close()
    return types


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def render(console: Console, scores: dict[str, Score]) -> bool:
    """The tables; whether every type reaches PER_TYPE_MIN on the checking half."""
    table = Table(title="page type accuracy by half (split by site)")
    table.add_column("type")
    for half in scores:
        table.add_column(f"{half} n", justify="right")
        table.add_column(f"{half} acc", justify="right")
    if CHECKING in scores:
        table.add_column(f"checking >= {PER_TYPE_MIN:.0%}")
    passed = CHECKING in scores
    for page_type in PAGE_TYPES:
        row = [page_type]
        for half_score in scores.values():
            correct, total = half_score.per_type.get(page_type, (0, 0))
            row += [f"{correct}/{total}", _percent(half_score.accuracy(page_type))]
        if CHECKING in scores:
            rate = scores[CHECKING].accuracy(page_type)
            ok = rate is not None and rate >= PER_TYPE_MIN
            passed &= ok
            row.append("PASS" if ok else "FAIL" if rate is not None else "FAIL (no pages)")
        table.add_row(*row)
    overall = ["all pages"]
    balanced = ["balanced"]
    for half_score in scores.values():
        overall += [f"{half_score.correct}/{half_score.pages}", _percent(half_score.correct / half_score.pages)]
        balanced += ["", _percent(half_score.balanced)]
    table.add_row(*overall, *([""] if CHECKING in scores else []))
    table.add_row(*balanced, *([""] if CHECKING in scores else []))
    console.print(table)
    for half, half_score in scores.items():
        console.print(f"[bold]{half}: misclassified[/bold] ({len(half_score.misses)})")
        for page_id, expected, got in sorted(half_score.misses, key=lambda m: (m[1], m[0])):
            console.print(f"  {expected:>14} -> {got:<14} {page_id}")
    if CHECKING in scores:
        console.print(f"checking half, every type >= {PER_TYPE_MIN:.0%}: {'PASS' if passed else 'FAIL'}")
    return passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.page_types", description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=(TUNING, CHECKING, "both"), default="both", help="which half to classify")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 120)
    pages = labelled_pages()
    if not pages:
        console.print("[red]the corpus is missing[/red]")
        return 1
    halves = split(pages)
    wanted = (TUNING, CHECKING) if args.half == "both" else (args.half,)
    chosen = [p for p in pages if halves[p.id] in wanted]
    columns = (TextColumn("{task.description:<42}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        types = asyncio.run(classify(chosen, progress))
    for half in wanted:
        members = [p for p in pages if halves[p.id] == half]
        console.print(f"{half}: {len(members)} pages, {len({p.site for p in members})} sites")
    scores = {half: score((p for p in chosen if halves[p.id] == half), types) for half in wanted}
    passed = render(console, scores)
    return 0 if passed or args.half == TUNING else 1


if __name__ == "__main__":
    sys.exit(main())
