"""What a navigation reports of the document it loaded, read in one call to the engine
(`Page.arrive`; engine/js/arrival.js): every CDP round trip through Playwright's driver
costs milliseconds, and asked one by one (error document, title, engine status, summary)
these facts take eight after `load`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from pagelens.browser.error_document import ERROR_DOCUMENT_PREFIX
from pagelens.engine.models import CompactSummary
from pagelens.errors import ErrorCode


@dataclass(frozen=True)
class Arrival:
    doc: str  # the document's token (a navigation makes a new one, pushState does not)
    href: str  # the document's own address: Chromium's error document has its own
    title: str
    loaded: bool  # the document's `load` had come when it was read
    summary: CompactSummary | None = None  # asked for and taken
    summary_error: str | None = None  # asked for and not taken: an ErrorCode

    @property
    def error_document(self) -> bool:
        """Chromium's error document shows, not a page of the site."""
        return self.href.startswith(ERROR_DOCUMENT_PREFIX)


def arrival(facts: dict[str, Any], *, summary_late: bool) -> Arrival:
    """The engine's answer (`arrive`) as an Arrival; `summary_late`: it came past the
    summary's limit, which a summary waited for on its own would not have met."""
    summary, error = None, None
    if summary_late and ("summary" in facts or "summaryError" in facts):
        error = ErrorCode.SUMMARY_TIMEOUT
    elif "summaryError" in facts:
        error = ErrorCode.SCRIPT_INJECTION_FAILED  # an engine error, as a failed capture reports it
    elif "summary" in facts:
        try:
            summary = CompactSummary.model_validate(facts["summary"])
        except ValidationError:
            error = ErrorCode.SCRIPT_INJECTION_FAILED
    return Arrival(str(facts["doc"]), str(facts["href"]), str(facts["title"]), bool(facts["loaded"]), summary, error)
