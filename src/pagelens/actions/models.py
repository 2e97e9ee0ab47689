"""The contracts of the action layer: what `interact` and `analyze` take and return.

Parameter and field names are fixed by the contract (agents learn them: docs/), so
they are snake_case and never renamed. Requests forbid unknown parameters: a typo is a
typed error naming the parameter, never a silently ignored argument.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator, model_validator

from pagelens.actions import registry
from pagelens.actions.errors import InvalidParameterError
from pagelens.browser.loading import ScrollLoad
from pagelens.budget.layouts import LAYOUTS
from pagelens.engine.hashing import HASH_FORMAT, HASH_RE
from pagelens.engine.models import VIEW_ALIASES, VIEWS, CaptureRequest, CompactSummary, check_base_url
from pagelens.errors import PagelensError
from pagelens.vision.models import SCREEN_HASH_PATTERN

# What analyze reads: the engine's views (but the compact summary, which comes with every
# navigation), the main content, a screenshot, the tabs, a background command.
ENGINE_VIEWS: tuple[str, ...] = tuple(v for v in VIEWS if v != "compact")
ANALYZE_WHAT: tuple[str, ...] = (*ENGINE_VIEWS, "markdown", "screenshot", "tabs", "command_result")
# The views that have a content hash (and so answer if_changed_since).
HASHED_VIEWS: frozenset[str] = frozenset({*ENGINE_VIEWS, "markdown"})


def _whole_number_as_text(value: object) -> object:
    """A model often sends element id 12 as a number: it means "12". Only a whole number
    (never a bool, nor a float: 12.10 would lose the "12.10" it stood for)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


# An element id ("12", "12.5"), accepted as an integer too; the schema still says string.
ElementIdText = Annotated[str, BeforeValidator(_whole_number_as_text)]


class _Request(BaseModel):
    # Strict: "yes" is no boolean and "2" no number; an agent learns the types from the
    # schema, and a guess that half works teaches it the wrong ones.
    model_config = ConfigDict(extra="forbid", strict=True)

    @classmethod
    def parse(cls, data: Any) -> Any:
        """Validate `data` (a dict or an instance); a problem raises InvalidParameterError
        naming the parameter."""
        if isinstance(data, cls):
            return data
        if not isinstance(data, dict):
            raise InvalidParameterError("request", f"expected an object, not {type(data).__name__}")
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise InvalidParameterError.from_validation(exc) from exc

    @property
    def given(self) -> set[str]:
        """The parameters the call gives a value of its own (a null, an empty string or a
        default, as some clients send for every parameter, is no value)."""
        fields = type(self).model_fields
        return {name for name in self.model_fields_set if getattr(self, name) not in (fields[name].default, "")}


# The docstrings of the requests are their tools' descriptions (actions/tools.py): they
# speak to the agent. The actions themselves are declared on their handlers (registry.py).
class InteractRequest(_Request):
    """One `interact` call. `action` says what to do: the actions, with the parameters each
    reads, are listed below.

    Targets: element_id (a stable id from any view, "12.5" inside frame 12), or selector
    (CSS, or text=, role=, aria-label=, label=, placeholder=; `role=button[name="Save"]`
    narrows by name), or x and y (viewport pixels, where the action takes a point);
    `frame` (a frame element's id) scopes a selector to that frame. tab_id picks the tab
    (default: the active one). background: queue the action and return {queued,
    command_id} at once; `result` fetches it. A navigation queued so comes without its
    compact summary (summary is ignored): read the page with analyze once it is in.
    """

    action: str = Field(json_schema_extra=lambda schema: schema.update(enum=list(registry.SPECS)))
    url: str | None = None
    tab_id: str | None = None
    new_tab: bool = False
    element_id: ElementIdText | None = None
    selector: str | None = None
    x: float | None = None
    y: float | None = None
    text: str | None = None
    key: str | None = None
    value: str | float | list[str] | None = None
    summary: bool = True
    background: bool = False
    command_id: str | None = None
    frame: ElementIdText | None = None

    @model_validator(mode="after")
    def _check_action_parameters(self) -> InteractRequest:
        registry.check(self)
        return self

    @property
    def has_target(self) -> bool:
        return self.element_id is not None or self.selector is not None or self.x is not None

    @property
    def summary_of_landing(self) -> bool:
        """Whether a page this call loads comes with its compact summary: unless
        summary=false, and never in background mode (a queued result is read later, when
        the page may have moved on, so the agent reads it afresh then)."""
        return self.summary and not self.background

    @property
    def wants_summary(self) -> bool:
        """A navigation action's summary (an action that loads a page by a click asks
        summary_of_landing when it did)."""
        return self.summary_of_landing and registry.SPECS[self.action].navigates


