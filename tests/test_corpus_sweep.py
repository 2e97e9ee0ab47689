"""Every corpus page loaded once, and read by each test: names, roles and coverage of the
interaction model against Chromium's own accessibility tree (bench/axtruth.py); the
compact summary's schema limits and token budget, previews that start in the article,
and the page type; and every selector the views emit, matching its own element
(selector_support.py). (One file, so that one test worker walks the corpus once: loading
it is most of the walk's cost.)

A page type counts as correct when it matches the page's expected_type or one of its
alt_expected_types, in each half of the corpus split by site as bench/page_types.py splits
it. The thresholds hold within every type, so a rule that favours the most common type
(article) cannot pass."""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass
from typing import get_args

import pytest

import pagelens
from bench.axtruth import AgreementStats, corpus_agreement, offline_browser
from bench.corpus import CorpusPage, corpus_pages
from bench.page_types import CHECKING, TUNING, labelled_pages, score, split
from pagelens.engine.models import PageType
from pagelens.tokens import count_tokens, to_json
from tests.selector_support import Tally, check_page

pytestmark = pytest.mark.corpus

NAME_THRESHOLD = 0.98
ROLE_THRESHOLD = 0.98
COVERAGE_THRESHOLD = 0.99
COMPACT_TOKEN_LIMIT = 400
TAG_RE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")  # an element name, custom elements included
PAGE_TYPE_MIN = 0.90
PAGE_TYPE_PER_TYPE_MIN = 0.80  # in each half; bench/page_types.py holds the checking half to 90 %


@dataclass
class CorpusSummary:
    page: CorpusPage
    compact: pagelens.CompactSummary
    tokens: int


@dataclass
class CorpusSweep:
    agreement: AgreementStats
    summaries: dict[str, CorpusSummary]
    selectors: dict[str, Tally]


_SWEEPS: dict[str, CorpusSweep] = {}  # by the corpus server's address


async def corpus_sweep(corpus_url: str) -> CorpusSweep:
    """What every corpus page gives, computed once per test session. A browser of its own
    keeps the network off without routing each request through Python (see
    bench.axtruth.offline_browser)."""
    if corpus_url in _SWEEPS:
        return _SWEEPS[corpus_url]
    pages = {page.id: page for page in corpus_pages()}
    summaries: dict[str, CorpusSummary] = {}
    selectors: dict[str, Tally] = {}

    async def read_more(tab: pagelens.Page, page_id: str) -> None:
        # The page's scripts are stopped meanwhile (corpus_agreement): what a capture read
        # is what its selectors are resolved against, not what a timer has moved since.
        # One summary for the summary tests and the selector check. A generous limit: the
        # sweep shares the machine with other work; speed is not what it measures.
        compact = await tab.summary("compact", timeout=15)
        summaries[page_id] = CorpusSummary(pages[page_id], compact, count_tokens(to_json(compact)))
        selectors[page_id] = await check_page(tab, page_id, compact)

    async with offline_browser() as browser:
        agreement = await corpus_agreement(browser, corpus_url, list(pages), also=read_more)
    _SWEEPS[corpus_url] = CorpusSweep(agreement, summaries, selectors)
    return _SWEEPS[corpus_url]


async def test_corpus_agrees_with_chromium(corpus_url: str) -> None:
    """Pooled over every corpus page: names, roles and coverage of the visible interactive
    elements Chromium names."""
    stats = (await corpus_sweep(corpus_url)).agreement
    sample = "\n".join(
        f"  {m.page} [{m.kind}] {m.chromium_role} {m.expected_name[:60]!r} vs {m.pagelens_role} "
        f"{(m.pagelens_name or '')[:60]!r}"
        for m in [m for m in stats.mismatches if m.kind != "unnamed"][:40]
    )
    assert not stats.failed, f"pages that could not be measured: {stats.failed}"
    assert stats.named >= 30_000, stats.summary()
    assert stats.name_rate >= NAME_THRESHOLD, f"{stats.summary()}\n{sample}"
    assert stats.role_rate >= ROLE_THRESHOLD, f"{stats.summary()}\n{sample}"
    assert stats.interaction_coverage >= COVERAGE_THRESHOLD, f"{stats.summary()}\n{sample}"
    assert stats.semantic_coverage >= COVERAGE_THRESHOLD, f"{stats.summary()}\n{sample}"


