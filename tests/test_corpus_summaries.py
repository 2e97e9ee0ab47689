"""Every corpus page's compact summary, taken once in one tab and read by each test: the
schema limits and token budget, previews that start in the article, and the page type.

A page type counts as correct when it matches the page's expected_type or one of its
alt_expected_types, in each half of the corpus split by site as bench/page_types.py splits
it. The thresholds hold within every type, so a rule that favours the most common type
(article) cannot pass. (One file, so that one test worker takes the sweep once.)"""

from __future__ import annotations

import contextlib
import re
import statistics
from dataclasses import dataclass
from typing import get_args

import pytest

import pagelens
from bench.corpus import CorpusPage, answer_https_from_disk, corpus_pages
from bench.page_types import CHECKING, TUNING, labelled_pages, score, split
from pagelens.engine.models import PageType
from pagelens.errors import NavigationError
from pagelens.tokens import count_tokens, to_json

pytestmark = pytest.mark.corpus

COMPACT_TOKEN_LIMIT = 400
TAG_RE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")  # an element name, custom elements included
PAGE_TYPE_MIN = 0.90
PAGE_TYPE_PER_TYPE_MIN = 0.80  # in each half; bench/page_types.py holds the checking half to 90 %


@dataclass
class CorpusSummary:
    page: CorpusPage
    compact: pagelens.CompactSummary
    tokens: int


_SWEEP: dict[str, CorpusSummary] = {}


async def corpus_summaries(browser: pagelens.Browser, corpus_url: str) -> dict[str, CorpusSummary]:
    """The compact summary of every corpus page, computed once per test session."""
    if _SWEEP:
        return _SWEEP
    await answer_https_from_disk(browser.context, corpus_url)
    tab = await browser.new_page()
    try:
        for page in corpus_pages():
            # A few saved pages never fire `load`; their DOM is there all the same.
            with contextlib.suppress(NavigationError):
                await tab.goto(page.path(corpus_url), timeout=8)
            # A generous limit: the sweep shares the machine with other work; speed is
            # not what these tests measure.
            compact = await tab.summary("compact", timeout=15)
            _SWEEP[page.id] = CorpusSummary(page, compact, count_tokens(to_json(compact)))
    finally:
        await tab.close()
    return _SWEEP


async def test_compact_summary_limits_on_every_corpus_page(browser: pagelens.Browser, corpus_url: str) -> None:
    sweep = await corpus_summaries(browser, corpus_url)
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


async def test_previews_of_articles_start_in_the_article(browser: pagelens.Browser, corpus_url: str) -> None:
    """The preview is main content: its opening words appear in the gold article text the
    corpus ships for Readability (expected.html) and benchmark (ground-truth.json) pages."""
    sweep = await corpus_summaries(browser, corpus_url)
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


async def test_page_type_accuracy_on_the_corpus(browser: pagelens.Browser, corpus_url: str) -> None:
    sweep = await corpus_summaries(browser, corpus_url)
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
