"""The role table (roles.json), shared with the engine: each control role's abbreviation
in the semantic view and the words an agent uses for it ("the search field"). A file
input is a button with an abbreviation of its own. The table also holds the states the
semantic view writes in `s`, in their order."""

from __future__ import annotations

import json
from importlib import resources

_TABLE = json.loads((resources.files(__package__) / "roles.json").read_text(encoding="utf-8"))

# role -> abbreviation ("button" -> "btn")
ROLE_SHORT: dict[str, str] = {role: short for role, (short, _) in _TABLE["roles"].items()}
FILE_INPUT_SHORT: str = _TABLE["fileInput"][0]
SEMANTIC_STATES: tuple[str, ...] = tuple(_TABLE["states"])
# abbreviation -> role, for ids and roles an agent copied from the semantic view
SHORT_ROLE: dict[str, str] = {short: role for role, short in ROLE_SHORT.items()} | {FILE_INPUT_SHORT: "button"}


def _words(*parts: str) -> str:
    """The words of `parts` once each, in order."""
    return " ".join(dict.fromkeys(" ".join(parts).split()))


# The words for a role, under the role and under its abbreviation (which also says the
# role's own name, since the abbreviation does not).
ROLE_WORDS: dict[str, str] = {
    **{role: words for role, (_, words) in _TABLE["roles"].items()},
    **{short: _words(role, words) for role, (short, words) in _TABLE["roles"].items()},
    FILE_INPUT_SHORT: _TABLE["fileInput"][1],
}
