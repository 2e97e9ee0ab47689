"""Shared fixtures: one real Chromium per test session (loopback-only network), a
loopback server for the corpus and one for the fixture pages."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import pagelens
from pagelens.browser.network import LOOPBACK_HOSTS

ROOT = Path(__file__).resolve().parents[1]
# The `bench` package (corpus and evaluation helpers), and the test helpers as the
# `tests` package: imported by that one name everywhere (bench uses them too), and their
# asserts rewritten as a test module's are.
sys.path.insert(0, str(ROOT))
pytest.register_assert_rewrite("tests")

from bench.corpus import MISSING_CORPUS, PAGES_DIR, corpus_available  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_report_header() -> str | None:
    return None if corpus_available() else f"corpus tests: {MISSING_CORPUS}"


CORPUS_SWEEP = "test_corpus_sweep.py"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `corpus` read ../shared/corpus: without it they are skipped, and on CI
    (CI=true) the run fails instead, since a missing corpus there is a broken checkout.
    Last of the collection hooks, so only the tests `-k` and `-m` kept count: a CI run of
    other tests does not need the corpus.

    The corpus sweep, by far the longest file, goes first: its worker walks the corpus
    while the other runs the rest, instead of the whole run waiting on it at the end
    (scripts/test.sh keeps this order)."""
    items.sort(key=lambda item: item.path.name != CORPUS_SWEEP)
    needing = [item for item in items if item.get_closest_marker("corpus")]
    if not needing or corpus_available():
        return
    if os.environ.get("CI") == "true":
        pytest.exit(f"{len(needing)} tests need the corpus: {MISSING_CORPUS}", returncode=1)
    skip = pytest.mark.skip(reason=MISSING_CORPUS)
    for item in needing:
        item.add_marker(skip)


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[pagelens.Browser]:
    async with pagelens.launch(allowed_hosts=LOOPBACK_HOSTS) as browser:
        yield browser


@pytest.fixture
async def page(browser: pagelens.Browser) -> AsyncIterator[pagelens.Page]:
    page = await browser.new_page()
    yield page
    await page.close()


@pytest.fixture(autouse=True)
def _corpus_tests_are_marked(request: pytest.FixtureRequest) -> None:
    """A test that serves the corpus says so, so that a checkout without it skips exactly
    the tests that need it."""
    if "corpus_url" in request.fixturenames and request.node.get_closest_marker("corpus") is None:
        pytest.fail(f"{request.node.nodeid} reads the corpus: mark it @pytest.mark.corpus")


@pytest.fixture(scope="session")
def corpus_url() -> Iterator[str]:
    """Base URL serving ../shared/corpus/pages (``{corpus_url}{id}/page.html``)."""
    with pagelens.serve_directory(PAGES_DIR) as url:
        yield url


@pytest.fixture(scope="session")
def fixtures_url() -> Iterator[str]:
    """Base URL serving tests/fixtures on 127.0.0.1."""
    with pagelens.serve_directory(FIXTURES) as url:
        yield url


@pytest.fixture(scope="session")
def cross_origin_fixtures_url(fixtures_url: str) -> str:
    """The same fixtures under another origin (localhost instead of 127.0.0.1), so an
    iframe between the two is cross-origin (and out of process in Chromium)."""
    return fixtures_url.replace("127.0.0.1", "localhost")
