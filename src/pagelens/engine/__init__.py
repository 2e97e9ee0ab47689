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
    """A bundle shipped in a package: a script that evaluates to an entry object, and
    the method of it (if any) to call once when it is loaded into an isolated world."""

    name: str
    package: str
    file: str
    on_load: str | None = None

    def source(self) -> str:
        return _read(self.package, self.file)

    def world_source(self) -> str:
        """The script an isolated world evaluates: the entry object, `on_load` called on it
        once."""
        source = self.source()
        if self.on_load is None:
            return source
        return f"((entry) => entry && (entry.{self.on_load}(), entry))(\n{source}\n)"


@cache
def _read(package: str, file: str) -> str:
    return (resources.files(package) / file).read_text(encoding="utf-8")


# In an isolated world the engine keeps the log of the document's changes that the
# semantic view reports (docs/views.md#recent-events); a one-off run in the page's own
# world (analyze world="main") leaves no observer behind.
ENGINE = EntryScript("engine", __name__, "engine.bundle.js", on_load="watchChangesFromLoad")