class AnalyzeRequest(_Request):
    """One `analyze` call.

    what: full (the full summary), interaction (the interaction model),
    semantic (the V3 tree), skeleton, markdown (the main content as Markdown, without
    navigation, ads, footers or cookie banners, with title, byline, site_name, published,
    language, word_count), screenshot (a JPEG at most 1024 px wide and 8000 px high),
    tabs, command_result (command_id: that background command's status, without waiting;
    no command_id: every kept command's). world (full only): "isolated" (default: the
    page can neither see nor disturb the engine) or "main" (the page's own world).
    include_offscreen: semantic only.

    Huge pages (interaction, semantic, skeleton, markdown): a view is cut to max_tokens
    (default 4,000). query keeps the controls (skeleton elements, markdown blocks) whose
    text contains it (case-insensitive), or, when none does, the ones most relevant to it
    (BM25), best first when they still do not fit. Without a query, a view too big comes
    in pages: page (default 1) picks one. A cut view says dom_filtered, filter_reason,
    original_node_count, token_reduction (percent), and page/pages when there are several.
    Every view has a hash; if_changed_since=<that hash> answers {unchanged: true} when the
    page still shows the same (a scroll counts as a change for interaction and semantic).
    The earlier names page_summary (full) and interactive (interaction) still work.

    screenshot only: full_page (the whole page, not the viewport), element_id or selector
    (that element alone, scrolled into view), marks (Set-of-Marks: every visible control's
    box and its id, the semantic view's, drawn on the image), screenshot_hash (the `hash` of
    a screenshot you have: if the screen still hashes the same, no image comes back, only
    `unchanged: true` and the hash).

    The capture's options: include_values (interaction, semantic: what fields hold, at most
    200/100 characters; never a password or other sensitive field), include_boxes
    (semantic: each node's box), max_controls (interaction: at most this many controls,
    default 400, `truncated` says when more were left out), max_headings (interaction,
    default 30), max_iframe_depth (interaction, semantic: how many levels of frames are
    read, default 1, 0 for none), base_url (full, interaction, semantic, skeleton, dom:
    read the page as if loaded from this absolute http(s) address: relative links resolve
    against it and the view's url is it), mask_contact_details (the same views: false
    shows e-mail addresses and phone numbers, masked by default), max_dom_chars (dom: where
    the HTML is cut, 1,000 to 200,000 characters, default 50,000). A parameter given for a view that does not read it
    (query, max_tokens and page included) is an invalid_request error naming it, never
    silently ignored.
    """

    what: str = Field(json_schema_extra={"enum": list(ANALYZE_WHAT)})
    tab_id: str | None = None
    world: Literal["isolated", "main"] = "isolated"
    query: str | None = None
    max_tokens: int | None = Field(None, ge=50, le=200_000)
    include_offscreen: bool = False
    full_page: bool = False
    element_id: ElementIdText | None = None
    selector: str | None = None
    marks: bool = False
    screenshot_hash: str | None = Field(None, pattern=SCREEN_HASH_PATTERN)
    page: int | None = Field(None, ge=1, le=100_000)
    if_changed_since: str | None = None
    command_id: str | None = None
    include_values: bool = False
    include_boxes: bool = False
    mask_contact_details: bool = True
    max_controls: int | None = Field(None, ge=1, le=100_000)
    max_headings: int | None = Field(None, ge=1, le=1_000)
    max_iframe_depth: int | None = Field(None, ge=0, le=10)
    base_url: str | None = Field(None, max_length=4096)
    max_dom_chars: int | None = Field(None, ge=1_000, le=200_000)

    @field_validator("what", mode="before")
    @classmethod
    def _known(cls, what: object) -> object:
        """One of ANALYZE_WHAT, or an earlier name of one."""
        what = VIEW_ALIASES.get(what, what) if isinstance(what, str) else what
        if what not in ANALYZE_WHAT:
            raise InvalidParameterError("what", f"unknown {what!r}; one of {', '.join(ANALYZE_WHAT)}")
        return what

    @model_validator(mode="after")
    def _check(self) -> AnalyzeRequest:
        if self.what == "command_result" and self.query is not None:
            raise InvalidParameterError("query", "command_result takes the command's id as command_id")
        if self.world == "main" and self.what != "full":
            raise InvalidParameterError("world", f"world='main' applies to full only, not {self.what}")
        for name in sorted(self.given & VIEW_PARAMETERS.keys()):
            if self.what not in VIEW_PARAMETERS[name]:
                readers = ", ".join(VIEW_PARAMETERS[name])
                raise InvalidParameterError(name, f"applies to {readers} only, not {self.what}")
        if self.element_id is not None and self.selector is not None:
            raise InvalidParameterError("selector", "give element_id or selector, not both")
        if self.full_page and (self.element_id is not None or self.selector is not None):
            raise InvalidParameterError("full_page", "an element shot takes element_id or selector alone")
        if self.if_changed_since is not None:
            if self.what not in HASHED_VIEWS:
                views = ", ".join(sorted(HASHED_VIEWS))
                raise InvalidParameterError("if_changed_since", f"applies to {views}, not {self.what}")
            if not HASH_RE.match(self.if_changed_since):
                wrong = self.if_changed_since
                raise InvalidParameterError("if_changed_since", f"expected {HASH_FORMAT}, not {wrong!r}")
        return self

    @field_validator("base_url")
    @classmethod
    def _absolute(cls, url: str | None) -> str | None:
        if url is not None:
            try:
                check_base_url(url)
            except ValueError as exc:
                raise InvalidParameterError("base_url", str(exc)) from exc
        return url

    def capture_request(self) -> CaptureRequest:
        """The engine's capture options this call sets (the others keep their defaults)."""
        given = {
            "baseUrl": self.base_url,
            "maxControls": self.max_controls,
            "maxHeadings": self.max_headings,
            "includeValues": self.include_values,
            "maxIframeDepth": self.max_iframe_depth,
            "maxDomChars": self.max_dom_chars,
            "maskContactDetails": self.mask_contact_details,
        }
        return CaptureRequest.model_validate({k: v for k, v in given.items() if v is not None})


