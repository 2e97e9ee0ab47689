"""How bench.extract chooses the extraction rules, and how it tells whether the choice
generalizes: cross-validation grouped by site.

The candidates are `consensus.Rules`: each library alone, and the consensus over a small
grid of its numbers. Every candidate is scored on every page (`PageScores`); then

- the choice on a set of pages is the candidate with the highest mean F1, the mean of
  each source's mean (so both sources weigh the same whatever their page counts; the
  earlier candidate of the grid wins a tie);
- out of fold: each site's pages are scored by the choice made on all other sites
  (leave one site out), so a page never helps choose the rules it is scored with;
- the shipped defaults (consensus.DEFAULT_RULES) are the choice on all pages.

A page's site is the host of its original URL (meta.json `original_url`, without
"www."), else its source: the readability-* pages record none, so they are one group,
and their out-of-fold score is that of rules chosen on the aeb-* pages alone.
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from pagelens.extraction.consensus import Rules

# The grid: each library alone first (the simplest rules win a tie), then the consensus.
CANDIDATES: tuple[Rules, ...] = (
    Rules(strategy="readability"),
    Rules(strategy="trafilatura"),
    *(
        Rules(supported=s, run_min_words=m, run_prose_share=p, wrong_container=w)
        for s, m, p, w in itertools.product((0.5, 0.6, 0.7), (15, 30, 60), (0.5, 0.75, 1.0), (0.5, 1.0, 2.0))
    ),
)


def describe(rules: Rules) -> str:
    if rules.strategy != "consensus":
        return f"{rules.strategy} alone"
    return (
        f"consensus supported={rules.supported:g} run_min_words={rules.run_min_words} "
        f"run_prose_share={rules.run_prose_share:g} wrong_container={rules.wrong_container:g}"
    )


def site_of(page_dir: Path, source: str) -> str:
    """The page's site: its original URL's host, else its source."""
    meta = json.loads((page_dir / "meta.json").read_text(encoding="utf-8"))
    host = urlsplit(meta.get("original_url") or "").hostname or ""
    return host.removeprefix("www.") or source


@dataclass(frozen=True)
class PageScores:
    """One page's F1 under every candidate (in CANDIDATES' order)."""

    id: str
    source: str
    site: str
    f1: tuple[float, ...]


def choose(pages: Sequence[PageScores]) -> int:
    """The index of the candidate with the best mean of the sources' mean F1 on `pages`."""
    by_source: dict[str, list[PageScores]] = {}
    for page in pages:
        by_source.setdefault(page.source, []).append(page)

    def objective(index: int) -> float:
        return statistics.mean(statistics.mean(p.f1[index] for p in group) for group in by_source.values())

    # max() keeps the first of equals: the earlier, simpler candidate.
    return max(range(len(CANDIDATES)), key=objective)


@dataclass
class CrossValidation:
    out_of_fold: dict[str, int]  # page id -> the candidate chosen without its site
    chosen: Counter[int]  # candidate index -> folds that chose it
    folds: int


def cross_validate(pages: Sequence[PageScores]) -> CrossValidation:
    """Leave one site out: each site's pages are scored by the rules chosen on the others."""
    out_of_fold: dict[str, int] = {}
    chosen: Counter[int] = Counter()
    sites = sorted({page.site for page in pages})
    for site in sites:
        training = [page for page in pages if page.site != site]
        if not training:
            continue
        index = choose(training)
        chosen[index] += 1
        for page in pages:
            if page.site == site:
                out_of_fold[page.id] = index
    return CrossValidation(out_of_fold, chosen, len(sites))
