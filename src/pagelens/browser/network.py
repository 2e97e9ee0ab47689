"""Network policy: which hosts a page may reach. Everything else is aborted at once."""

from __future__ import annotations

import contextlib
import ipaddress
from collections import deque
from collections.abc import Iterable
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Route, WebSocketRoute

LOOPBACK_HOSTS: tuple[str, ...] = ("127.0.0.1", "localhost", "::1", "[::1]")


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

    async def handle(self, route: Route) -> None:
        # The page may close while a request is being decided: nothing left to answer.
        with contextlib.suppress(PlaywrightError):
            if self.allows(route.request.url):
                await route.continue_()
            else:
                self.blocked.append(route.request.url)
                await route.abort("blockedbyclient")

    async def refuse_web_socket(self, socket: WebSocketRoute) -> None:
        """For sockets :meth:`refuses`: closed without ever connecting (1008: policy)."""
        self.blocked.append(socket.url)
        with contextlib.suppress(PlaywrightError):
            await socket.close(code=1008, reason="blocked by the pagelens network policy")


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