BUDGETED_VIEWS: tuple[str, ...] = tuple(LAYOUTS)
# The parameters of analyze that only some views read: given for another view, they are an
# error naming the parameter (docs/views.md says what each does).
_SCREENSHOT = ("screenshot",)
VIEW_PARAMETERS: dict[str, tuple[str, ...]] = {
    "full_page": _SCREENSHOT,
    "element_id": _SCREENSHOT,
    "selector": _SCREENSHOT,
    "marks": _SCREENSHOT,
    "screenshot_hash": _SCREENSHOT,
    "include_offscreen": ("semantic",),
    "include_boxes": ("semantic",),
    "include_values": ("interaction", "semantic"),
    "mask_contact_details": ENGINE_VIEWS,
    "max_controls": ("interaction",),
    "max_headings": ("interaction",),
    "max_iframe_depth": ("interaction", "semantic"),
    "base_url": ENGINE_VIEWS,
    "max_dom_chars": ("dom",),
    "command_id": ("command_result",),
    # The budget: only the views that are cut into chunks (pagelens.budget.layouts).
    "query": BUDGETED_VIEWS,
    "max_tokens": BUDGETED_VIEWS,
    "page": BUDGETED_VIEWS,
}


# ---- results


class DialogInfo(BaseModel):
    """A JavaScript dialog the page opened. `handled` is "pending" while it waits for
    handle_dialog, else "accepted"/"dismissed"; `by` says whether the agent or the
    session's dialog policy decided."""

    type: Literal["alert", "confirm", "prompt", "beforeunload"]
    message: str
    default_value: str | None = None
    handled: Literal["pending", "accepted", "dismissed"]
    by: Literal["agent", "policy"] | None = None


