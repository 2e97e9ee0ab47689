"""Which view of a page to hand a model for a query.

The first rule that holds decides:

| # | when | mode |
|---|---|---|
| 1 | the model asked for the full DOM (`full_dom_requested`) | `full` |
| 2 | the query has a visual word, a position word or a visual question | `hybrid` |
| 3 | the query names no plain action, and the page is complex (below) | `hybrid` |
| 4 | the semantic view is available (the default) | `semantic` |
| 5 | otherwise (the semantic view failed or came back empty) | `skeleton` |

Complex: more than 50 controls, or 20 or more with 5 or more images or graphics in view.
The full DOM is never chosen unasked: it is the heaviest view.
`hybrid` means a screenshot beside the skeleton (or semantic) view; `pagelens.screenshot(page)`
takes it.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pagelens.browser.page import Page
from pagelens.errors import InvalidRequestError

DomMode = Literal["semantic", "skeleton", "hybrid", "full"]

COMPLEX_PAGE_CONTROLS = 50  # past this many controls, a picture disambiguates
MEDIUM_PAGE_CONTROLS = 20  # where medium complexity starts
VISUAL_PAGE_GRAPHICS = 5  # "significant visual content", as a number

# Words of looks, places and visual questions. A word matches whole, plurals included; "first name" and "last
# name" are form fields, not positions.
VISUAL_WORDS = (
    "icon", "image", "logo", "picture", "photo", "avatar", "thumbnail", "banner", "colou?r", "shape",
    r"looks?\s+like", "looks", "appears?", "appearance",
    # colours: a semantic view does not say them ("the blue button")
    "red", "green", "blue", "yellow", "orange", "purple", "pink", "black", "white", "gr[ae]y", "brown",
)  # fmt: skip
POSITION_WORDS = (
    "top", "bottom", "left", "right", "corner", "cent(?:er|re)", "middle", r"next\s+to", "above", "below",
    "beside", "near", r"first(?!\s+name)", r"last(?!\s+name)",
)  # fmt: skip
VISUAL_QUESTIONS = (
    r"what(?:'s|\s+is)", r"what\s+does", "identify", "recogni[sz]e", r"how\s+much", "price", "chart", "graph",
    "table",
)  # fmt: skip
ACTION_WORDS = (
    "click", "type", "fill", "select", "enter", "press", "submit", "check", "toggle", "scroll", "navigate",
    "search", "find",
)  # fmt: skip


def _words(words: tuple[str, ...], suffixes: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{'|'.join(words)})(?:{suffixes})?\b", re.IGNORECASE)


_VISUAL_QUERY = _words(VISUAL_WORDS + POSITION_WORDS + VISUAL_QUESTIONS, "s|es")
_ACTION_QUERY = _words(ACTION_WORDS, "s|es|d|ed|ing")


class PageStats(BaseModel):
    """What `select_dom_mode` needs to know about the page (see `page_stats`)."""

    model_config = ConfigDict(extra="forbid")

    interactive_count: int = Field(0, ge=0)  # controls: the summary's interactive_count
    visual_count: int = Field(0, ge=0)  # images, canvases, videos and SVG graphics in the viewport
    semantic_available: bool = True  # False when the semantic view failed or came back empty
    full_dom_requested: bool = False  # the model asked for the full DOM (needs_context)


def select_dom_mode(query: str, page_stats: PageStats | dict[str, Any] | None = None) -> DomMode:
    """`semantic`, `skeleton`, `hybrid` or `full` for `query` on a page described by
    `page_stats`, by the rules in this module's table."""
    if not isinstance(query, str):
        raise InvalidRequestError(f"query must be text, not {type(query).__name__}")
    stats = _stats(page_stats)
    if stats.full_dom_requested:
        return "full"
    if is_visual_query(query):
        return "hybrid"
    if not _ACTION_QUERY.search(query) and _is_complex(stats):
        return "hybrid"
    return "semantic" if stats.semantic_available else "skeleton"


def is_visual_query(query: str) -> bool:
    """Whether the query speaks of how or where something looks."""
    return _VISUAL_QUERY.search(query) is not None


def _is_complex(stats: PageStats) -> bool:
    if stats.interactive_count > COMPLEX_PAGE_CONTROLS:
        return True
    return stats.interactive_count >= MEDIUM_PAGE_CONTROLS and stats.visual_count >= VISUAL_PAGE_GRAPHICS


def _stats(page_stats: PageStats | dict[str, Any] | None) -> PageStats:
    if isinstance(page_stats, PageStats):
        return page_stats
    if page_stats is not None and not isinstance(page_stats, dict):
        raise InvalidRequestError(f"page_stats must be PageStats or a dict, not {type(page_stats).__name__}")
    try:
        return PageStats.model_validate(page_stats or {})
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise InvalidRequestError(f"invalid page_stats: {problems}") from exc


async def page_stats(page: Page) -> PageStats:
    """The page's numbers for `select_dom_mode`: its controls (the compact summary's
    count; none means there is no semantic view to give) and its graphics in the viewport
    at least 32 px on a side (icons and spacers are not visual content)."""
    summary = await page.summary("compact")
    world = await page.main_world()
    graphics = await world.call("countGraphics", timeout=3.0)
    return PageStats(
        interactive_count=summary.interactive_count,
        visual_count=graphics,
        semantic_available=summary.interactive_count > 0,
    )
