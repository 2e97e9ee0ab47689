"""The step API (agent/step.py): the client carries out each action and brings back the
page; the brain answers with the next action, the plan and the status."""

from __future__ import annotations

from typing import Any

from pagelens.agent.step import MemoryStates, PageState, Stepper
from tests.agent_script import call, last_result, plan, tool_results
from tests.agent_support import scripted_model
from tests.llm_servers import OpenAIChatServer, Reply, Turn

SEMANTIC = {"interactive_tree": [{"i": "13", "r": "srch", "n": "Search", "selector": "textarea[name='q']"}]}


async def test_each_call_returns_the_next_action_until_finish() -> None:
    def after_typing(body: dict[str, Any]) -> Reply:
        typed = last_result(body)
        assert typed["result"] == {"success": True} and typed["url"] == "https://example.com/?q=space+x"
        return call("finish", result="searched")

    script: list[Turn] = [
        plan(("Search for SpaceX", "pending"), ("Read the results", "pending")),
        call("interact", "I'll type the query.", action="type", element_id="13", text="space x"),
        after_typing,
    ]
    async with OpenAIChatServer(script) as server:
        model = scripted_model(server.base_url)
        states = MemoryStates()  # what two daemons share: the task goes on through the second
        first = await Stepper(model, states=states).decide(
            "task-1", "Search for SpaceX", PageState(url="https://example.com/", title="Example", view=SEMANTIC)
        )
        assert await states.load("task-1") is not None
        second = await Stepper(model, states=states).decide(
            "task-1", "Search for SpaceX",
            PageState(url="https://example.com/?q=space+x", title="Results", result={"success": True}),
        )  # fmt: skip
        await model.aclose()

    assert first.action == 'type(13, "space x")' and first.thought == "I'll type the query."
    assert first.actionDetails.model_dump() == {
        "name": "type", "elementId": "13", "selectorPath": "textarea[name='q']", "args": {"text": "space x"},
    }  # fmt: skip
    assert first.status == "executing" and first.taskId == "task-1"
    assert [s.status for s in first.plan.steps] == ["in_progress", "pending"]
    assert second.action == "finish()" and second.status == "completed"
    assert [s.status for s in second.plan.steps] == ["completed", "skipped"]
    assert await states.load("task-1") is None  # an ended task leaves nothing behind
    # The second daemon's request carried the whole conversation, under the same fence.
    assert server.bodies[-1]["messages"][: len(server.bodies[1]["messages"])] == server.bodies[1]["messages"]
    # The page came to the model as fenced tool results, never as the user's words.
    assert tool_results(server.bodies[0])[0]["page"] == SEMANTIC
    assert all(m["role"] != "user" or "Example" not in m["content"] for m in server.bodies[-1]["messages"])
