"""The agent's loop end to end: a scripted model over the real OpenAI wire (a local
server), the real SDK client, a real Chromium on the fixture shop in tests/fixtures/agent."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from pagelens.actions import Session
from pagelens.agent import Agent, AgentEvent, Limits, RunFinished, RunReport, Skills
from pagelens.agent.loop import MAX_TEXT_ONLY_REPLIES
from tests.agent_script import SHOP_TASK, call, last_result, plan, shop_script, tool_results
from tests.agent_support import scripted_model
from tests.llm_servers import Call, Fail, Hang, OpenAIChatServer, Reply, Turn

pytest_plugins = ["tests.agent_support"]


async def run(server: OpenAIChatServer, session: Session, skills: Skills, task: str, url: str, **kw: Any) -> RunReport:
    agent = Agent(model=scripted_model(server.base_url), session=session, skills=skills, **kw)
    return await agent.run(task, url=url)


def final_report(events: list[AgentEvent]) -> RunReport:
    """The report a run's stream of events ends with."""
    last = events[-1]
    assert isinstance(last, RunFinished), last
    return last.report


async def test_a_multi_step_task_completes_with_every_plan_step_done(
    shop: str, session: Session, skills: Skills
) -> None:
    async with OpenAIChatServer(shop_script()) as server:
        report = await run(server, session, skills, SHOP_TASK, shop + "index.html")
    assert report.status == "COMPLETED", report.reason
    assert report.result is not None and "Blue Kettle" in report.result
    assert [s.status for s in report.plan.steps] == ["completed"] * 4
    assert [s.id for s in report.plan.steps] == ["step_0", "step_1", "step_2", "step_3"]
    # The loop's own opening navigation, then one step per scripted call.
    assert [s.tool for s in report.steps] == ["navigate"] + [
        "plan", "interact", "interact", "plan", "analyze", "interact", "plan",
        "interact", "interact", "interact", "plan", "finish",
    ]  # fmt: skip
    assert all(step.ok for step in report.steps)
    assert report.steps[6].url is not None and report.steps[6].url.endswith("item.html?id=blue")
    assert report.usage.input_tokens == 10 * len(server.requests)  # the server's usage, summed
    # Typed text stays out of the report unless asked for.
    assert report.steps[8].arguments["text"] == "•••"
    # Every request answered every call, and the prompts never changed.
    first = server.bodies[0]["messages"][:2]
    assert all(body["messages"][:2] == first for body in server.bodies)
    assert [tool["function"]["name"] for tool in server.bodies[0]["tools"]] == [
        "plan", "navigate", "interact", "analyze", "repl", "ask_user_which_element",
        "skill", "debugger", "summarize", "finish", "fail",
    ]  # fmt: skip


async def test_an_impossible_task_fails_through_fail(shop: str, session: Session, skills: Skills) -> None:
    def give_up(body: dict[str, Any]) -> Reply:
        assert "No products match" in str(last_result(body))
        return call("fail", reason="the shop has no purple kettle")

    script: list[Turn] = [
        plan(("Search for a purple kettle", "pending"), ("Buy it", "pending")),
        call("interact", action="type", selector="label=Search products", text="purple"),
        call("interact", action="press", key="Enter"),
        call("analyze", what="markdown"),
        give_up,
    ]
    async with OpenAIChatServer(script) as server:
        report = await run(server, session, skills, "Buy the purple kettle", shop + "index.html")
    assert report.status == "FAILED" and report.error == "task_failed"
    assert report.reason == "the shop has no purple kettle"
    assert [s.status for s in report.plan.steps] == ["failed", "pending"]


async def test_a_page_with_injected_instructions_changes_nothing(shop: str, session: Session, skills: Skills) -> None:
    def answer(body: dict[str, Any]) -> Reply:
        summary = last_result(body)["summary"]
        assert "Opening hours: 9 to 17" in summary["content_preview"]
        return call("finish", result="Open from 9 to 17.")

    async with OpenAIChatServer([answer]) as server:
        report = await run(server, session, skills, "What are the opening hours?", shop + "injected.html")
    assert report.status == "COMPLETED" and report.result == "Open from 9 to 17."
    (body,) = server.bodies
    system, user, *rest = body["messages"]
    assert system["role"] == "system" and user == {
        "role": "user",
        "content": f"Task: What are the opening hours?\nStart at: {shop}injected.html",
    }
    for message in (system, user):
        assert "ignore your instructions" not in message["content"].lower()
    # The page's words arrive once, inside the fenced result of the opening navigation, and
    # its fake end marker did not end the fence (tool_results parses each fence whole).
    page_text = [m for m in rest if "ignore your instructions" in str(m.get("content", "")).lower()]
    assert [m["role"] for m in page_text] == ["tool"]
    assert "<<end 000000>>" in str(tool_results(body)[0])


