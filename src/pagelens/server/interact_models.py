"""The bodies of `POST /api/agent/interact`, field for field as the extension's contract
names them (camelCase and snake_case mixed, as it sends them); see docs/server-agent.md.

Size limits are not declared here: a field over its limit is a 413 naming it
(`check_limits`), not one more validation error among others."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from pagelens.agent.plan import Plan
from pagelens.agent.step import ActionDetails, StepStatus
from pagelens.engine.models import MAX_SKELETON_BYTES
from pagelens.server.errors import PayloadTooLargeError
from pagelens.server.limits import MAX_TASK, MAX_URL
from pagelens.vision.models import MAX_IMAGE_BASE64

MAX_SCREENSHOT = MAX_IMAGE_BASE64  # base64 characters: the size pagelens' own screenshots keep to
MAX_SKELETON_DOM = MAX_SKELETON_BYTES  # bytes of UTF-8: where pagelens' own skeleton is cut
MAX_DOM = 200_000  # characters
MAX_SCREENSHOT_HASH = 256  # characters


def _text_id(value: Any) -> Any:
    """Ids arrive as numbers or strings (iframe-prefixed ids are strings): kept as text."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


TextId = Annotated[str, BeforeValidator(_text_id)]
DomMode = Literal["semantic", "skeleton", "hybrid", "full"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore")  # a newer client's extra fields are not an error


class LastActionError(_Body):
    message: str
    code: str
    action: str
    elementId: TextId | None = None  # noqa: N815


class LastActionResult(_Body):
    success: bool
    actualState: str | None = None  # noqa: N815


class ClientVerification(_Body):
    elementFound: bool  # noqa: N815
    selector: str | None = None
    urlChanged: bool | None = None  # noqa: N815
    timestamp: float | None = None


class ClientObservations(_Body):
    didNetworkOccur: bool | None = None  # noqa: N815
    didDomMutate: bool | None = None  # noqa: N815
    didUrlChange: bool | None = None  # noqa: N815


class Scroller(_Body):
    depth: str
    h: bool


class TreeNode(_Body):
    """A control of the V3 tree (minified keys); `selector` when the client has one."""

    i: TextId
    r: str
    n: str = ""
    v: str | None = None
    s: str | None = None
    xy: tuple[float, float] | None = None
    box: tuple[float, float, float, float] | None = None
    scr: Scroller | None = None
    occ: bool | None = None
    f: int | None = None
    selector: str | None = None


class SemanticNode(_Body):
    """A control of the V2 list (full keys), the fallback when there is no V3 tree."""

    id: TextId
    role: str
    name: str = ""
    value: str | None = None
    state: str | None = None
    type: str | None = None
    placeholder: str | None = None
    href: str | None = None
    isInShadow: bool | None = None  # noqa: N815
    frameId: int | None = None  # noqa: N815
    bounds: dict[str, float] | None = None
    selector: str | None = None


class Viewport(_Body):
    width: float
    height: float


class ScrollableContainer(_Body):
    id: str
    depth: str
    hasMore: bool  # noqa: N815


class InteractBody(_Body):
    url: str = Field(min_length=1)
    query: str = Field(min_length=1)
    dom: str | None = None
    taskId: str | None = None  # noqa: N815
    sessionId: str | None = None  # noqa: N815
    tabId: TextId | None = None  # noqa: N815
    domain: str | None = None
    title: str | None = None
    lastActionStatus: Literal["success", "failure", "pending"] | None = None  # noqa: N815
    lastActionError: LastActionError | None = None  # noqa: N815
    lastActionResult: LastActionResult | None = None  # noqa: N815
    previousUrl: str | None = None  # noqa: N815
    clientVerification: ClientVerification | None = None  # noqa: N815
    clientObservations: ClientObservations | None = None  # noqa: N815
    domMode: DomMode | None = None  # noqa: N815
    interactiveTree: list[TreeNode] | None = None  # noqa: N815
    viewport: Viewport | None = None
    pageTitle: str | None = None  # noqa: N815
    scrollPosition: str | None = None  # noqa: N815
    scrollableContainers: list[ScrollableContainer] | None = None  # noqa: N815
    recentEvents: list[str] | None = None  # noqa: N815
    hasErrors: bool | None = None  # noqa: N815
    hasSuccess: bool | None = None  # noqa: N815
    verification_passed: bool | None = None
    verification_message: str | None = None
    errors_detected: list[str] | None = None
    success_messages: list[str] | None = None
    dom_filtered: bool | None = None
    filter_reason: str | None = None
    original_node_count: int | None = None
    token_reduction: float | None = None
    semanticNodes: list[SemanticNode] | None = None  # noqa: N815
    screenshot: str | None = None
    skeletonDom: str | None = None  # noqa: N815
    screenshotHash: str | None = None  # noqa: N815
    model: str | None = Field(None, description="provider/model; default: the daemon's model.")


def check_limits(body: InteractBody) -> None:
    """413 naming the first field over its limit."""
    sizes = (
        ("url", len(body.url), MAX_URL, f"{MAX_URL:,} characters"),
        ("query", len(body.query), MAX_TASK, f"{MAX_TASK:,} characters"),
        ("screenshot", len(body.screenshot or ""), MAX_SCREENSHOT, "2 MB of base64"),
        ("skeletonDom", len((body.skeletonDom or "").encode()), MAX_SKELETON_DOM, "100 KB"),
        ("dom", len(body.dom or ""), MAX_DOM, f"{MAX_DOM:,} characters"),
        ("screenshotHash", len(body.screenshotHash or ""), MAX_SCREENSHOT_HASH, f"{MAX_SCREENSHOT_HASH} characters"),
    )
    for field, size, limit, shown in sizes:
        if size > limit:
            raise PayloadTooLargeError(field, shown)


class InteractData(BaseModel):
    """A decided step (docs/server-agent.md)."""

    thought: str
    action: str
    actionDetails: ActionDetails  # noqa: N815
    taskId: str  # noqa: N815
    plan: Plan
    currentStep: int  # noqa: N815
    totalSteps: int  # noqa: N815
    status: StepStatus
    sessionId: str  # noqa: N815


class NeedsContext(BaseModel):
    """The page as sent is not enough: retry the same call with these artifacts."""

    status: Literal["needs_context"] = "needs_context"
    requestedDomMode: DomMode  # noqa: N815
    needsScreenshot: bool  # noqa: N815
    needsSkeletonDom: bool  # noqa: N815
    reason: str
    needs_full_dom: bool = Field(description="Legacy clients' flag: send the page's DOM.")


class InteractResponse(BaseModel):
    success: Literal[True] = True
    data: InteractData | NeedsContext
