"""The evaluation corpus (../shared/corpus): listing pages and serving them on loopback.

Shared by the benchmarks and the acceptance tests.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

CORPUS_DIR = Path(os.environ.get("PAGELENS_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))
PAGES_DIR = CORPUS_DIR / "pages"


@dataclass(frozen=True)
class CorpusPage:
    id: str
    kind: str
    expected_type: str | None
    alt_expected_types: tuple[str, ...] = field(default=())

    @property
    def dir(self) -> Path:
        return PAGES_DIR / self.id

    def path(self, base_url: str) -> str:
        """The page's URL under a server of PAGES_DIR at `base_url`."""
        return f"{base_url}{self.id}/page.html"

    def accepts(self, page_type: str) -> bool:
        return page_type == self.expected_type or page_type in self.alt_expected_types

    def ground_truth(self, name: str) -> Any:
        return json.loads((self.dir / name).read_text(encoding="utf-8"))


def corpus_available() -> bool:
    return (CORPUS_DIR / "manifest.json").is_file()


MISSING_CORPUS = (
    f"the page corpus is not at {CORPUS_DIR}: put it at ../shared/corpus beside the repository, "
    "or set PAGELENS_CORPUS to its folder"
)


@cache
def corpus_pages() -> tuple[CorpusPage, ...]:
    """Every page of the corpus (none when it is missing: see MISSING_CORPUS)."""
    if not corpus_available():
        return ()
    pages = []
    for entry in json.loads((CORPUS_DIR / "manifest.json").read_text(encoding="utf-8"))["entries"]:
        meta = json.loads((PAGES_DIR / entry["id"] / "meta.json").read_text(encoding="utf-8"))
        pages.append(
            CorpusPage(
                id=entry["id"],
                kind=entry["kind"],
                expected_type=meta.get("expected_type"),
                alt_expected_types=tuple(meta.get("alt_expected_types") or ()),
            )
        )
    return tuple(pages)


def pages_of_kind(*kinds: str) -> list[CorpusPage]:
    return [p for p in corpus_pages() if p.kind in kinds]
