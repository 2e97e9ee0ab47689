"""What a skill's library may be: JavaScript loaded into the page before `browserjs()`
runs, of a bounded size, that never navigates (the agent navigates with `navigate()`;
the repl refuses navigation at run time too, this catches it when the skill is saved)."""

from __future__ import annotations

import re

MAX_LIBRARY_BYTES = 100_000

# The page's own `location` and `history` (bare or through a global), not a property of
# that name on some object (`item.location = ...` is data, not navigation).
_GLOBAL = r"(?:(?<![\w$.])|\b(?:window|document|self|top|parent|globalThis)\s*\.\s*)"
# The ways a script leaves or replaces the page, as written in source.
_NAVIGATION = re.compile(
    "|".join(
        [
            _GLOBAL + r"location\s*(?:\.\s*href\s*)?=(?!=)",
            _GLOBAL + r"location\s*\.\s*(?:assign|replace|reload)\s*\(",
            _GLOBAL + r"history\s*\.\s*(?:pushState|replaceState|back|forward|go)\s*\(",
            r"\bwindow\s*\.\s*open\s*\(",
        ]
    )
)


def library_problem(source: str) -> str | None:
    """Why `source` cannot be a skill's library, or None when it can."""
    size = len(source.encode("utf-8"))
    if size > MAX_LIBRARY_BYTES:
        return f"the library is {size:,} bytes; the limit is {MAX_LIBRARY_BYTES:,}"
    found = _NAVIGATION.search(source)
    if found:
        line = source.count("\n", 0, found.start()) + 1
        return (
            f"the library navigates ({found.group(0)!r} on line {line}); skill libraries run inside "
            "browserjs() and must not navigate: return the URL and let the agent call navigate()"
        )
    return None
