"""Root domains and session titles. A session belongs to the site a user is on, not to one
host of it: `mail.google.com` and `www.google.com` are both `google.com`, and
`a.b.example.co.uk` is `example.co.uk` (docs/store.md)."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

import tldextract

# The Public Suffix List snapshot tldextract ships, and nothing else: no download at run
# time (a daemon may have no network, and a list that changes under it would move
# sessions between domains) and no cache file written to the user's home. Its private
# section counts too, as it does for a browser's "site": `alice.github.io` and
# `bob.github.io` are two sites, not one `github.io`.
_EXTRACT = tldextract.TLDExtract(
    suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True, include_psl_private_domains=True
)

# A URL whose scheme has no host (`about:blank`, `data:...`, `javascript:...`), told apart
# from a bare `host:port` by what follows the colon.
_HOSTLESS = re.compile(r"^[a-z][a-z0-9+.-]*:(?!\d)", re.IGNORECASE)

TITLE_TASK_LIMIT = 80  # characters of the task a title keeps: a tab strip or a list shows no more


def host_of(url_or_host: str | None) -> str | None:
    """The host of a URL or of a bare `host[:port]`, lower case, without its port, the
    brackets of an IPv6 literal or a trailing dot. None when there is none (`about:blank`,
    `file:///x`, an empty string)."""
    text = (url_or_host or "").strip()
    address = _ip(text)
    if address is not None:
        return address.compressed
    if "://" not in text:
        if _HOSTLESS.match(text):
            return None
        text = "//" + text
    try:
        host = urlsplit(text).hostname or ""
    except ValueError:  # a broken IPv6 literal ("[::1")
        return None
    return host.rstrip(".") or None


def root_domain(url_or_host: str | None) -> str | None:
    """The registrable domain of a URL or host: the label under its public suffix
    (`https://a.b.example.co.uk/x` → `example.co.uk`). An IP address is its own root, in
    its compressed form (`http://[::1]:8080/` → `::1`); so is a host under no public suffix
    (`localhost`, an intranet name) and a host that is a public suffix itself (`co.uk`)."""
    host = host_of(url_or_host)
    if host is None or _ip(host) is not None:
        return host
    return _EXTRACT.extract_str(host).top_domain_under_public_suffix or host


def session_title(domain: str | None, task: str) -> str:
    """`{domain}: {task}` (docs/server.md). The task is put on one line and, past
    TITLE_TASK_LIMIT characters, cut at a word with an ellipsis; with no domain (a
    chat about no page) the title is the task alone."""
    task = " ".join(task.split())
    if len(task) > TITLE_TASK_LIMIT:
        head = task[: TITLE_TASK_LIMIT + 1]
        cut = head.rsplit(" ", 1)[0] if " " in head else head[:TITLE_TASK_LIMIT]
        task = cut.rstrip(" ,;:.-") + "…"
    if not domain:
        return task
    return f"{domain}: {task}" if task else domain


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        return None
