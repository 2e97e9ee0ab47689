"""Words, the unit extraction measures text in: runs of letters and digits, and each
Han, kana or Hangul character on its own (those scripts do not separate words with
spaces, so a Chinese paragraph would otherwise count as one word)."""

from __future__ import annotations

import re

_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+")


def words(text: str) -> list[str]:
    """The words of `text`, lower-cased."""
    return _WORD.findall(text.lower())


def count_words(text: str) -> int:
    return sum(1 for _ in _WORD.finditer(text))
