"""The password words (sensitive.json), shared with the engine, which reads them in a
field's name, label and placeholder: here they say which parameters of an address carry
a password. A text is read in its words as the engine reads a field's (camelCase and
punctuation split, accents dropped): "user_pass" and "Lösenord" both say password."""

from __future__ import annotations

import json
import re
import unicodedata
from importlib import resources

_WORDS = json.loads((resources.files(__package__) / "sensitive.json").read_text(encoding="utf-8"))
_PASSWORD_HINT = re.compile("|".join(_WORDS["passwordHints"]), re.IGNORECASE)


def words(text: str) -> str:
    """`text` as lower-case words separated by single spaces."""
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return re.sub(r"[\W_]+", " ", text.lower()).strip()


def says_password(text: str) -> bool:
    return _PASSWORD_HINT.search(words(text)) is not None
