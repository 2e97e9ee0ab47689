"""The contracts of extraction: what `extract` returns, and the extract-only form of the
`summarize` tool, whose parameter names are camelCase because agents learn
them from that contract."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ExtractFormat = Literal["markdown", "text", "html"]
# How the content was chosen (see consensus.py): readability-lxml's article trimmed to
# what trafilatura agrees with ("consensus"), one library's output alone when the other
# found next to nothing, the page's readable text when both found next to none of it
# ("page": a listing, a search page), or nothing at all ("empty").
Strategy = Literal["consensus", "readability", "trafilatura", "page", "empty"]

DEFAULT_MAX_CHARACTERS = 120_000


class Pruned(BaseModel):
    """What the live-page pre-pass left out before the libraries ran, by reason."""

    hidden: int = 0
    landmark: int = 0
    overlay: int = 0


class Extraction(BaseModel):
    """The main content of a page, in `format`, with its metadata (title, byline, site,
    date, language, word count, truncation, strategy)."""

    url: str
    format: ExtractFormat
    content: str
    title: str | None = None
    byline: str | None = None
    site_name: str | None = None
    published: str | None = None
    language: str | None = None
    word_count: int = Field(0, description="words in the whole extracted text, before truncation")
    characters: int = Field(0, description="characters of `content` as returned")
    truncated: bool = False
    strategy: Strategy
    pruned: Pruned = Field(default_factory=Pruned)


class SummarizeRequest(BaseModel):
    """The `summarize` tool's parameters. Only the extract-only form runs here:
    a summary needs a language model, which pagelens does not have. Parameters of the
    summary form (model, length, prompt, ...) are accepted so a request written for the
    spec validates, and refused when they would have to be used."""

    model_config = ConfigDict(extra="forbid")

    url: str
    extractOnly: bool = False  # noqa: N815 - the contract's names
    format: ExtractFormat = "text"
    markdownMode: Literal["readability", "auto"] = "readability"  # noqa: N815
    model: str | None = None
    length: str | None = None
    language: str | None = None
    prompt: str | None = None
    timeout: str | float | None = Field(None, description='seconds, or a duration such as "90s" or "2m"')
    maxOutputTokens: str | int | None = None  # noqa: N815
    noCache: bool = False  # noqa: N815
    firecrawl: str | None = None
    preprocess: str | None = None
    youtube: str | None = None
    videoMode: str | None = None  # noqa: N815
    timestamps: bool = False
    maxCharacters: int = Field(DEFAULT_MAX_CHARACTERS, ge=1, le=10_000_000)  # noqa: N815


class SummarizeResult(BaseModel):
    """The extract-only result: `output` is the content; `details` carries it again
    with the metadata, under the contract's camelCase names."""

    output: str
    details: dict[str, Any]

    @classmethod
    def from_extraction(cls, extraction: Extraction) -> SummarizeResult:
        return cls(
            output=extraction.content,
            details={
                "content": extraction.content,
                "url": extraction.url,
                "title": extraction.title,
                "byline": extraction.byline,
                "siteName": extraction.site_name,
                "publishedTime": extraction.published,
                "language": extraction.language,
                "wordCount": extraction.word_count,
                "characters": extraction.characters,
                "truncated": extraction.truncated,
                "format": extraction.format,
                "markdownMode": "readability",
                "strategy": extraction.strategy,
                "source": "url",  # read from the URL, not from a page already open
            },
        )

    def for_model(self) -> dict[str, Any]:
        """The result as a tool hands it to a model: the content once, in `output` (the
        contract's copy in `details` would double its tokens)."""
        data = self.model_dump(mode="json")
        data["details"].pop("content", None)
        return data
