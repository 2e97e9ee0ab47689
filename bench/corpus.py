"""The evaluation corpus (../shared/corpus): listing pages and serving them on loopback.

Shared by the benchmarks and the acceptance tests.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Route

CORPUS_DIR = Path(os.environ.get("PAGELENS_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))
PAGES_DIR = CORPUS_DIR / "pages"


@dataclass(frozen=True)
class CorpusPage:
    id: str
    kind: str
    expected_type: str | None
    alt_expected_types: tuple[str, ...] = field(default=())
    source_repo: str = ""
    original_url: str | None = None

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

    @property
    def site(self) -> str:
        """The site the page comes from, the unit a split of the corpus keeps whole: the
        registrable domain of the page's address (recorded with the page, in its ground
        truth, or declared by the page as its canonical or og:url), else the repository it
        was taken from (a template's demo pages, a test suite's fixtures)."""
        host = urlsplit(self._address() or "").hostname
        return registrable_domain(host) if host else self.source_repo

    def _address(self) -> str | None:
        if self.original_url:
            return self.original_url
        if (self.dir / "ground-truth.json").exists():
            return self.ground_truth("ground-truth.json").get("url")
        if (self.dir / "expected-login-form.json").exists():
            return self.ground_truth("expected-login-form.json")[0]
        html = (self.dir / "page.html").read_text(encoding="utf-8")
        for tag in _SELF_URL_TAG.findall(html):
            url = _ABSOLUTE_URL.search(tag)
            if url:
                return url.group(1)
        return None


_SELF_URL_TAG = re.compile(r"<(?:link|meta)\b[^>]*(?:rel=[\"']?canonical|property=[\"']?og:url)[^>]*>", re.IGNORECASE)
_ABSOLUTE_URL = re.compile(r"(?:href|content)=[\"']?(https?://[^\"'\s>]+)", re.IGNORECASE)
# Second-level labels under which country domains register names (example.co.uk).
_SECOND_LEVEL = frozenset({"ac", "co", "com", "edu", "go", "gov", "ne", "net", "or", "org"})


def registrable_domain(host: str) -> str:
    """`news.example.co.uk` -> `example.co.uk`: the part of a host its owner registered
    (close enough without the public-suffix list for splitting the corpus by site)."""
    labels = host.lower().strip(".").split(".")
    keep = 3 if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL and len(labels[-1]) == 2 else 2
    return ".".join(labels[-keep:])


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
                source_repo=meta["source_repo"],
                original_url=meta.get("original_url"),
            )
        )
    return tuple(pages)


async def answer_https_from_disk(context: BrowserContext, server_url: str) -> None:
    """Answer https:// requests for the loopback server of `server_url` (any address it
    serves) from the corpus files.

    A few saved pages send themselves to https:// when served over http, as they did at
    their origin (`if (location.protocol != "https:") location = ...`). The loopback server
    speaks http only, so without this they would end on Chromium's error document. Only
    these requests make the trip through Python."""

    async def from_disk(route: Route) -> None:
        relative = unquote(urlsplit(route.request.url).path).lstrip("/")
        path = (PAGES_DIR / relative).resolve()
        if path.is_file() and path.is_relative_to(PAGES_DIR.resolve()):
            await route.fulfill(path=path)
        else:
            await route.fulfill(status=404, body="not in the corpus")

    await context.route(f"https://{urlsplit(server_url).netloc}/**", from_disk)


def pages_of_kind(*kinds: str) -> list[CorpusPage]:
    return [p for p in corpus_pages() if p.kind in kinds]
