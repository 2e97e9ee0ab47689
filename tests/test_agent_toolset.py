"""The tools as the model gets them (agent/toolset.py): their declarations, and each one
run through `run_tool` on real pages in Chromium."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from pagelens.actions import Session
from pagelens.actions import tools as action_tools
from pagelens.agent import Plan, Skills
from pagelens.agent.toolset import TOOLS, ToolContext, run_tool
from pagelens.mcp.tools import TOOLS as MCP_TOOLS
from tests.agent_support import scripted_model
from tests.llm_servers import OpenAIChatServer, Reply

NAMES = ["plan", "navigate", "interact", "analyze", "repl", "ask_user_which_element", "skill", "debugger",
         "summarize", "finish", "fail"]  # fmt: skip

pytest_plugins = ["tests.agent_support"]


@pytest.fixture
def ctx(session: Session, skills: Skills) -> ToolContext:
    return ToolContext(session=session, plan=Plan(), skills=skills)


async def use(ctx: ToolContext, tool: str, /, **arguments: Any) -> dict[str, Any]:
    output = await run_tool(ctx, TOOLS, tool, arguments)
    return {"ok": output.ok, "end": output.end, **output.data}


def test_the_tools_have_their_fixed_names_and_schemas() -> None:
    assert list(TOOLS) == NAMES
    for tool in TOOLS.values():
        definition = tool.definition()
        assert definition.parameters["type"] == "object" and definition.description
        assert definition.parameters.get("additionalProperties") is False, tool.name
    # interact and analyze are the MCP server's tools, to the letter.
    for name in ("interact", "analyze"):
        mcp = MCP_TOOLS[name].definition()
        assert TOOLS[name].definition().parameters == mcp.input_schema
        assert TOOLS[name].definition().description == mcp.description
        assert getattr(action_tools, name.upper()).name == name


async def test_navigate_answers_with_the_contract_and_the_summary(ctx: ToolContext, shop: str) -> None:
    result = await use(ctx, "navigate", url=shop + "index.html")
    assert result["ok"] and result["finalUrl"] == shop + "index.html" and result["title"] == "Kettle Shop"
    assert result["tabId"] and result["summary"]["title"] == "Kettle Shop" and result["http_status"] == 200
    assert result["load_complete"] is True
    opened = await use(ctx, "navigate", url=shop + "item.html?id=red", newTab=True)
    assert opened["tabId"] != result["tabId"] and opened["title"] == "Red Teapot"
    missing = await use(ctx, "navigate", url="http://127.0.0.1:9/nothing")
    assert not missing["ok"] and missing["error"].startswith("err_")


async def test_a_bad_call_names_its_parameter(ctx: ToolContext) -> None:
    result = await use(ctx, "navigate", url="index.html", speed="fast")
    assert not result["ok"] and result["error"] == "invalid_request" and "speed" in result["message"]
    result = await use(ctx, "plan", steps=[])
    assert result["error"] == "invalid_request" and "steps" in result["message"]


async def test_plan_sets_the_plan_and_acting_starts_its_step(ctx: ToolContext, shop: str) -> None:
    result = await use(ctx, "plan", steps=[{"description": "Open the shop"}, {"description": "Search"}])
    assert result["ok"] and result["plan"] == "[ ] 0. Open the shop\n[ ] 1. Search"
    await use(ctx, "navigate", url=shop + "index.html")
    assert ctx.plan.steps[0].status == "in_progress"


async def test_interact_and_analyze_are_the_action_layer_calls(ctx: ToolContext, shop: str) -> None:
    await use(ctx, "navigate", url=shop + "index.html")
    typed = await use(ctx, "interact", action="type", selector="label=Search products", text="kettle")
    assert typed["ok"] and typed["observations"]["element_found"]
    view = await use(ctx, "analyze", what="semantic")
    assert any(node["n"] == "Search products" for node in view["interactive_tree"])
    shot = await use(ctx, "interact", action="screenshot")
    assert shot["ok"] and "image" not in shot and shot["screenshot"]["width"] > 0


async def test_analyze_takes_the_capture_options_as_over_mcp(ctx: ToolContext, shop: str) -> None:
    await use(ctx, "navigate", url=shop + "index.html")
    await use(ctx, "interact", action="type", selector="label=Search products", text="green kettle")
    plain = await use(ctx, "analyze", what="interaction")
    capped = await use(ctx, "analyze", what="interaction", max_controls=2, max_headings=1, include_values=True)
    assert len(plain["controls"]) > 2 and not plain["truncated"]
    assert len(capped["controls"]) == 2 and capped["truncated"] and len(capped["headings"]) == 1
    field = next(c for c in plain["controls"] if c["name"] == "Search products")
    assert "value" not in field and field["value_len"] == len("green kettle")
    tree = await use(ctx, "analyze", what="semantic", include_values=True, include_boxes=True, max_iframe_depth=0)
    node = next(n for n in tree["interactive_tree"] if n["n"] == "Search products")
    assert node["v"] == "green kettle" and len(node["box"]) == 4
    rebased = await use(ctx, "analyze", what="full", base_url="https://kettles.example/shop/")
    assert rebased["url"] == "https://kettles.example/shop/"
    assert [link["href"] for link in rebased["nav_links"]] == [
        "https://kettles.example/shop/index.html",
        "https://kettles.example/shop/about.html",
    ]
    assert rebased["forms"][0]["action"] == "https://kettles.example/shop/results.html"
    wrong = await use(ctx, "analyze", what="skeleton", include_boxes=True)
    assert not wrong["ok"] and wrong["error"] == "invalid_request" and "'include_boxes'" in wrong["message"]


async def test_repl_runs_with_the_matching_skills_library(ctx: ToolContext, skills: Skills, shop: str) -> None:
    library = "window.shopTitle = () => document.querySelector('h1').textContent;"
    await use(ctx, "skill", action="create", name="kettle-shop", description="Helpers for the kettle shop",
              patterns=["127.0.0.1/**"], library=library)  # fmt: skip
    await use(ctx, "navigate", url=shop + "index.html")
    result = await use(
        ctx, "repl", title="read the title", code="console.log('hi'); await browserjs(() => shopTitle())"
    )
    assert result["ok"] and result["output"] == 'hi\n=> "Kettle Shop"'
    files = await use(ctx, "repl", title="file", code="returnFile('a.txt', 'abc', 'text/plain'); 1")
    assert base64.b64decode(files["files"][0]["contentBase64"]) == b"abc"
    refused = await use(ctx, "repl", title="bad", code="await browserjs(() => { location.href = 'about:blank'; })")
    assert not refused["ok"] and refused["error"] == "navigation_refused"


async def test_debugger_and_the_headless_picker(ctx: ToolContext, shop: str) -> None:
    await use(ctx, "navigate", url=shop + "index.html")
    result = await use(ctx, "debugger", action="eval", code="document.title + '!'")
    assert result["ok"] and result["text"] == '"Kettle Shop!"'
    picker = await use(ctx, "ask_user_which_element", message="the search box")
    assert not picker["ok"] and picker["error"] == "picker_unavailable" and "--headed" in picker["message"]


async def test_skill_lists_what_matches_a_url(ctx: ToolContext, shop: str) -> None:
    listed = await use(ctx, "skill", action="list", url="https://github.com/python/cpython/issues")
    assert listed["ok"] and any("github" in s["name"] for s in listed["skills"])


async def test_summarize_extracts_without_a_model_and_summarizes_with_one(ctx: ToolContext, shop: str) -> None:
    extracted = await use(ctx, "summarize", url=shop + "item.html?id=blue", extractOnly=True, format="markdown")
    assert extracted["ok"] and "Blue Kettle" in extracted["output"]
    refused = await use(ctx, "summarize", url=shop + "item.html?id=blue")
    assert refused["error"] == "summary_unavailable"

    async with OpenAIChatServer([Reply(text="A blue kettle for €39.")]) as server:
        ctx.model = scripted_model(server.base_url)
        summary = await use(ctx, "summarize", url=shop + "item.html?id=blue", length="short", language="de")
        await ctx.model.aclose()
    assert summary["ok"] and summary["output"] == "A blue kettle for €39."
    assert summary["details"]["model"] == "openai/scripted"
    (body,) = server.bodies
    asked = body["messages"][1]["content"]
    assert "about 900 characters, in the language de" in asked and "Blue Kettle" in asked
    assert "untrusted data" in asked  # the page stays fenced in the summarizer's request too


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "file:///root/", "view-source:http://127.0.0.1/", "ftp://127.0.0.1/a.txt"]
)
async def test_summarize_loads_only_what_navigate_would(ctx: ToolContext, url: str) -> None:
    navigated = await use(ctx, "interact", action="navigate", url=url)
    summarized = await use(ctx, "summarize", url=url, extractOnly=True)
    assert not summarized["ok"] and summarized["error"] == navigated["error"] == "restricted_url"
    assert "output" not in summarized and summarized["message"] == navigated["message"]


async def test_summarize_takes_no_bare_path(ctx: ToolContext) -> None:
    summarized = await use(ctx, "summarize", url="/form.html", extractOnly=True)  # its tab has no page to start from
    assert not summarized["ok"] and summarized["error"] == "invalid_request" and "path" in summarized["message"]


async def test_finish_and_fail_end_the_run(ctx: ToolContext) -> None:
    assert (await use(ctx, "finish", result="done"))["end"] == "finish"
    assert (await use(ctx, "fail", reason="no"))["end"] == "fail"


async def test_an_unknown_tool_names_the_tools(ctx: ToolContext) -> None:
    result = await use(ctx, "teleport")
    assert result["error"] == "unknown_tool" and "plan, navigate" in result["message"]
