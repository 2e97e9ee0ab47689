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


def count_tokens(text: str) -> int:
    """Number of o200k_base tokens in `text`."""
    return len(_encoding().encode(text))


def to_json(value: BaseModel | Any) -> str:
    """The compact JSON an agent would receive (no spaces, optional fields left out)."""
    if isinstance(value, BaseModel):
        return value.model_dump_json(exclude_none=True)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