class Observations(BaseModel):
    """What the action visibly did (sentinel verification)."""

    url_changed: bool = False
    dom_mutated: bool = False
    network_requests: int = 0
    new_tab: str | None = None  # the id of a tab the action opened
    tab_closed: bool | None = None  # true when the page closed its own tab (window.close())
    download: str | None = None  # the file name of a download the action started
    dialog: DialogInfo | None = None
    element_found: bool = False
    recent_events: list[str] = Field(default_factory=list)  # toasts, alerts, aria-live text
    # The change log's lines of the action: states flipped, dialogs and controls shown or gone.
    changes: list[str] = Field(default_factory=list)
    has_errors: bool = False
    has_success: bool = False


class TabInfo(BaseModel):
    tab_id: str
    url: str
    title: str
    active: bool


class Candidate(BaseModel):
    """A control that might be what a stale id meant."""

    id: str
    role: str
    name: str
    xy: tuple[int, int]


class ContentScriptStatus(StrEnum):
    """Whether the engine, pagelens' content script, runs in the document an action loaded
    (actions/engine_status.py; docs/actions.md is generated from the meanings)."""

    meaning: str

    def __new__(cls, value: str, meaning: str) -> ContentScriptStatus:
        member = str.__new__(cls, value)
        member._value_ = value
        member.meaning = meaning
        return member

    LOADED = "loaded", "The engine answered from the document now shown: views and actions work."
    UNAVAILABLE = (
        "unavailable",
        "The tab shows Chromium's own error page (the address could not be loaded), no page of the "
        "site; the summary describes the error.",
    )
    FAILED = (
        "failed",
        "The engine could not be put in, or did not answer within 3 s (a page whose main thread is "
        'stuck); the summary is not tried again: `summary: null`, `summary_error: "script_injection_failed"`.',
    )


class ActionResult(BaseModel):
    """One interact result. JSON shape: fields that do not apply are left out,
    except that `summary` is null when `summary_error` says why it is missing.

    `selector_path` is the CSS selector of the element acted on (the interaction view's
    `selector` for it, within its frame's document), taken before the action; actions that
    loaded a document say `content_script_status`.

    Screenshot results carry the JPEG as base64 in `image` (`mime_type` image/jpeg) and its
    facts (size, hash...) in `screenshot`; an MCP surface moves the image into an image
    content block."""

    success: bool
    action: str
    url: str | None = None
    title: str | None = None
    message: str | None = None
    error: str | None = None
    summary: CompactSummary | None = None
    summary_error: str | None = None
    requested_url: str | None = None
    http_status: int | None = None
    # Navigations: false when `load` had not fired a few seconds after the document was
    # parsed (a resource still loading); the page was settled and read as it was.
    load_complete: bool | None = None
    tab_id: str | None = None
    content_script_status: ContentScriptStatus | None = None
    element_id: str | None = None
    selector_path: str | None = None
    healed: bool | None = None
    old_id: str | None = None
    new_id: str | None = None
    candidates: list[Candidate] | None = None
    covering: str | None = None  # the element that receives the click instead (occluded)
    observations: Observations | None = None  # element actions and handle_dialog
    dialog: DialogInfo | None = None  # other calls: a dialog the page opened, and how it was answered
    tabs: list[TabInfo] | None = None
    queued: bool | None = None
    command_id: str | None = None
    browser_restarted: bool | None = None
    image: str | None = None
    mime_type: str | None = None
    screenshot: dict[str, Any] | None = None
    loaded: ScrollLoad | None = None  # scroll_to_load: what came into view

    @classmethod
    def failure(cls, action: str, exc: PagelensError) -> ActionResult:
        """`action` failed with `exc`: its code, message and details (``covering``...)."""
        details = getattr(exc, "details", {})
        return cls(success=False, action=action, error=exc.code, message=exc.message, **details)

    def to_json(self) -> dict[str, Any]:
        data = self.model_dump(mode="json", exclude_none=True)
        if self.summary_error is not None:
            data["summary"] = None
        return data


class AnalyzeResult(BaseModel):
    """`data` is the JSON-ready view; `image` holds the JPEG for what="screenshot" (None
    when the screen is unchanged)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    data: dict[str, Any]
    image: bytes | None = None
