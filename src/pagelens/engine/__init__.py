"""The in-page perception engine.

The engine is JavaScript: ES modules in ``engine/js``, bundled by ``npm run build`` into
``engine.bundle.js``, a script whose value is the engine's one entry object. It runs in an
isolated world so the page can neither see it nor break it by patching builtins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from pagelens.engine.models import (
    VIEWS,
    CaptureRequest,
    CompactSummary,
    DomView,
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
    "DomView",
    "View",
    "ENGINE",
    "EntryScript",
]


@dataclass(frozen=True)
class EntryScript:
    """A bundle shipped in a package: a script that evaluates to an entry object."""

    name: str
    package: str
    file: str

    def source(self) -> str:
        return _read(self.package, self.file)


@cache
def _read(package: str, file: str) -> str:
    return (resources.files(package) / file).read_text(encoding="utf-8")


ENGINE = EntryScript("engine", __name__, "engine.bundle.js")