async def test_selectors_across_the_corpus(corpus_url: str) -> None:
    sweep = await corpus_sweep(corpus_url)
    total = Tally()
    for tally in sweep.selectors.values():
        total.add(tally)
    print(
        f"\nselectors: {total.checked} checked on {len(sweep.selectors)} pages ({total.actions} primary"
        f" actions), {len(total.failures)} failing"
    )
    assert len(sweep.selectors) == len(corpus_pages()) == 520
    assert total.checked > 20_000
    assert not total.failures, "\n".join(total.failures[:50])
    assert not total.unnamed, total.unnamed[:50]


async def test_compact_summary_limits_on_every_corpus_page(corpus_url: str) -> None:
    sweep = (await corpus_sweep(corpus_url)).summaries
    assert len(sweep) == len(corpus_pages())
    problems = []
    for page_id, result in sweep.items():
        s = result.compact
        checks = {
            "tokens": result.tokens <= COMPACT_TOKEN_LIMIT,
            "title": len(s.title) <= 120,
            "headings": len(s.headings) <= 3 and all(h.startswith("h1: ") and len(h) > 4 for h in s.headings),
            "actions": len(s.primary_actions) <= 5
            and all(0 < len(a.label) <= 40 and a.selector and TAG_RE.fullmatch(a.tag) for a in s.primary_actions),
            "action labels unique": len({a.label.lower() for a in s.primary_actions}) == len(s.primary_actions),
            "forms": len(s.forms) <= 3 and all(0 < len(f.fields) <= 5 for f in s.forms),
            "preview": len(s.content_preview) <= 300,
            "counts": s.interactive_count >= 0 and s.word_count >= 0,
        }
        problems += [f"{page_id}: {name}" for name, ok in checks.items() if not ok]
    tokens = [r.tokens for r in sweep.values()]
    print(f"\ncompact tokens over {len(tokens)} pages: max {max(tokens)}, median {statistics.median(tokens)}")
    assert not problems, problems[:20]


async def test_previews_of_articles_start_in_the_article(corpus_url: str) -> None:
    """The preview is main content: its opening words appear in the gold article text the
    corpus ships for Readability (expected.html) and benchmark (ground-truth.json) pages."""
    sweep = (await corpus_sweep(corpus_url)).summaries
    checked, misses = 0, []
    for page_id, result in sweep.items():
        gold = _gold_article_text(result.page)
        preview = result.compact.content_preview
        if not gold or len(preview) < 40:
            continue
        checked += 1
        opening = " ".join(_words(preview)[3:9])  # past a possible headline or dateline
        if opening not in " ".join(_words(gold)):
            misses.append(page_id)
    print(f"\npreview starts in the article on {checked - len(misses)}/{checked} pages")
    assert checked > 150
    assert len(misses) <= 0.15 * checked, misses


def _gold_article_text(page: CorpusPage) -> str:
    if (page.dir / "ground-truth.json").exists():
        return page.ground_truth("ground-truth.json").get("articleBody") or ""
    if (page.dir / "expected.html").exists():
        html = (page.dir / "expected.html").read_text(encoding="utf-8")
        return re.sub(r"<[^>]+>", " ", html)
    return ""


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


async def test_page_type_accuracy_on_the_corpus(corpus_url: str) -> None:
    sweep = (await corpus_sweep(corpus_url)).summaries
    pages = labelled_pages()
    assert len(pages) > 300
    halves = split(pages)
    types = {page_id: result.compact.type for page_id, result in sweep.items()}
    for half in (TUNING, CHECKING):
        result = score((p for p in pages if halves[p.id] == half), types)
        print(f"\n{half}: {result.correct}/{result.pages}, balanced {result.balanced:.1%}, misses {result.misses}")
        assert result.correct / result.pages >= PAGE_TYPE_MIN, (half, result.misses)
        assert not result.weak(PAGE_TYPE_PER_TYPE_MIN), (half, result.weak(PAGE_TYPE_PER_TYPE_MIN), result.misses)
    assert set(score(pages, types).per_type) == set(get_args(PageType))
