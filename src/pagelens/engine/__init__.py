"""The in-page perception engine.

The engine is JavaScript (``engine/js``), run in an isolated world so the page can
neither see it nor break it by patching builtins. Its modules share one closure: they
are concatenated in file-name order into a single script that defines
``globalThis.__pagelens`` in that world.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from pagelens.engine.models import (
    VIEWS,
    CaptureRequest,
    CompactSummary,
    FullSummary,
    PageModel,
    SemanticView,
    SkeletonView,
    View,
)

__all__ = [
    "VIEWS",
    "CaptureRequest",
    "CompactSummary",
    "FullSummary",
    "PageModel",
    "SemanticView",
    "SkeletonView",
    "View",
    "engine_source",
]


@cache
def engine_source() -> str:
    """The engine script: every module in ``js/``, in name order, inside one closure."""
    js = resources.files(__package__) / "js"
    modules = sorted((p for p in js.iterdir() if p.name.endswith(".js")), key=lambda p: p.name)
    body = "\n".join(f"// ---- {p.name}\n{p.read_text(encoding='utf-8')}" for p in modules)
    return f"(() => {{\n'use strict';\n{body}\n}})();"
