"""Network policy: which hosts a page may reach. Everything else is aborted at once."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from playwright.async_api import Route

LOOPBACK_HOSTS: tuple[str, ...] = ("127.0.0.1", "localhost", "::1", "[::1]")


class NetworkPolicy:
    """Allow-list of hosts. ``None`` allows everything; ``*.example.com`` matches
    subdomains; ``127.*`` style prefixes are not supported, list hosts explicitly."""

    def __init__(self, allowed_hosts: Iterable[str] | None) -> None:
        self.allowed_hosts = None if allowed_hosts is None else tuple(h.lower() for h in allowed_hosts)

    @classmethod
    def loopback_only(cls) -> NetworkPolicy:
        return cls(LOOPBACK_HOSTS)

    @property
    def restricts(self) -> bool:
        return self.allowed_hosts is not None

    def allows(self, url: str) -> bool:
        if self.allowed_hosts is None:
            return True
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "ws", "wss"):
            return True  # data:, blob:, about: never leave the machine
        host = (parts.hostname or "").lower()
        for allowed in self.allowed_hosts:
            allowed = allowed.strip("[]")
            if host == allowed or (allowed.startswith("*.") and host.endswith(allowed[1:])):
                return True
        return False

    async def handle(self, route: Route) -> None:
        if self.allows(route.request.url):
            await route.continue_()
        else:
            await route.abort("blockedbyclient")
