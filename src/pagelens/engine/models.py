"""The view contracts, typed once and shared by every surface.

JSON field names are the contracts' (docs/views.md), kept exactly as agents learn them,
which is why some are camelCase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pagelens.engine.hashing import view_hash

PageType = Literal[
    "article",
    "search_results",
    "dashboard",
    "form",
    "login",
    "error_page",
    "link_list",
    "app",
    "generic",
]

# Earlier names of two views that agents may still send (analyze's `what`); each view has
# one name everywhere else.
VIEW_ALIASES: dict[str, str] = {"page_summary": "full", "interactive": "interaction"}


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class View(_Model):
    """What every view has: a content hash."""

    @property
    def hash(self) -> str:
        """The content hash of this view (delta hashing; pagelens.engine.hashing):
        equal for equal content, whenever it was captured."""
        return view_hash(self)


# ---- summaries


class PrimaryAction(_Model):
    label: str
    selector: str
    tag: str


class CompactForm(_Model):
    fields: list[str]


class CompactSummary(View):
    """The ~300-token orientation every navigation returns."""

    type: PageType
    title: str
    headings: list[str]
    primary_actions: list[PrimaryAction]
    forms: list[CompactForm]
    content_preview: str
    interactive_count: int
    word_count: int


class NavLink(_Model):
    text: str
    href: str


class FullForm(_Model):
    fields: list[str]
    action: str | None = None
    method: str | None = None


class FullSummary(View):
    """The standalone page summary: analyze(what="full")."""

    url: str
    title: str
    type: PageType
    headings: list[str]
    nav_links: list[NavLink]
    forms: list[FullForm]
    main_content_preview: str
    interactive_element_count: int
    word_count: int


# ---- interaction model


def check_base_url(url: str) -> str:
    """`url` if it is an absolute http(s) URL, as a capture's base URL must be; else
    ValueError saying why."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ValueError(f"{url!r} is not a URL: {exc}") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"expected an absolute http(s) URL, not {url!r}")
    return url


