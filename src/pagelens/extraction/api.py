"""extract(): the main content of a page, readability-grade, for an agent to read.

1. The live pre-pass (prune.js) copies the document without what the reader does not see
   or does not read as content: hidden elements, navigation/banner/footer/aside
   landmarks, fixed overlays and consent banners.
2. readability-lxml and trafilatura read that copy (in threads: they are CPU-bound), and
   consensus.py keeps the article's blocks the two agree on, by rules chosen by
   cross-validation by site (docs/extraction.md).
3. The result is rendered as Markdown, text or HTML, cut to `max_characters`, with the
   page's metadata.

A live `Page` is read as it is now (Chromium's error document in it is a NavigationError,
not content); an HTML string is rendered first (scripts off,
network blocked) in `browser`, or in a throwaway browser when none is given.
"""

from __future__ import annotations

import asyncio
import math
from typing import get_args

from pagelens.browser.browser import Browser
from pagelens.browser.network import LOOPBACK_HOSTS
from pagelens.browser.page import Page
from pagelens.browser.static import static_base_url
from pagelens.errors import CaptureTimeoutError, InvalidRequestError, PagelensError
from pagelens.extraction import libraries
from pagelens.extraction.consensus import choose
from pagelens.extraction.models import DEFAULT_MAX_CHARACTERS, ExtractFormat, Extraction, Pruned
from pagelens.extraction.prepass import PrunedDocument, prune_html, prune_page
from pagelens.extraction.render import render, truncate
from pagelens.extraction.words import count_words

DEFAULT_TIMEOUT_S = 30.0
_MAX_TIMEOUT_S = 300.0
_MAX_CHARACTERS_LIMIT = 10_000_000


async def extract(
    source: Page | str,
    *,
    format: ExtractFormat = "markdown",  # noqa: A002 - the issue's parameter name
    max_characters: int = DEFAULT_MAX_CHARACTERS,
    base_url: str | None = None,
    browser: Browser | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,  # noqa: ASYNC109 - enforced around every step
) -> Extraction:
    """The main content of `source` (a live Page, or an HTML string) as Markdown, text or
    HTML, at most `max_characters` long, with title, byline, site name, publication date,
    language and word count. `base_url` (an absolute http(s) URL) is where the page is read
    as loaded from: its links resolve against it and it is the result's url (a saved copy
    served from disk read as its original address).

    Raises InvalidRequestError for bad arguments (before any browser work),
    CaptureTimeoutError when it takes longer than `timeout` seconds, and NavigationError
    (code: Chromium's net error) when the page shows Chromium's error document instead
    of a page of its own."""
    _check(source, format, max_characters, timeout, base_url)
    read_as = static_base_url(base_url) if isinstance(source, str) or base_url is not None else None
    try:
        async with asyncio.timeout(timeout):
            document = await _prune(source, read_as, browser, timeout)
            return await asyncio.to_thread(_extract_document, document, format, max_characters)
    except TimeoutError as exc:
        raise CaptureTimeoutError(f"extraction took longer than {timeout:g} s") from exc


async def _prune(source: Page | str, url: str | None, browser: Browser | None, limit_s: float) -> PrunedDocument:
    if isinstance(source, Page):
        return await _prune_live(source, url, limit_s)
    assert url is not None
    if browser is not None:
        return await prune_html(browser, source, url, limit_s)
    # Nothing to load: the throwaway browser may reach loopback only (and blocks even
    # that for the static tab).
    async with await Browser.launch(allowed_hosts=LOOPBACK_HOSTS) as own:
        return await prune_html(own, source, url, limit_s)


async def _prune_live(page: Page, base_url: str | None, limit_s: float) -> PrunedDocument:
    """Read a loaded page; Chromium's error document is a failed load, never content,
    whether it was there before the read or came during it (the page's own script
    navigated to an unreachable address)."""
    try:
        document = await prune_page(page, limit_s, base_url)
    except PagelensError:
        if (failed := await page.navigation_error()) is not None:
            raise failed from None
        raise
    if (failed := await page.navigation_error()) is not None:
        raise failed
    return document


def _extract_document(document: PrunedDocument, fmt: ExtractFormat, max_characters: int) -> Extraction:
    """The library work, blocking: run in a thread."""
    choice = choose(libraries.Readings(document.html, document.url))
    full = render(choice.html, fmt)
    content, truncated = truncate(full, max_characters, fmt)
    meta = libraries.metadata(document.html, document.url)
    return Extraction(
        url=document.url,
        format=fmt,
        content=content,
        title=meta.title or document.title.strip() or None,
        byline=meta.byline,
        site_name=meta.site_name,
        published=meta.published,
        language=document.language.strip() or meta.language,
        word_count=count_words(full if fmt == "text" else render(choice.html, "text")),
        characters=len(content),
        truncated=truncated,
        strategy=choice.strategy,
        pruned=Pruned.model_validate(document.dropped),
    )


def _check(source: object, fmt: object, max_characters: object, timeout: object, base_url: str | None) -> None:
    if not isinstance(source, Page | str):
        raise InvalidRequestError(f"extract takes a pagelens Page or an HTML string, not {type(source).__name__}")
    check_options(fmt, max_characters, timeout, base_url)


def check_options(
    fmt: object, max_characters: object, timeout: object = DEFAULT_TIMEOUT_S, base_url: str | None = None
) -> None:
    """extract's own rules for its options, for a caller that wants them checked before it
    loads the page (InvalidRequestError)."""
    if base_url is not None:
        static_base_url(base_url)  # an absolute http(s) URL
    if fmt not in get_args(ExtractFormat):
        raise InvalidRequestError(f"format must be one of {', '.join(get_args(ExtractFormat))}, not {fmt!r}")
    if (
        isinstance(max_characters, bool)
        or not isinstance(max_characters, int)
        or not 1 <= max_characters <= _MAX_CHARACTERS_LIMIT
    ):
        raise InvalidRequestError(
            f"max_characters must be a whole number from 1 to {_MAX_CHARACTERS_LIMIT:,}, not {max_characters!r}"
        )
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not math.isfinite(timeout)
        or not 0 < timeout <= _MAX_TIMEOUT_S
    ):
        raise InvalidRequestError(f"timeout must be a number of seconds above 0 and at most 300, not {timeout!r}")
