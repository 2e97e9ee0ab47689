"""Network policy: which hosts a page may reach. Everything else is aborted at once."""

from __future__ import annotations

import contextlib
import ipaddress
import re
from collections import deque
from collections.abc import Iterable
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Route, WebSocketRoute

LOOPBACK_HOSTS: tuple[str, ...] = ("127.0.0.1", "localhost", "::1", "[::1]")
# What a refused request fails with: Playwright's abort reason, and Chromium's net error for it.
_ABORT_REASON = "blockedbyclient"
BLOCKED_NET_ERROR = "ERR_BLOCKED_BY_CLIENT"


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, IPv6 bracketed or not) is this machine only."""
    host = host.strip("[]")
    if host in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class NetworkPolicy:
    """Allow-list of hosts. ``None`` allows everything; ``*.example.com`` matches
    subdomains; ``127.*`` style prefixes are not supported, list hosts explicitly."""

    def __init__(self, allowed_hosts: Iterable[str] | None) -> None:
        self.allowed_hosts = None if allowed_hosts is None else tuple(h.lower() for h in allowed_hosts)
        # The most recent refusals, newest last: what a page tried to reach and could not.
        self.blocked: deque[str] = deque(maxlen=_BLOCKED_KEPT)

    @classmethod
    def loopback_only(cls) -> NetworkPolicy:
        return cls(LOOPBACK_HOSTS)

    @property
    def restricts(self) -> bool:
        return self.allowed_hosts is not None

    def allows(self, url: str) -> bool:
        if self.allowed_hosts is None:
            return True
        try:
            parts = urlsplit(url)
            host = (parts.hostname or "").lower()
        except ValueError:  # e.g. an unclosed IPv6 bracket: refused rather than guessed
            return False
        if parts.scheme in _LOCAL_SCHEMES:
            return True  # never leave the machine
        for allowed in self.allowed_hosts:
            allowed = allowed.strip("[]")
            if host == allowed or (allowed.startswith("*.") and host.endswith(allowed[1:])):
                return True
        return False

    def refuses(self, url: str) -> bool:
        return not self.allows(url)

    @property
    def screened(self) -> re.Pattern[str]:
        """The addresses whose requests `handle` decides on: all but those plainly of an
        allowed host (http, https, ws or wss, the host as Chromium writes it, a port at
        most), which the driver matches and lets through itself: a round trip through
        Python for each request made routing cost a page of 5 requests 17 ms of its load
        instead of 8, pages of 60 to 130 requests 70 to 90 ms instead of 50 to 70. Each
        address this lets through is one `allows` allows: anything unusual (credentials,
        a host in capitals, a trailing dot) is screened, and decided as before."""
        plain = dict.fromkeys(_host_pattern(host) for host in self.allowed_hosts or ())
        hosts = "|".join(pattern for pattern in plain if pattern)
        if not hosts:
            return re.compile("")  # every address
        return re.compile(rf"^(?!(?:https?|wss?)://(?:{hosts})(?::[0-9]+)?(?:[/?#]|$))")

    async def handle(self, route: Route) -> None:
        # The page may close while a request is being decided: nothing left to answer.
        with contextlib.suppress(PlaywrightError):
            if self.allows(route.request.url):
                await route.continue_()
            else:
                self.blocked.append(route.request.url)
                await route.abort(_ABORT_REASON)

    async def refuse_web_socket(self, socket: WebSocketRoute) -> None:
        """For sockets :meth:`refuses`: closed without ever connecting (1008: policy)."""
        self.blocked.append(socket.url)
        with contextlib.suppress(PlaywrightError):
            await socket.close(code=1008, reason="blocked by the pagelens network policy")


def _host_pattern(host: str) -> str:
    """A regular expression (in the syntax Python and JavaScript share) for `host` as it
    appears in a URL Chromium normalised, or '' for one that cannot be written plainly."""
    host = host.lower()
    if host.startswith("*."):
        name = host[2:]
        return rf"[a-z0-9-]+(?:\.[a-z0-9-]+)*\.{_escaped(name)}" if _PLAIN_NAME.fullmatch(name) else ""
    if ":" in host:  # IPv6, bracketed in a URL
        address = host.strip("[]")
        return rf"\[{address}\]" if _PLAIN_IPV6.fullmatch(address) else ""
    return _escaped(host) if _PLAIN_NAME.fullmatch(host) else ""


def _escaped(name: str) -> str:
    return name.replace(".", r"\.")


_PLAIN_NAME = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*")
_PLAIN_IPV6 = re.compile(r"[0-9a-f:]+")
_BLOCKED_KEPT = 200
_LOCAL_SCHEMES = frozenset({"data", "blob", "about", "javascript", "file", "filesystem", "chrome-error"})


def host_resolver_rules(allowed_hosts: Iterable[str]) -> str:
    """Chromium's ``--host-resolver-rules`` that make every host but the allowed ones
    unresolvable. Request interception cannot see what the browser does on its own
    (preconnects, favicons, WebSockets); a host that does not resolve stops all of it,
    IP literals included."""
    rules = ["MAP * ~NOTFOUND"]
    for host in allowed_hosts:
        host = host.strip().strip("[]").lower()
        if host:
            rules.append(f"EXCLUDE [{host}]" if ":" in host else f"EXCLUDE {host}")
    return ", ".join(dict.fromkeys(rules))
