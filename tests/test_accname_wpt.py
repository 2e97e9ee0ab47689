"""Accessible names against the W3C web-platform-tests AccName pages in the corpus.

Every element a ``wpt-accname-*`` page names in its expected-names.json (data-expectedlabel
attributes, or the ATTAcomm steps of the manual tests) is named by the engine; at least
95 % must match. Chromium itself misses a few of these expectations (its name is reported
beside ours on failure), and pagelens follows Chromium.
"""

from __future__ import annotations

import pytest

import pagelens
from bench.axtruth import wpt_name_cases
from bench.corpus import pages_of_kind

THRESHOLD = 0.95


@pytest.mark.corpus
async def test_wpt_accname_expectations(page: pagelens.Page, corpus_url: str) -> None:
    cases = []
    for corpus_page in pages_of_kind("accname-test"):
        await page.goto(corpus_page.path(corpus_url))
        cases += await wpt_name_cases(page, corpus_page)
    assert len(cases) >= 290, "expected-names.json lists 296 named elements"
    assert all(case.pagelens is not None for case in cases), "every tested element is on its page"
    failures = [case for case in cases if not case.matches]
    rate = 1 - len(failures) / len(cases)
    report = "\n".join(
        f"  {c.page} {c.element}: expected {c.expected!r}, pagelens {c.pagelens!r}, chromium {c.chromium!r}"
        for c in failures
    )
    assert rate >= THRESHOLD, f"{rate:.2%} of {len(cases)} WPT names match:\n{report}"
