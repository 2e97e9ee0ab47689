"""`pagelens mcp --port`: the same tools over streamable HTTP on loopback; and the
command's own option errors."""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client

from tests.mcp_harness import (
    CALL_TIMEOUT,
    PAGELENS,
    alive,
    chromium_processes,
    result_json,
    serve_site,
    server_env,
    wait_until,
)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_site() as url:
        yield url


async def test_streamable_http_on_loopback(site: str, tmp_path: Path) -> None:
    log = (tmp_path / "server.log").open("w+")
    process = await asyncio.create_subprocess_exec(
        PAGELENS, "mcp", "--port", "0", stdout=log, stderr=asyncio.subprocess.PIPE,
        env=server_env(),
    )  # fmt: skip
    try:
        assert process.stderr is not None
        line = await asyncio.wait_for(process.stderr.readline(), CALL_TIMEOUT)
        match = re.search(r"on (http://127\.0\.0\.1:\d+/mcp)", line.decode())
        assert match, line
        url = match.group(1)

        async with Client(url, read_timeout_seconds=CALL_TIMEOUT) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert tools == {"interact", "analyze", "summarize"}
            call = {"action": "navigate", "url": f"{site}notes.html"}
            navigated = result_json(await client.call_tool("interact", call))
            assert navigated["success"] is True
            assert navigated["summary"]["title"] == "Tide Pool Field Notes"
            bad = await client.call_tool("analyze", {"what": "tabs", "tab": "1"})
            assert bad.is_error and "'tab'" in result_json(bad)["message"]

        # The browser outlives one HTTP client: a second client sees the same tab.
        async with Client(url, read_timeout_seconds=CALL_TIMEOUT) as client:
            tabs = result_json(await client.call_tool("analyze", {"what": "tabs"}))["tabs"]
            assert [t["url"] for t in tabs if t["active"]] == [f"{site}notes.html"]

        browser = chromium_processes(process.pid)
        assert browser
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), CALL_TIMEOUT) == 0
        await wait_until(lambda: not any(alive(pid) for pid in browser), "Chromium to exit")
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        log.close()


async def test_conflicting_options_fail_with_one_typed_line() -> None:
    # (--viewport is parsed by the code `pagelens snapshot` uses, tested with it.)
    arguments = ["--cdp-url", "http://127.0.0.1:9", "--user-data-dir", "/tmp/profile"]
    process = await asyncio.create_subprocess_exec(
        PAGELENS, "mcp", *arguments, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**server_env(), "COLUMNS": "200"},
    )  # fmt: skip
    stdout, stderr = await asyncio.wait_for(process.communicate(), CALL_TIMEOUT)
    assert process.returncode == 1
    assert stdout == b""
    text = stderr.decode()
    assert text.startswith("error: [invalid_request]") and "exclude each other" in text, text
