"""Defects an agent developer found driving `pagelens mcp` with the SDK's own client over
stdio, each pinned here against a real Chromium."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
from collections.abc import AsyncIterator, Iterator
from urllib.parse import quote

import pytest

import pagelens.mcp.server as server_module
from pagelens.extraction.summarize import MAX_TIMEOUT_S
from tests.mcp_harness import McpServer, alive, chromium_processes, result_json, serve_site, wait_until


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_site() as url:
        yield url


@pytest.fixture(scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[McpServer]:
    server = await McpServer.start([], tmp_path_factory.mktemp("mcp-qa") / "server.log")
    yield server
    await server.close()


async def test_summarize_carries_the_content_once(server: McpServer, site: str) -> None:
    # The page's text is `output`; a second copy in details doubled every result's tokens.
    data = await server.call_json("summarize", url=f"{site}notes.html", extractOnly=True)
    assert "Low tide uncovered a small world" in data["output"]
    assert "content" not in data["details"]
    assert data["details"]["title"] == "Tide Pool Field Notes"
    assert data["details"]["characters"] == len(data["output"])


async def test_summarize_restarts_a_dead_browser(server: McpServer, site: str) -> None:
    # summarize used the session's browser as it was: after Chromium died, every summarize
    # failed with internal_error until some other call happened to restart it.
    loaded = await server.call_json("interact", action="navigate", url=f"{site}guide.html", summary=False)
    assert loaded["success"] is True, server.log()
    killed = chromium_processes(server.pid())
    assert killed
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    await wait_until(lambda: not any(alive(pid) for pid in killed), "the killed Chromium to go")

    result = await server.call("summarize", url=f"{site}notes.html", extractOnly=True)
    data = result_json(result)
    assert not result.is_error, (data, server.log())
    assert data["browser_restarted"] is True
    assert "Low tide uncovered a small world" in data["output"]

    # The restart was reported once; the tab the agent had is back.
    tabs = await server.call_json("analyze", what="tabs")
    assert not tabs.get("browser_restarted")
    assert [tab["url"] for tab in tabs["tabs"] if tab["active"]] == [f"{site}guide.html"]


async def test_a_dialog_waits_for_the_agents_next_turn(server: McpServer) -> None:
    # A model's turn between two calls often takes longer than the session's default hold
    # (10 s): the policy dismissed the confirm, and handle_dialog found none.
    page = "<title>Ask</title><button onclick=\"document.title = confirm('Delete?') ? 'yes' : 'no'\">Delete</button>"
    await server.call_json("interact", action="navigate", url=f"data:text/html,{quote(page)}", summary=False)
    clicked = await server.call_json("interact", action="click", selector="text=Delete")
    assert clicked["observations"]["dialog"]["handled"] == "pending", clicked
    await asyncio.sleep(12)

    answered = await server.call_json("interact", action="handle_dialog", value="accept")
    assert answered["success"] is True, answered
    assert answered["observations"]["dialog"] == {
        "type": "confirm", "message": "Delete?", "handled": "accepted", "by": "agent",
    }  # fmt: skip
    assert (await server.call_json("analyze", what="full"))["title"] == "yes"


async def test_the_instructions_say_how_big_a_dom_is_and_how_dialogs_wait(server: McpServer) -> None:
    # They promised every analyze answer within max_tokens, which the dom view (50,000
    # characters by default) is not held to, and said nothing of dialogs.
    assert server.client is not None
    instructions = server.client.instructions or ""
    budget = instructions.split("Big pages:", 1)[1].split(".", 1)[0]
    assert "max_dom_chars" in budget and "semantic" in budget
    assert "handle_dialog" in instructions and "5 minutes" in instructions


async def test_a_query_on_a_page_without_controls_finds_none(server: McpServer) -> None:
    # Ranking controls for a query built an index of nothing: internal_error, "max() arg
    # is an empty sequence".
    loaded = await server.call_json("interact", action="navigate", url="about:blank", summary=False)
    assert loaded["success"] is True, server.log()
    result = await server.call("analyze", what="interaction", query="sign in")
    data = result_json(result)
    assert not result.is_error, (data, server.log())
    assert data["controls"] == [] and data["query"] == "sign in"


def test_the_safety_net_outlasts_the_longest_summarize() -> None:
    # A summarize allowed 300 s ended as call_timeout at 120 s.
    assert server_module.CALL_TIMEOUT > MAX_TIMEOUT_S


async def test_tool_descriptions_speak_to_the_agent(server: McpServer) -> None:
    # interact's description sent the agent to "actions/registry.py, docs/actions.md".
    assert server.client is not None
    for tool in (await server.client.list_tools()).tools:
        text = (tool.description or "") + json.dumps(tool.input_schema)
        assert not re.findall(r"[\w/]+\.(?:py|md)\b", text), tool.name
