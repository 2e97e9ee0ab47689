"""The `summarize` tool, in its extract-only form: load a URL and return
its main content (`extractOnly: true`, `format`, `markdownMode`, `maxCharacters`,
`timeout`). A summary proper needs a language model; pagelens has none, so such a
request is refused with `summary_unavailable`."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

from playwright.async_api import Error as PlaywrightError
from pydantic import ValidationError

from pagelens.browser.browser import Browser
from pagelens.browser.guard import BrowserGoneError
from pagelens.errors import CaptureTimeoutError, ErrorCode, InvalidRequestError, PagelensError
from pagelens.extraction.api import extract
from pagelens.extraction.models import SummarizeRequest, SummarizeResult

DEFAULT_TIMEOUT_S = 60.0
MAX_TIMEOUT_S = 300.0
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$")
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, None: 1.0}


def parse_request(data: SummarizeRequest | dict[str, Any]) -> SummarizeRequest:
    """The validated request; a bad or unknown parameter raises InvalidRequestError
    naming it."""
    if isinstance(data, SummarizeRequest):
        return data
    if not isinstance(data, dict):
        raise InvalidRequestError(f"summarize takes an object, not {type(data).__name__}")
    try:
        return SummarizeRequest.model_validate(data)
    except ValidationError as exc:
        problem = exc.errors()[0]
        name = ".".join(map(str, problem["loc"])) or "request"
        raise InvalidRequestError(f"{name}: {problem['msg']}") from exc


def timeout_seconds(value: str | float | None) -> float:
    """A duration ("2m", "90s", "500ms", or a number of seconds) in seconds."""
    if value is None:
        return DEFAULT_TIMEOUT_S
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = float(value)
    else:
        match = _DURATION.match(str(value))
        if match is None:
            raise InvalidRequestError(f'timeout: expected seconds or a duration such as "90s" or "2m", not {value!r}')
        seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    if not 0 < seconds <= MAX_TIMEOUT_S:
        raise InvalidRequestError(f"timeout: must be above 0 and at most {MAX_TIMEOUT_S:g} s, not {value!r}")
    return seconds


async def summarize(request: SummarizeRequest | dict[str, Any], browser: Browser) -> SummarizeResult:
    """Run an extract-only `summarize` request: open `request.url` in a new tab of
    `browser`, extract, close the tab."""
    parsed = parse_request(request)
    if not parsed.extractOnly:
        raise PagelensError(
            "a summary needs a language model and pagelens has none; "
            "send extractOnly: true for the page's extracted content",
            code=ErrorCode.SUMMARY_UNAVAILABLE,
        )
    limit = timeout_seconds(parsed.timeout)
    page = await browser.new_page()
    try:
        async with asyncio.timeout(limit):
            await page.goto(parsed.url, timeout=limit)
            extraction = await extract(page, format=parsed.format, max_characters=parsed.maxCharacters, timeout=limit)
    except TimeoutError as exc:
        raise CaptureTimeoutError(f"summarize took longer than {limit:g} s") from exc
    except (PagelensError, PlaywrightError) as exc:
        # A browser that died surfaces as whatever call it cut short (a failed load, a
        # closed target): say what happened, as the session does for its own calls.
        if not browser.playwright_browser.is_connected():
            raise BrowserGoneError(
                "the browser went away during summarize (it crashed, was killed or was closed)"
            ) from exc
        raise
    finally:
        with contextlib.suppress(PlaywrightError):  # closed already, with its browser
            await page.close()
    return SummarizeResult.from_extraction(extraction)