async def test_a_run_streams_its_events(shop: str, session: Session, skills: Skills) -> None:
    script = [
        plan(("Look at the shop", "in_progress")),
        Reply(text="I have seen it.", tool_calls=[Call("finish", {"result": "seen"})]),
    ]
    async with OpenAIChatServer(script) as server:
        agent = Agent(model=scripted_model(server.base_url), session=session, skills=skills)
        events = [event async for event in agent.stream("Look at the shop", url=shop + "index.html")]
    kinds = [event.type for event in events]
    assert kinds[0] == "run_started" and kinds[-1] == "run_finished"
    assert kinds.count("tool_started") == kinds.count("tool_finished") == 3
    assert "thinking" in kinds and "plan_updated" in kinds
    thought = "".join(e.text for e in events if e.type == "thinking")
    assert thought == "I have seen it."
    finished = [e for e in events if e.type == "tool_finished"]
    assert finished[0].observation.startswith("✅ Kettle Shop")
    assert final_report(events).status == "COMPLETED"


async def test_the_model_hears_of_bad_calls_and_carries_on(shop: str, session: Session, skills: Skills) -> None:
    script: list[Turn] = [
        call("teleport", where="moon"),
        Reply(tool_calls=[Call("interact", '{"action": "click", "element_id": ')]),
        call("interact", action="click"),
        call("interact", action="click", element_id="999"),
        lambda body: call("finish", result=str([r.get("error") for r in tool_results(body)[1:]])),
    ]
    async with OpenAIChatServer(script) as server:
        report = await run(server, session, skills, "Try things", shop + "index.html")
    assert report.status == "COMPLETED"
    assert report.result == "['unknown_tool', 'invalid_request', 'invalid_request', 'not_found']"
    assert "the tools are plan, navigate" in str(tool_results(server.bodies[1])[-1]["message"])


async def test_text_without_a_tool_call_is_nudged_then_ends_the_run(
    shop: str, session: Session, skills: Skills
) -> None:
    async with OpenAIChatServer([Reply(text="Hmm.")] * MAX_TEXT_ONLY_REPLIES) as server:
        report = await run(server, session, skills, "Anything", shop + "index.html")
    assert report.status == "FAILED" and report.error == "no_tool_call"
    assert server.bodies[1]["messages"][-1]["role"] == "user"  # the nudge


async def test_the_step_budget_ends_a_run_that_never_finishes(shop: str, session: Session, skills: Skills) -> None:
    async with OpenAIChatServer([call("analyze", what="tabs")] * 10) as server:
        report = await run(server, session, skills, "Loop", shop + "index.html", limits=Limits(max_steps=4))
    assert report.status == "FAILED" and report.error == "step_budget_exhausted"
    assert len(report.steps) == 4 and len(server.requests) == 3


async def test_the_time_budget_cuts_a_model_that_hangs(shop: str, session: Session, skills: Skills) -> None:
    async with OpenAIChatServer([Hang(30)]) as server:
        began = time.monotonic()
        report = await run(server, session, skills, "Wait", shop + "index.html", limits=Limits(time_limit_s=3))
    assert report.status == "FAILED" and report.error == "time_budget_exhausted"
    assert time.monotonic() - began < 10


async def test_stop_ends_the_run_as_stopped(shop: str, session: Session, skills: Skills) -> None:
    hanging = asyncio.Event()

    def hang(body: dict[str, Any]) -> Hang:
        hanging.set()
        return Hang(30)

    async with OpenAIChatServer([plan(("Wait", "in_progress")), hang]) as server:
        agent = Agent(model=scripted_model(server.base_url), session=session, skills=skills)
        running = asyncio.ensure_future(agent.run("Wait forever", url=shop + "index.html"))
        await asyncio.wait_for(hanging.wait(), 30)
        agent.stop()
        report = await asyncio.wait_for(running, 10)
    assert report.status == "STOPPED" and report.error == "run_stopped"
    assert report.plan.steps[0].status == "failed"


async def test_a_model_error_ends_the_run_with_its_code(shop: str, session: Session, skills: Skills) -> None:
    async with OpenAIChatServer([Fail(401)]) as server:
        report = await run(server, session, skills, "Anything", shop + "index.html")
    assert report.status == "FAILED" and report.error == "model_auth_failed"


async def test_a_navigation_by_the_user_is_reported_to_the_model(shop: str, session: Session, skills: Skills) -> None:
    async def user_moves_the_tab(body: dict[str, Any]) -> Reply:
        page = await session.page()
        await page.goto(shop + "item.html?id=red")
        return call("plan", steps=[{"description": "Read the product"}])

    def read(body: dict[str, Any]) -> Reply:
        moved = last_result(body)
        assert moved["by"] == "user" and moved["finalUrl"].endswith("item.html?id=red")
        return call("finish", result=moved["title"])

    async with OpenAIChatServer([user_moves_the_tab, read]) as server:
        agent = Agent(model=scripted_model(server.base_url), session=session, skills=skills)
        events = [event async for event in agent.stream("Read what I open", url=shop + "index.html")]
    report = final_report(events)
    assert report.status == "COMPLETED" and report.result == "Red Teapot"
    assert any(event.type == "user_navigated" for event in events)


async def test_views_already_read_come_back_as_unchanged(shop: str, session: Session, skills: Skills) -> None:
    script = [call("analyze", what="semantic")] * 2 + [lambda body: call("finish", result=str(last_result(body)))]
    async with OpenAIChatServer(script) as server:
        report = await run(server, session, skills, "Read twice", shop + "index.html")
    second = tool_results(server.bodies[-1])[-1]
    assert report.status == "COMPLETED"
    assert second["unchanged"] is True and "interactive_tree" not in second
