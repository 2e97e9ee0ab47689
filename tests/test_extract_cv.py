"""bench/extract_cv.py: the extraction rules are chosen on other sites than the ones
they are scored on, and both sources weigh the same in the choice."""

from __future__ import annotations

import pytest

from bench.corpus import PAGES_DIR
from bench.extract_cv import CANDIDATES, PageScores, choose, cross_validate, site_of


def page(page_id: str, source: str, site: str, best: int, *, score: float = 0.9) -> PageScores:
    """A page scoring `score` under candidate `best` and 0.5 under every other."""
    return PageScores(page_id, source, site, tuple(score if i == best else 0.5 for i in range(len(CANDIDATES))))


def test_each_site_is_scored_by_the_rules_the_other_sites_chose() -> None:
    pages = [
        page("a1", "aeb", "a.example", 3),
        page("a2", "aeb", "a.example", 3),
        page("b1", "aeb", "b.example", 7),
        page("c1", "readability", "readability", 7),
    ]
    cv = cross_validate(pages)
    assert cv.folds == 3
    # a.example's own favourite (3) is never used on it: the others chose 7; the
    # readability page, held out, gets what the aeb pages alone prefer (3).
    assert cv.out_of_fold == {"a1": 7, "a2": 7, "b1": 3, "c1": 3}
    assert choose(pages) == 7


def test_both_sources_weigh_the_same_whatever_their_page_counts() -> None:
    many = [page(f"a{i}", "aeb", f"s{i}.example", 3, score=0.6) for i in range(10)]
    few = [page("r1", "readability", "readability", 4, score=1.0)]
    # By page, candidate 3 wins (10 pages gain 0.1); by source mean, 4 gains 0.5 on one source.
    assert choose(many + few) == 4


def test_a_tie_goes_to_the_earlier_candidate() -> None:
    pages = [PageScores("x", "aeb", "x.example", tuple(0.8 for _ in CANDIDATES))]
    assert choose(pages) == 0


@pytest.mark.corpus
def test_a_page_is_grouped_by_its_original_host_else_its_source() -> None:
    assert site_of(PAGES_DIR / "aeb-042bb7b5fedab6ea", "aeb") == "wsj.com"
    assert site_of(PAGES_DIR / "readability-ars-1", "readability") == "readability"
