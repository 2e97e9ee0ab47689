"""Two `pagelens mcp` servers run side by side, each with its own browser and profile."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mcp_harness import McpServer, alive, chromium_processes, cmdline, serve_site, wait_until


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_site() as url:
        yield url


async def test_two_servers_run_side_by_side_with_their_own_profiles(site: str, tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    # One default (a throwaway profile), one with --user-data-dir; one client speaks the
    # current protocol, the other the legacy initialize handshake.
    first, second = await asyncio.gather(
        McpServer.start([], tmp_path / "first.log"),
        McpServer.start(["--user-data-dir", str(profile)], tmp_path / "second.log", mode="legacy"),
    )
    try:
        a, b = await asyncio.gather(
            first.call_json("interact", action="navigate", url=f"{site}notes.html"),
            second.call_json("interact", action="navigate", url=f"{site}guide.html"),
        )
        assert a["success"] and a["title"] == "Tide Pool Field Notes", first.log()
        assert b["success"] and b["title"] == "Identification Guide", second.log()

        first_browser = chromium_processes(first.pid())
        second_browser = chromium_processes(second.pid())
        assert first_browser and second_browser
        assert not set(first_browser) & set(second_browser)
        first_profile = _profile_dir(first_browser[0])
        second_profile = _profile_dir(second_browser[0])
        assert second_profile == str(profile.resolve())
        assert first_profile and first_profile != second_profile
        assert any(profile.iterdir()), "Chromium wrote its profile where it was told"

        # Each keeps its own page.
        tabs_a = (await first.call_json("analyze", what="tabs"))["tabs"]
        tabs_b = (await second.call_json("analyze", what="tabs"))["tabs"]
        assert [t["url"] for t in tabs_a if t["active"]] == [f"{site}notes.html"]
        assert [t["url"] for t in tabs_b if t["active"]] == [f"{site}guide.html"]
    finally:
        await asyncio.gather(first.close(), second.close())
    # A server that stops takes its browser with it.
    await wait_until(
        lambda: not any(alive(pid) for pid in first_browser + second_browser),
        "the servers' Chromium to exit",
    )


def _profile_dir(pid: int) -> str | None:
    match = re.search(r"--user-data-dir=(\S+)", cmdline(pid))
    return match.group(1) if match else None
