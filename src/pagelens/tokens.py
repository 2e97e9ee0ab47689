"""Offline token counting with OpenAI's o200k_base (shipped inside `bpe-openai`)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from pydantic import BaseModel


@cache
def _encoding():  # loading the tables takes a moment: do it once, on first use
    import bpe_openai

    return bpe_openai.get_encoding("o200k_base")


# bpe_openai refuses more than 200,000 tokens in one call, and a character is at most four
# bytes, so four tokens: long texts are counted in pieces this long (each cut may add a token).
_PIECE_CHARS = 50_000


def count_tokens(text: str) -> int:
    """Number of o200k_base tokens in `text` (exact up to 50,000 characters; beyond, it
    may count one extra token per 50,000 characters). A special token's text (a page
    may show `<|endoftext|>`) counts as the ordinary text it is."""
    encoding = _encoding()
    if len(text) <= _PIECE_CHARS:
        return len(encoding.encode_ordinary(text))
    return sum(len(encoding.encode_ordinary(text[i : i + _PIECE_CHARS])) for i in range(0, len(text), _PIECE_CHARS))


def to_json(value: BaseModel | Any) -> str:
    """The compact JSON an agent would receive (no spaces, optional fields left out)."""
    if isinstance(value, BaseModel):
        return value.model_dump_json(exclude_none=True)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
