"""Page-type classification over the labelled corpus pages, in real Chromium.

A page counts as correct when the type matches its expected_type or one of its
alt_expected_types. The thresholds hold overall and within every type, so a rule that
favours the most common type (article) cannot pass."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import get_args

import pytest
from test_summary import corpus_summaries

import pagelens
from pagelens.engine.models import PageType

OVERALL_MIN = 0.90
PER_TYPE_MIN = 0.80


@pytest.mark.corpus
async def test_page_type_accuracy_on_the_corpus(browser: pagelens.Browser, corpus_url: str) -> None:
    sweep = await corpus_summaries(browser, corpus_url)
    labelled = [r for r in sweep.values() if r.page.expected_type]
    assert len(labelled) > 300
    per_type: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    confusions: Counter[tuple[str, str]] = Counter()
    misses = []
    for result in labelled:
        expected, got = result.page.expected_type, result.compact.type
        ok = result.page.accepts(got)
        per_type[expected][0] += ok
        per_type[expected][1] += 1
        if not ok:
            confusions[(expected, got)] += 1
            misses.append(f"{result.page.id}: {expected} -> {got}")
    correct = sum(c for c, _ in per_type.values())
    print(f"\npage type: {correct}/{len(labelled)} = {correct / len(labelled):.1%}")
    for page_type, (c, n) in sorted(per_type.items()):
        print(f"  {page_type:15} {c:3}/{n:<3} {c / n:6.1%}")
    print("  confusions (expected -> got):", dict(confusions.most_common()))
    assert set(per_type) == set(get_args(PageType))
    assert correct / len(labelled) >= OVERALL_MIN, misses
    weak = {t: f"{c}/{n}" for t, (c, n) in per_type.items() if c / n < PER_TYPE_MIN}
    assert not weak, (weak, misses)


def test_the_rules_are_written_down() -> None:
    """classify.js documents its rules: every page type appears in the docstring."""
    from importlib import resources

    source = (resources.files("pagelens.engine") / "js" / "classify.js").read_text(encoding="utf-8")
    docstring = source[: source.index("*/")]
    for page_type in get_args(PageType):
        assert f" {page_type} " in docstring, page_type
