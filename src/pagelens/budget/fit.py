"""Fitting a view into a token budget (retrieval over the page's own parts).

- No query, and the view fits: it comes back as it is.
- A query: the chunks whose text contains it (case-insensitive, as `query` always did)
  are kept; when none does (an agent's own words: "click the Export report button"),
  the chunks the ranker finds relevant. When the kept chunks do not fit, they are
  paginated best first (ranked), and `page` picks one. Where the caller gives a
  control's context (the heading it sits under), the ranking reads it too, for less than
  the control's own text ("add the Summit Pro to the cart" tells two "Add to cart"
  buttons apart); containing the query is a matter of the control's own text.
- No query and too big: pages in the page's order.

Kept chunks are shown in the page's order whatever chose them. A reduced view says so:
`dom_filtered`, `filter_reason`, `original_node_count` (chunks before), `token_reduction`
(percent of the view's tokens left out), and `page`/`pages` when there are several.
Everything here is CPU work: analyze runs it in a worker thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pagelens.budget.layouts import LAYOUTS, ListLayout, TextLayout, compact_json
from pagelens.budget.paginate import pack
from pagelens.budget.ranking import BM25Ranker, Ranker
from pagelens.errors import ErrorCode, PagelensError
from pagelens.tokens import count_tokens

DEFAULT_MAX_TOKENS = 4_000
_REPACK_TRIES = 3  # the per-chunk estimate is an upper bound in practice; this is the guard
_REPORT_TOKENS = 80  # query, dom_filtered, filter_reason... at their longest
CONTEXT_WEIGHT = 0.2  # of a chunk's context's score against its own text's


class PageOutOfRangeError(PagelensError):
    code = ErrorCode.PAGE_OUT_OF_RANGE


@dataclass(frozen=True)
class FitRequest:
    max_tokens: int = DEFAULT_MAX_TOKENS
    query: str | None = None
    page: int = 1


def fit_view(
    what: str,
    view: dict[str, Any],
    request: FitRequest,
    ranker: Ranker | None = None,
    extra: Mapping[str, Any] | None = None,
    contexts: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """`view` (analyze's `what`) cut to `request`; `extra` are envelope fields the caller
    adds (the hash), counted in the budget; `contexts`, by element id, what the ranker
    reads beside an element's own text. `view` itself is left as it was."""
    extra = dict(extra or {})
    layout = LAYOUTS.get(what)
    if layout is None or not layout.applies(view):
        _check_page(request.page, 1, what)
        return {**view, **extra}
    fitting = _Fitting(what, view, layout, request, ranker or BM25Ranker(), extra)
    return fitting.run((request.query or "").strip(), contexts or {})


# Token counts of chunks, kept across calls: an agent asks about the same page again and
# again (another query, the next page), and most chunks have not changed.
_chunk_tokens = lru_cache(maxsize=100_000)(count_tokens)


class _Fitting:
    """One view being fitted: its chunks, what each costs, and the choice of what to show."""

    def __init__(
        self,
        what: str,
        view: dict[str, Any],
        layout: ListLayout | TextLayout,
        request: FitRequest,
        ranker: Ranker,
        extra: dict[str, Any],
    ) -> None:
        self.what, self.view, self.layout, self.request = what, view, layout, request
        self.ranker, self.extra = ranker, extra
        self.chunks = layout.chunks(view)
        # Each chunk's tokens plus its separator: summed with the envelope's, an upper bound
        # of the JSON's tokens (joining text never makes more tokens in practice; the
        # finished page is counted again anyway).
        self.costs = [_chunk_tokens(layout.footprint(view, chunk)) + 1 for chunk in self.chunks]
        self.envelope = count_tokens(compact_json({**layout.join(view, []), **extra}))
        self.original_tokens = self.envelope + sum(self.costs)

    def run(self, query: str, contexts: Mapping[str, str]) -> dict[str, Any]:
        if not query:
            if self._fits(range(len(self.chunks)), self.view):
                _check_page(self.request.page, 1, self.what)
                return {**self.view, **self.extra}
            return self._paginate(list(range(len(self.chunks))), "page")
        texts = [self.layout.text(chunk) for chunk in self.chunks]
        headings = [contexts.get(self.layout.element_id(chunk) or "", "") for chunk in self.chunks]
        wanted = query.casefold()
        matches = [i for i, text in enumerate(texts) if wanted in text.casefold()]
        if matches:
            if self._fits(matches):
                _check_page(self.request.page, 1, self.what)
                return self._shown(matches, "match", 1, 1, query)
            return self._paginate(self._ranked(query, texts, headings, among=matches), "match", query)
        relevant = self._ranked(query, texts, headings, among=None)
        if self._fits(relevant):
            _check_page(self.request.page, 1, self.what)
            return self._shown(relevant, "relevance", 1, 1, query)
        return self._paginate(relevant, "relevance", query)

    def _fits(self, kept: Sequence[int], whole: dict[str, Any] | None = None) -> bool:
        """Whether the chunks at `kept` fit with the envelope (and, when the view is cut, a
        report and the query); the whole view is counted exactly only when its upper bound
        is close to the budget."""
        report = _REPORT_TOKENS + count_tokens(self.request.query or "")
        budget = self.request.max_tokens - (0 if whole is not None else report)
        bound = self.envelope + sum(self.costs[i] for i in kept)
        if bound <= budget:
            return True
        if whole is None or bound > budget * 1.1:
            return False
        return count_tokens(compact_json({**whole, **self.extra})) <= budget

    def _ranked(self, query: str, texts: Sequence[str], contexts: Sequence[str], among: list[int] | None) -> list[int]:
        """Positions best first (ties in page order); without `among`, only those with a
        positive score."""
        scores = relevance(self.ranker, query, texts, contexts)
        candidates = among if among is not None else [i for i, score in enumerate(scores) if score > 0]
        return sorted(candidates, key=lambda i: (-scores[i], i))

    def _paginate(self, order: list[int], how: str, query: str | None = None) -> dict[str, Any]:
        budget = self.request.max_tokens
        costs = [self.costs[i] for i in order]
        # The envelope with the report at its widest: what every page carries besides chunks.
        envelope = self._shown([], how, 99_999, 99_999, query, reduction=99.9)
        room = budget - count_tokens(compact_json(envelope))
        for _ in range(_REPACK_TRIES):
            pages = pack(costs, room) or [range(0)]  # no chunks at all: one empty page
            _check_page(self.request.page, len(pages), self.what)
            positions = pages[self.request.page - 1]
            shown = self._shown([order[p] for p in positions], how, self.request.page, len(pages), query)
            used = count_tokens(compact_json(shown))
            if used <= budget or len(positions) == 1:
                return shown
            room -= used - budget
        return shown

    def _shown(
        self,
        kept: list[int],
        how: str,
        page: int,
        pages: int,
        query: str | None,
        reduction: float | None = None,
    ) -> dict[str, Any]:
        """The view holding the chunks at `kept` (in page order) with its report."""
        out = self.layout.join(self.view, [self.chunks[i] for i in sorted(kept)])
        if query:
            out["query"] = query
        total = len(self.chunks)
        if len(kept) < total or pages > 1:
            out["dom_filtered"] = True
            out["filter_reason"] = self._reason(how, len(kept), page, pages)
            out["original_node_count"] = total
            out["token_reduction"] = 0.0 if reduction is None else reduction
            if pages > 1:
                out["page"], out["pages"] = page, pages
        out.update(self.extra)
        if out.get("dom_filtered") and reduction is None:
            used = count_tokens(compact_json(out))
            out["token_reduction"] = round(max(0.0, 100 * (1 - used / self.original_tokens)), 1)
        return out

    def _reason(self, how: str, kept: int, page: int, pages: int) -> str:
        unit, total, budget = self.layout.unit, len(self.chunks), self.request.max_tokens
        paged = f"page {page} of {pages}" + (f" (page={page + 1} for more)" if page < pages else "")
        if how == "page":
            return f"the view is about {self.original_tokens:,} tokens, over max_tokens {budget:,}: {paged}"
        if how == "match":
            if pages == 1:
                return f"kept the {kept} of {total} {unit} that contain the query"
            return f"the {unit} that contain the query exceed max_tokens {budget:,}: {paged}, best matches first"
        found = f"no {unit[:-1]} contains the query as written: kept the {unit} {self.ranker.name} ranks relevant"
        return found if pages == 1 else f"{found}, best first, {paged}"


def relevance(ranker: Ranker, query: str, texts: Sequence[str], contexts: Sequence[str] = ()) -> list[float]:
    """How relevant each text is to `query`; the index covers every text, so word rarity
    is the page's. A text's context (its heading) counts for less than the text itself: it
    tells apart chunks of one label, and finds those under a heading the query names,
    without outranking a chunk whose own text says what was asked."""
    scores = ranker.scores(query, texts)
    # Many chunks share a heading: each distinct one is ranked once (an embedding ranker
    # would otherwise embed a 10k-control page's 300 headings 10,000 times).
    distinct = list(dict.fromkeys(context for context in contexts if context))
    if not distinct:
        return scores
    by_context = dict(zip(distinct, ranker.scores(query, distinct), strict=True))
    return [own + CONTEXT_WEIGHT * by_context.get(context, 0.0) for own, context in zip(scores, contexts, strict=True)]


def _check_page(page: int, pages: int, what: str) -> None:
    if page > pages:
        last = "it has 1 page" if pages == 1 else f"the last is {pages}"
        raise PageOutOfRangeError(f"page {page} of the {what} view does not exist: {last}")
