"""Vision for agents: screenshots (JPEG, at most 1024 px wide, hashed), Set-of-Marks with
the semantic view's ids, and the choice between the semantic, skeleton, hybrid and full
views of a page."""

from pagelens.vision.dom_mode import DomMode, PageStats, page_stats, select_dom_mode
from pagelens.vision.models import Mark, Screenshot, ScreenshotRequest
from pagelens.vision.screenshots import screenshot

__all__ = [
    "DomMode",
    "Mark",
    "PageStats",
    "Screenshot",
    "ScreenshotRequest",
    "page_stats",
    "screenshot",
    "select_dom_mode",
]
