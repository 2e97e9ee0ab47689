"""The page as an interact call brings it: the view the model reads, its fingerprint for
verification, and whether it is enough (the `needs_context` negotiation, docs/server-agent.md)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pagelens.server.interact_models import InteractBody, NeedsContext
from pagelens.vision.dom_mode import is_visual_query

# What the page is made of: the first of these the client sent is the view's core.
_CONTROLS = ("interactiveTree", "semanticNodes")
_MARKUP = ("skeletonDom", "dom")
# What the client saw around its last action, read beside the controls.
_EXTRAS: set[str] = {
    "viewport",
    "pageTitle",
    "scrollPosition",
    "scrollableContainers",
    "recentEvents",
    "hasErrors",
    "hasSuccess",
    "errors_detected",
    "success_messages",
    "dom_filtered",
    "filter_reason",
    "original_node_count",
    "token_reduction",
}


def page_view(body: InteractBody) -> dict[str, Any]:
    """What the model reads of the page: the V3 tree, else the V2 nodes, with the skeleton
    when the client sent one (it was asked for); the full DOM only when there is nothing
    lighter; and the extras (recent events, errors, scrolling...)."""
    core = _core(body)
    return {**core, **body.model_dump(include=_EXTRAS, exclude_none=True)}


def fingerprint(body: InteractBody) -> str:
    """A hash of the page's controls and markup (not of the extras, whose event log
    changes by itself): two calls with the same fingerprint show the same page."""
    text = json.dumps(_core(body), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def needs_context(body: InteractBody) -> NeedsContext | None:
    """What to ask for before the model can decide, or None when the call has enough.

    A query about looks or places (colours, icons, left/right of, ...) needs a screenshot
    and the skeleton, which the semantic tree does not carry. A page without a usable tree
    needs markup: the skeleton, or a legacy client's full DOM. A retry that carries any of
    what was asked goes ahead, so a client that cannot capture a screenshot never loops."""
    if is_visual_query(body.query) and not (body.screenshot or body.screenshotHash or body.skeletonDom):
        return NeedsContext(
            requestedDomMode="hybrid",
            needsScreenshot=True,
            needsSkeletonDom=True,
            reason="the query is about how or where something looks; the semantic tree does not show that",
            needs_full_dom=False,
        )
    if not _usable_controls(body) and not (body.skeletonDom or body.dom):
        return NeedsContext(
            requestedDomMode="full",
            needsScreenshot=False,
            needsSkeletonDom=True,
            reason="the semantic tree is empty or names no control: send the skeleton DOM (or the full DOM)",
            needs_full_dom=True,
        )
    return None


def _usable_controls(body: InteractBody) -> bool:
    """A tree helps only if it names something: a list of nameless nodes cannot be told apart."""
    return any(node.n.strip() for node in body.interactiveTree or ()) or any(
        node.name.strip() for node in body.semanticNodes or ()
    )


def _core(body: InteractBody) -> dict[str, Any]:
    controls = next((name for name in _CONTROLS if getattr(body, name)), None)
    markup = next((name for name in _MARKUP if getattr(body, name)), None)
    if controls is not None and markup == "dom":
        markup = None  # the full DOM only when it is all there is
    return body.model_dump(include={name for name in (controls, markup) if name}, exclude_none=True)
