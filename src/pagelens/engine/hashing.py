"""Content hashes of views (delta hashing): an agent that already holds a view
asks again with `if_changed_since=<hash>` and gets `{unchanged: true}` instead of the
same thousands of tokens.

A hash names what a view says, not when it was taken: the same unchanged page hashes the
same on every capture. Views carry no timings or counters of their own; keys that only
an envelope adds (`browser_restarted`, `dialog`, the budget's report) are not hashed.

Scroll position counts. The interaction and semantic views give every control's place
in the viewport (and the semantic view leaves out what is off-screen), so after a scroll
the ids are the same but the points to click are not: an agent told "unchanged" would
click where the element was. The summaries rank the actions above the fold first, so a
scroll may change them too; the skeleton does not depend on scrolling.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from pagelens.errors import InvalidRequestError

HASH_RE = re.compile(r"^[0-9a-f]{16}$")
HASH_FORMAT = "16 lowercase hex digits, as given in a view's `hash`"
# Added around a view by the session or the budget, never part of what the page shows.
ENVELOPE_KEYS = frozenset(
    {
        "hash",
        "browser_restarted",
        "dialog",
        "query",
        "dom_filtered",
        "filter_reason",
        "original_node_count",
        "token_reduction",
        "page",
        "pages",
    }
)


class Unchanged(BaseModel):
    """The answer to a request whose `if_changed_since` matches the view's hash."""

    unchanged: Literal[True] = True
    hash: str


def view_hash(view: BaseModel | Mapping[str, Any], **shaping: Any) -> str:
    """The hash of `view`'s content. `shaping` names the request parameters that shaped
    what the caller received (query, page, max_tokens): a different query is a different
    answer. None values are left out, so a view hashes the same as a model or as a dict,
    and a request without shaping parameters hashes as the bare view."""
    content = view.model_dump(mode="json") if isinstance(view, BaseModel) else view
    document: Any = {k: v for k, v in content.items() if k not in ENVELOPE_KEYS}
    shape = {k: v for k, v in shaping.items() if v is not None}
    if shape:
        document = {"view": document, "shape": shape}
    canonical = json.dumps(_without_none(document), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(canonical.encode("utf-8"), digest_size=8).hexdigest()


def check_hash(value: object) -> str:
    """`value` if it is a hash this module makes; InvalidRequestError otherwise."""
    if not isinstance(value, str) or not HASH_RE.match(value):
        raise InvalidRequestError(f"if_changed_since must be {HASH_FORMAT}, not {value!r}")
    return value


def _without_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_without_none(v) for v in value]
    return value
