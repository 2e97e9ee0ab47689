"""`pagelens mcp --cdp-url`: the server drives a Chrome that is already running (the
user's, whose open tabs it adopts), and leaves it running when it stops, closing only
the tabs it opened."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pagelens.browser.launcher import CHROMIUM_ARGS, find_browser
from tests.mcp_harness import CALL_TIMEOUT, McpServer, alive, serve_site


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_site() as url:
        yield url


async def test_attaches_to_a_running_chrome_and_leaves_it_running(site: str, tmp_path: Path) -> None:
    chrome = await asyncio.create_subprocess_exec(
        find_browser(), *CHROMIUM_ARGS, "--headless", "--remote-debugging-port=0",
        f"--user-data-dir={tmp_path / 'chrome'}", "about:blank",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        port = await _devtools_port(chrome)
        endpoint = f"http://127.0.0.1:{port}"
        server = await McpServer.start(["--cdp-url", endpoint], tmp_path / "server.log")
        try:
            data = await server.call_json("interact", action="navigate", url=f"{site}notes.html")
            assert data["success"] is True, server.log()
            assert data["summary"]["title"] == "Tide Pool Field Notes"
            opened = await server.call_json("interact", action="navigate", url=f"{site}guide.html", new_tab=True)
            assert opened["success"] is True, server.log()
            # The pages are open in that Chrome, not in a browser of the server's own.
            assert {f"{site}notes.html", f"{site}guide.html"} <= set(await _page_urls(endpoint))
        finally:
            await server.close()
        assert alive(chrome.pid), "the user's Chrome keeps running"
        urls = await _page_urls(endpoint)
        assert f"{site}guide.html" not in urls, "the tab the server opened is closed"
        assert f"{site}notes.html" in urls, "the user's own tab stays"
    finally:
        chrome.kill()
        await chrome.wait()


async def _devtools_port(chrome: asyncio.subprocess.Process) -> int:
    assert chrome.stderr is not None
    async with asyncio.timeout(CALL_TIMEOUT):
        while line := (await chrome.stderr.readline()).decode():
            match = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if match:
                return int(match.group(1))
    raise AssertionError("Chromium never printed its DevTools address")


async def _page_urls(endpoint: str) -> list[str]:
    def fetch() -> list[str]:
        with urllib.request.urlopen(f"{endpoint}/json/list", timeout=10) as response:
            return [t["url"] for t in json.load(response) if t.get("type") == "page"]

    return await asyncio.to_thread(fetch)
