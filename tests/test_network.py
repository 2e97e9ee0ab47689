"""Network policy: with an allow-list, everything else is refused at once (the page does
not wait for it) and reported; nothing reaches a refused host, not even the browser's
own preconnects, favicons or WebSockets."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

import pagelens
from pagelens.browser.network import LOOPBACK_HOSTS, NetworkPolicy, host_resolver_rules
from pagelens.errors import InvalidRequestError, NavigationError
from tests.network_support import ConnectionCounter


@pytest.fixture
def counter() -> Iterator[ConnectionCounter]:
    listener = ConnectionCounter()
    yield listener
    listener.close()


async def test_external_resources_are_refused_at_once_and_reported(
    browser: pagelens.Browser, page: pagelens.Page, fixtures_url: str
) -> None:
    await page.goto(f"{fixtures_url}robustness/empty.html")  # a warm renderer: time the policy only
    issued: dict[str, float] = {}
    failed: dict[str, str | None] = {}
    waited: dict[str, float] = {}

    def on_request(request: Any) -> None:
        issued[request.url] = time.monotonic()

    def on_failed(request: Any) -> None:
        failed[request.url] = request.failure
        waited[request.url] = time.monotonic() - issued[request.url]

    page.playwright_page.on("request", on_request)
    page.playwright_page.on("requestfailed", on_failed)
    started = time.monotonic()
    await page.goto(f"{fixtures_url}robustness/external.html")  # waits for "load"
    elapsed = time.monotonic() - started
    external = {
        "http://example.com/x.js",
        "http://example.com/style.css",
        "http://example.com/x.png",
        "https://cdn.example.net/y.png",
    }
    # A blocking <script src> and a stylesheet hold "load" back until they settle: each
    # is refused the moment it is issued, and the page is done in about a second even
    # on a busy machine (an unanswered request would hold it for the 30 s limit).
    assert max(waited.values()) < 0.5, waited
    assert elapsed < 2.0, elapsed
    assert set(failed) == external
    assert all(reason and "ERR_BLOCKED_BY_CLIENT" in reason for reason in failed.values())
    assert external <= set(browser.policy.blocked)
    # The page itself works: its own control is there.
    model = await page.interaction_model()
    assert [c.name for c in model.controls] == ["Still usable"]


async def test_navigating_to_a_refused_host(page: pagelens.Page) -> None:
    started = time.monotonic()
    with pytest.raises(NavigationError) as caught:
        await page.goto("http://example.com/")
    assert caught.value.code == "err_blocked_by_client"
    assert time.monotonic() - started < 2.0


async def test_nothing_reaches_a_refused_host(
    page: pagelens.Page, fixtures_url: str, counter: ConnectionCounter
) -> None:
    """Preconnect, dns-prefetch, icon, prefetch, preload, stylesheet, WebSocket,
    EventSource, fetch, beacon, image, iframe and a link: "localhost" is refused here, and
    the listener behind it must see no connection at all."""
    target = f"http://localhost:{counter.port}"  # never answers: do not wait for "load"
    leaky = f"{fixtures_url}robustness/leaks.html?target={target}"
    async with pagelens.launch(allowed_hosts=("127.0.0.1",)) as browser:
        refused = await browser.new_page()
        await refused.goto(leaky, wait_until="commit")
        await refused.playwright_page.wait_for_load_state("load")  # all refused: it loads
        await refused.snapshot("semantic")
        await asyncio.sleep(1.0)  # preconnects and sockets are asynchronous
        assert counter.connections == 0
        assert any("localhost" in url for url in browser.policy.blocked)
    # The same page where localhost is allowed (the session's browser) does connect: the
    # check can fail.
    await page.goto(leaky, wait_until="commit")
    await asyncio.sleep(1.0)
    assert counter.connections > 0


def test_policy_decisions() -> None:
    policy = NetworkPolicy(("127.0.0.1", "localhost", "[::1]", "*.example.com"))
    allowed = [
        "http://127.0.0.1:8000/x",
        "https://localhost/",
        "http://LOCALHOST:1/",
        "http://[::1]:9/",
        "https://a.example.com/",
        "wss://deep.sub.example.com/socket",
        "http://user:pw@127.0.0.1/",  # credentials do not change the host
        "data:text/plain,x",
        "blob:http://127.0.0.1/uuid",
        "about:blank",
    ]
    refused = [
        "http://example.com/",  # the wildcard is for subdomains
        "http://badexample.com/",
        "http://127.0.0.1.evil.test/",
        "http://evil.test/?u=http://127.0.0.1/",
        "http://127.0.0.1@evil.test/",  # userinfo, not the host
        "http://127.0.0.2/",
        "ws://evil.test/",
        "ftp://127.0.0.2/",
    ]
    assert [url for url in allowed if not policy.allows(url)] == []
    assert [url for url in refused if policy.allows(url)] == []
    # What the driver lets through without asking Python is allowed, and plainly so.
    passed = [url for url in allowed + refused if not policy.screened.search(url)]
    assert passed == ["http://127.0.0.1:8000/x", "https://localhost/", "http://[::1]:9/",
                      "https://a.example.com/", "wss://deep.sub.example.com/socket"]  # fmt: skip
    assert NetworkPolicy(("a b",)).screened.search("http://a b/")  # unwritable: screened
    assert NetworkPolicy(None).allows("http://anything.test/") and not NetworkPolicy(None).restricts
    assert not NetworkPolicy(()).allows("http://127.0.0.1/")


async def test_requests_to_allowed_hosts_do_not_wait_for_python(
    monkeypatch: pytest.MonkeyPatch, fixtures_url: str
) -> None:
    """Only what the policy has to decide crosses to Python (`NetworkPolicy.screened`):
    the page's own requests go straight on, the refused ones are still refused."""
    decided: list[str] = []
    handle = NetworkPolicy.handle

    async def counted(self: NetworkPolicy, route: Any) -> None:
        decided.append(route.request.url)
        await handle(self, route)

    monkeypatch.setattr(NetworkPolicy, "handle", counted)
    async with pagelens.launch(allowed_hosts=LOOPBACK_HOSTS) as browser:
        page = await browser.new_page()
        await page.goto(f"{fixtures_url}robustness/external.html")
        assert "http://example.com/x.js" in browser.policy.blocked
    assert decided and all("example." in url for url in decided), decided


def test_host_resolver_rules() -> None:
    rules = host_resolver_rules(("127.0.0.1", "LocalHost", "::1", "[::1]", "*.example.com"))
    assert rules == "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE [::1], EXCLUDE *.example.com"
    assert host_resolver_rules(()) == "MAP * ~NOTFOUND"


async def test_bad_allow_lists_are_refused() -> None:
    for hosts in ("127.0.0.1", ["a b"], ["x,y"], [""], [3]):
        with pytest.raises(InvalidRequestError):
            await pagelens.launch(allowed_hosts=hosts)  # type: ignore[arg-type]
