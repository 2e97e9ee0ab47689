"""Views too big for a prompt (docs/views.md, "Pages too big for a prompt"): content
hashes for `if_changed_since`, and fitting a view into a token budget, by relevance to a
query (DOM RAG) or by pages.

View hashes live with the views (pagelens.engine.hashing) and are re-exported here.
Modules: layouts (views as chunks and back), ranking (BM25 and
the optional embedding ranker), paginate (chunks into pages), fit (the whole policy).
"""

from pagelens.budget.fit import DEFAULT_MAX_TOKENS, FitRequest, PageOutOfRangeError, fit_view
from pagelens.budget.ranking import RANKERS, Ranker, get_ranker
from pagelens.engine.hashing import Unchanged, check_hash, view_hash

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "RANKERS",
    "FitRequest",
    "PageOutOfRangeError",
    "Ranker",
    "Unchanged",
    "check_hash",
    "fit_view",
    "get_ranker",
    "view_hash",
]
