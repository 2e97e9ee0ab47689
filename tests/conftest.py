"""Shared fixtures: one real Chromium per test session (loopback-only network), a
loopback server for the corpus and one for the fixture pages."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import pagelens
from pagelens.browser.network import LOOPBACK_HOSTS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the `bench` package (corpus and evaluation helpers)

from bench.corpus import PAGES_DIR  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[pagelens.Browser]:
    async with pagelens.launch(allowed_hosts=LOOPBACK_HOSTS) as browser:
        yield browser


@pytest.fixture
async def page(browser: pagelens.Browser) -> AsyncIterator[pagelens.Page]:
    page = await browser.new_page()
    yield page
    await page.close()


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
