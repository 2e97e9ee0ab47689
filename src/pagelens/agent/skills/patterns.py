"""Which pages a skill is for: glob-like patterns matched against a URL's host and path.

A pattern is `host/path` without scheme, port, query or fragment, for example
`github.com/*/issues`. Labels of the host and segments of the path match literally
(case-insensitively), except:

- `*` as a whole label or segment is exactly one of them: `*.github.com` is
  `gist.github.com`, not `github.com` nor `a.b.github.com`; `github.com/*/issues` is
  `github.com/foo/issues`, not `github.com/foo/bar/issues`;
- `**` as a whole label or segment is any number of them, none included:
  `**.wikipedia.org` is `wikipedia.org` and `en.m.wikipedia.org`; `github.com/**` is
  every page of github.com; a host of `**` alone is every host, so `**/**` is every page;
- `*` inside a label or segment is any run of its characters: `issue-*`, `*.example`.

A URL is matched as its lower-case host, without `www.` and port, then its path without
trailing slashes, so `https://www.GitHub.com/a/b/?q=1#top` is `github.com/a/b`, and the
home page `https://github.com/` is `github.com`. Patterns lose a leading `www.` too."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

_WWW = "www."
# A host label or path segment: `**` alone, or characters with single `*`s among them.
_HOST_LABEL = re.compile(r"\*\*|[a-z0-9_-]*(?:\*[a-z0-9_-]+)*\*?")
_PATH_SEGMENT = re.compile(r"\*\*|[^/*\s?#]*(?:\*[^/*\s?#]+)*\*?")


def normalize_pattern(pattern: str) -> str:
    """The pattern as stored and matched: trimmed, lower case, no `www.`, no trailing slash."""
    normal = pattern.strip().lower().rstrip("/")
    return normal.removeprefix(_WWW)


def pattern_problem(pattern: str) -> str | None:
    """Why `pattern` (normalized) is not one, or None when it is."""
    if not pattern:
        return "a pattern cannot be empty"
    if "://" in pattern:
        return f"{pattern!r}: leave the scheme out (write 'example.com/path', not 'https://...')"
    if any(mark in pattern for mark in "?#"):
        return f"{pattern!r}: patterns match the host and path only; leave the query and fragment out"
    host, _, path = pattern.partition("/")
    if ":" in host:
        return f"{pattern!r}: leave the port out"
    if not all(label and _HOST_LABEL.fullmatch(label) for label in host.split(".")):
        return f"{pattern!r}: the host must be labels of letters, digits, '-' and single '*' between dots"
    if path and not all(segment and _PATH_SEGMENT.fullmatch(segment) for segment in path.split("/")):
        return f"{pattern!r}: path segments must be non-empty, without spaces, '**' only alone"
    return None


def url_target(url: str) -> str:
    """What patterns are matched against: `host/path` of `url` (a scheme is optional)."""
    parts = urlsplit(url if "://" in url else f"https://{url}")
    host = (parts.hostname or "").removeprefix(_WWW)
    path = parts.path.rstrip("/")
    return f"{host}{path}"


def matches(pattern: str, url: str) -> bool:
    return _compiled(normalize_pattern(pattern)).fullmatch(url_target(url)) is not None


@lru_cache(maxsize=1024)
def _compiled(pattern: str) -> re.Pattern[str]:
    host, _, path = pattern.partition("/")
    path_regex = "".join(_segment_regex(segment) for segment in path.split("/")) if path else ""
    return re.compile(_host_regex(host.split(".")) + path_regex, re.IGNORECASE)


def _host_regex(labels: list[str]) -> str:
    if labels == ["**"]:
        return r"[^/]+"
    parts: list[str] = []
    for index, label in enumerate(labels):
        first, last = index == 0, index == len(labels) - 1
        if label == "**":
            # It carries its own dots, so that it can stand for no label at all.
            parts.append(r"(?:\.[^./]+)*" if last else (r"" if first else r"\.") + r"(?:[^./]+\.)*")
            continue
        follows_many = index > 0 and labels[index - 1] == "**"
        parts.append(("" if first or follows_many else r"\.") + _wildcards(label, r"[^./]*"))
    return "".join(parts)


def _segment_regex(segment: str) -> str:
    return r"(?:/[^/]+)*" if segment == "**" else "/" + _wildcards(segment, r"[^/]*")


def _wildcards(text: str, star: str) -> str:
    return star.join(re.escape(piece) for piece in text.split("*"))