class CaptureRequest(BaseModel):
    """Options of a capture (the interaction model's, the dom view's length, and whether
    e-mail addresses and phone numbers are masked in every view: docs/privacy.md); bad
    values are rejected, wrong types too (strict: no "yes" for true, no true or 2.5 for a
    count). `baseUrl` reads the page as if it had been loaded from that address: links
    resolve against it and the view reports it as its url (docs/views.md)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    baseUrl: str | None = None
    maxControls: int = Field(400, ge=1, le=100_000)
    maxHeadings: int = Field(30, ge=1, le=1_000)
    includeValues: bool = False
    maxIframeDepth: int = Field(1, ge=0, le=10)
    maxDomChars: int = Field(50_000, ge=1_000, le=200_000)  # where the dom view is cut
    maskContactDetails: bool = True

    @field_validator("baseUrl")
    @classmethod
    def _absolute(cls, url: str | None) -> str | None:
        return None if url is None else check_base_url(url)


class BoundingBox(_Model):
    x: int
    y: int
    width: int
    height: int


class ControlStates(_Model):
    checked: bool | Literal["mixed"] | None = None
    disabled: bool | None = None
    expanded: bool | None = None
    selected: bool | None = None
    pressed: bool | Literal["mixed"] | None = None
    current: bool | None = None  # aria-current: the current page, step, date or item
    sort: Literal["ascending", "descending"] | None = None  # a column or row header's aria-sort
    required: bool | None = None
    invalid: bool | None = None
    readonly: bool | None = None
    focused: bool | None = None
    password: bool | None = None  # a password goes here (its value never shows)


class InteractiveControl(_Model):
    id: str
    role: str
    name: str
    context: str | None = None  # what tells it from controls of the same name (docs/views.md#interaction)
    states: ControlStates
    selector: str | None = None  # None: no CSS selector names it alone (docs/ids.md)
    region: str | None = None
    boundingBox: BoundingBox
    visible: bool
    inViewport: bool
    type: str | None = None
    value_len: int | None = None
    value: str | None = None
    text: str | None = None  # its own text, where it shows a number its name leaves out (a badge)
    description: str | None = None  # its error, hint or other description (docs/views.md#interaction)


class Unreachable(_Model):
    """What the capture could not see, counted rather than silently lost."""

    closedShadowRoots: int = 0
    framesBeyondDepth: int = 0
    framesFailed: int = 0


class PageModel(View):
    title: str
    url: str
    headings: list[str]
    regions: list[str]
    controls: list[InteractiveControl]
    aimap: dict[str, str]  # control id -> selector, for the controls that have one
    total_controls: int
    truncated: bool
    unreachable: Unreachable = Unreachable()


# ---- semantic tree (V3)


class ScrollState(_Model):
    depth: str
    h: bool


class SemanticNode(_Model):
    """V3 node: i id · r role (abbreviated) · n name · c context telling it from controls
    of the same name (its row, card or item) · t text showing a number the name leaves
    out (a badge) · v value · s states · d description (an error, a hint) · xy centre ·
    box [x, y, w, h] · scr scroll state · occ covered by something else · f frame."""

    i: str
    r: str
    n: str
    c: str | None = None
    t: str | None = None
    v: str | None = None
    s: str | None = None
    d: str | None = None
    xy: tuple[int, int]
    box: tuple[int, int, int, int] | None = None
    scr: ScrollState | None = None
    occ: bool | None = None
    f: int | None = None


class Viewport(_Model):
    width: int
    height: int


class ScrollableContainer(_Model):
    id: str
    depth: str
    hasMore: bool


class SemanticView(View):
    mode: Literal["semantic"] = "semantic"
    url: str
    title: str
    viewport: Viewport
    scrollPosition: str
    interactive_tree: list[SemanticNode]
    scrollableContainers: list[ScrollableContainer]
    unreachable: Unreachable | None = None
    # In-viewport nodes not hit tested for `occ`: on a page where hit testing is slow
    # (thousands of sibling boxes) the view stops testing after a time budget.
    occlusionUnchecked: int | None = None
    # What changed since the last semantic view ("[3s ago] Added: 'Saved'"), and whether
    # an error or a success message was among it; absent when nothing did.
    recentEvents: list[str] | None = None
    hasErrors: bool | None = None
    hasSuccess: bool | None = None


# ---- skeleton DOM


# The skeleton's html is cut at an element boundary at this many bytes of UTF-8 (the
# contract's 100 KB), with `truncated`.
MAX_SKELETON_BYTES = 100 * 1024


class SkeletonView(View):
    url: str
    title: str
    html: str
    truncated: bool = False


# ---- sanitised DOM


class DomView(View):
    url: str
    title: str
    html: str
    truncated: bool


# ---- the views, declared once


@dataclass(frozen=True)
class ViewSpec:
    """A view of the engine: its name (the same in the engine, the Python API, the CLI and
    MCP), its model, its time limit, whether frames are stitched into it, and its line of
    documentation."""

    name: str
    model: type[View]
    timeout: float  # seconds
    doc: str
    frames: bool = False  # the controls of frames are merged in (browser/frames.py)


VIEW_SPECS: dict[str, ViewSpec] = {
    spec.name: spec
    for spec in (
        # The summaries ride along with a navigation: they are quick or absent.
        ViewSpec("compact", CompactSummary, 3.0, "what the page is and what to do on it, in at most 400 tokens"),
        ViewSpec("full", FullSummary, 3.0, "the full summary: headings, navigation links, forms, a preview"),
        ViewSpec("interaction", PageModel, 30.0, "every control: id, role, name, states, selector, box", frames=True),
        ViewSpec("semantic", SemanticView, 30.0, "the compact tree of controls (V3 keys)", frames=True),
        ViewSpec("skeleton", SkeletonView, 30.0, "the actionable elements as HTML"),
        ViewSpec("dom", DomView, 30.0, "the page's HTML without scripts, styles or field values (50,000 characters)"),
    )
}
VIEWS: tuple[str, ...] = tuple(VIEW_SPECS)
