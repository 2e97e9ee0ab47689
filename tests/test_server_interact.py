"""POST /api/agent/interact against a real daemon (uvicorn on a free port) and a scripted
OpenAI-wire model, on SQLite and PostgreSQL: tasks to finish() and fail(), the limits,
the needs_context negotiation, verification of the client's last action, and a task that
goes on through a second daemon."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx2 as httpx
import pytest

from pagelens.errors import ErrorCode
from pagelens.server.config import ServerConfig
from pagelens.server.push import RedisBroker
from pagelens.store import Store
from tests.agent_script import call, last_result, plan, tool_results
from tests.llm_servers import OpenAIChatServer
from tests.server_support import MODEL, daemon_client
from tests.server_support import DaemonClient as Daemon

pytest_plugins = ["tests.store_support", "tests.server_support"]

REDIS_URL = "redis://127.0.0.1:6379/0"
START = "https://www.google.com/"
RESULTS = "https://www.google.com/search?q=spacex"
TREE: list[dict[str, object]] = [
    {"i": "13", "r": "srch", "n": "Search", "selector": "textarea[name='q']"},
    {"i": "15", "r": "btn", "n": "Google Search", "xy": [400, 350]},
]
RESULT_TREE = [{"i": "40", "r": "link", "n": "SpaceX - Wikipedia"}]
STEPS = (("Type the query", "pending"), ("Open the result", "pending"))


async def _interact(http: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    response = await http.post("/api/agent/interact", json={"url": START, "query": "Search for SpaceX", **body})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    assert answer["success"] is True
    return answer["data"]


async def test_a_task_goes_from_its_plan_to_finish(daemon: Daemon, model_env: Any, database_url: str) -> None:
    script = [
        plan(*STEPS),
        call("interact", "I'll type the query.", action="type", element_id="13", text="spacex"),
        call("interact", "Now the button.", action="click", element_id="15"),
        call("finish", "Found it.", result="SpaceX's page is open"),
    ]
    async with OpenAIChatServer(script) as server, daemon() as http:
        model_env(server)
        first = await _interact(http, interactiveTree=TREE, tabId=7, domMode="semantic")
        second = await _interact(http, taskId=first["taskId"], interactiveTree=[{**TREE[0], "v": "spacex"}, TREE[1]])
        third = await _interact(http, taskId=first["taskId"], url=RESULTS, interactiveTree=RESULT_TREE)

    assert first["action"] == 'type(13, "spacex")' and first["thought"] == "I'll type the query."
    assert first["actionDetails"] == {
        "name": "type", "elementId": "13", "selectorPath": "textarea[name='q']", "args": {"text": "spacex"},
    }  # fmt: skip
    assert first["status"] == "executing" and (first["currentStep"], first["totalSteps"]) == (0, 2)
    assert [s["status"] for s in first["plan"]["steps"]] == ["in_progress", "pending"]
    assert first["plan"]["steps"][0]["id"] == "step_0" and first["plan"]["createdAt"]
    # No selector in the tree: one from the control's role and name.
    assert second["actionDetails"]["selectorPath"] == 'role=button[name="Google Search"]'
    assert [s["status"] for s in second["plan"]["steps"]] == ["completed", "in_progress"]
    assert (second["currentStep"], second["taskId"], second["sessionId"]) == (1, first["taskId"], first["sessionId"])
    assert third["action"] == "finish()" and third["status"] == "completed"
    assert third["actionDetails"] == {"name": "finish", "elementId": None, "selectorPath": None,
                                      "args": {"result": "SpaceX's page is open"}}  # fmt: skip
    assert [s["status"] for s in third["plan"]["steps"]] == ["completed", "completed"]
    # The page reached the model as a fenced tool result.
    assert tool_results(server.bodies[0])[0]["page"]["interactiveTree"][0]["n"] == "Search"

    async with await Store.open(database_url) as store:
        run = await store.runs.get(first["taskId"])
        messages = await store.messages.list(first["sessionId"])
        session = await store.sessions.get(first["sessionId"])
    assert run is not None and (run.kind, run.status, run.result) == ("interact", "completed", "SpaceX's page is open")
    assert run.state is None and run.plan["steps"][1]["status"] == "completed"
    assert session is not None and session.tab_id == "7"
    assert [(m.role, m.content, m.action_string) for m in messages] == [
        ("user", "Search for SpaceX", None),
        ("assistant", "I'll type the query.", 'type(13, "•••")'),  # what is typed stays with the client
        ("assistant", "Now the button.", "click(15)"),
        ("assistant", "Found it.", "finish()"),
    ]
    assert messages[1].action_payload == {**first["actionDetails"], "args": {"text": "•••"}}


async def test_fail_ends_the_task(daemon: Daemon, model_env: Any) -> None:
    async with OpenAIChatServer([call("fail", "No search box.", reason="the page has no search box")]) as server:
        model_env(server)
        async with daemon() as http:
            failed = await _interact(http, interactiveTree=TREE)
            again = await http.post("/api/agent/interact", json={"url": START, "query": "x", **_task(failed)})
    assert failed["action"] == "fail()" and failed["status"] == "failed"
    assert failed["actionDetails"]["args"] == {"reason": "the page has no search box"}
    assert again.status_code == 404 and again.json()["error"] == ErrorCode.TASK_NOT_FOUND


async def test_a_page_that_shows_a_special_token_gets_its_answer(daemon: Daemon, model_env: Any) -> None:
    # The model's tokenizer has control tokens; a page that shows one's text is text all the same.
    tree = [{**TREE[0], "n": "<|endoftext|> Search"}, TREE[1]]
    async with OpenAIChatServer([call("finish", "Done.", result="ok")]) as server, daemon() as http:
        model_env(server)
        answer = await _interact(http, interactiveTree=tree)
    assert answer["status"] == "completed"


async def test_a_model_failure_on_a_new_task_fails_its_run(daemon: Daemon, model_env: Any, database_url: str) -> None:
    async with OpenAIChatServer([call("finish", result="never")]) as server, daemon() as http:
        model_env(server, key="wrong-key")
        response = await http.post("/api/agent/interact", json={"url": START, "query": "x", "interactiveTree": TREE})
    assert response.status_code == 502 and response.json()["error"] == ErrorCode.MODEL_AUTH_FAILED
    async with await Store.open(database_url) as store:
        (run,) = await store.runs.list()
    assert run.status == "failed" and "401" in (run.result or "")


async def test_a_nul_character_in_the_query_is_dropped(daemon: Daemon, model_env: Any, database_url: str) -> None:
    async with OpenAIChatServer([call("finish", "Done.", result="ok")]) as server, daemon() as http:
        model_env(server)
        answer = await _interact(http, query="Search for Space\u0000X", interactiveTree=TREE)
    async with await Store.open(database_url) as store:
        run = await store.runs.get(answer["taskId"])
        messages = await store.messages.list(answer["sessionId"])
    assert run is not None and run.task == "Search for SpaceX"
    assert messages[0].content == "Search for SpaceX"


async def test_an_unknown_task_is_404(daemon: Daemon, model_env: Any) -> None:
    async with daemon() as http:
        response = await http.post(
            "/api/agent/interact", json={"url": START, "query": "x", "taskId": "no-such-task", "interactiveTree": TREE}
        )
    assert response.status_code == 404
    assert response.json() == {
        "success": False,
        "error": ErrorCode.TASK_NOT_FOUND,
        "message": "no task in progress has the taskId 'no-such-task'",
    }


@pytest.mark.parametrize(
    ("field", "size"),
    [
        ("url", 8_001),
        ("query", 10_001),
        ("screenshot", 2 * 1024 * 1024 + 1),
        ("skeletonDom", 100 * 1024 + 1),
        ("dom", 200_001),
        ("screenshotHash", 257),
    ],
)
async def test_a_field_over_its_limit_is_413_naming_it(daemon: Daemon, field: str, size: int) -> None:
    async with daemon() as http:
        body = {"url": START, "query": "click the logo", "interactiveTree": TREE, field: "a" * size}
        response = await http.post("/api/agent/interact", json=body)
        at_limit = await http.post("/api/agent/interact", json={**body, field: "a" * (size - 1), "taskId": "none"})
    assert response.status_code == 413, response.text
    assert response.json()["error"] == ErrorCode.PAYLOAD_TOO_LARGE and response.json()["field"] == field
    assert at_limit.status_code == 404  # at the limit the body is accepted (then the task is looked up)


async def test_an_invalid_body_is_400_with_its_fields(daemon: Daemon) -> None:
    async with daemon() as http:
        response = await http.post(
            "/api/agent/interact", json={"url": START, "interactiveTree": [{"i": 1}], "lastActionStatus": "maybe"}
        )
    assert response.status_code == 400
    answer = response.json()
    assert answer["error"] == ErrorCode.INVALID_REQUEST
    assert {f["field"] for f in answer["fields"]} == {"query", "interactiveTree.0.r", "lastActionStatus"}


async def test_needs_context_then_the_retry_proceeds(daemon: Daemon, model_env: Any) -> None:
    script = [call("interact", action="click", element_id="15")]
    async with OpenAIChatServer(script) as server, daemon() as http:
        model_env(server)
        visual = await _interact(http, query="click the blue button", interactiveTree=TREE)
        assert not server.requests  # the model is not asked
        empty = await _interact(http, interactiveTree=[])
        skeleton = '<button id="15">Go</button>'
        retried = await _interact(
            http, query="click the blue button", interactiveTree=TREE, screenshot="aGVsbG8=", skeletonDom=skeleton
        )
    assert visual == {
        "status": "needs_context", "requestedDomMode": "hybrid", "needsScreenshot": True, "needsSkeletonDom": True,
        "reason": visual["reason"], "needs_full_dom": False,
    }  # fmt: skip
    assert empty["status"] == "needs_context" and empty["requestedDomMode"] == "full" and empty["needs_full_dom"]
    assert retried["action"] == "click(15)" and retried["status"] == "planning"
    assert last_result(server.bodies[0])["page"]["skeletonDom"] == skeleton


@pytest.mark.parametrize(
    ("after", "verdict"),
    [
        # The URL is the same, the tree too, the client saw nothing and says it failed.
        (
            {
                "interactiveTree": TREE,
                "lastActionStatus": "failure",
                "clientObservations": {"didNetworkOccur": False, "didDomMutate": False, "didUrlChange": False},
            },
            "failed",
        ),
        ({"url": RESULTS, "interactiveTree": RESULT_TREE, "lastActionStatus": "success"}, "completed"),
    ],
)
async def test_the_next_call_verifies_the_last_action(
    daemon: Daemon, model_env: Any, after: dict[str, Any], verdict: str
) -> None:
    script = [plan(*STEPS), call("interact", action="click", element_id="15"), call("fail", reason="stuck")]
    async with OpenAIChatServer(script) as server, daemon() as http:
        model_env(server)
        first = await _interact(http, interactiveTree=TREE)
        second = await _interact(http, taskId=first["taskId"], **after)

    seen = last_result(server.bodies[-1])
    assert seen["result"]["verification"]["verdict"] == verdict
    step = second["plan"]["steps"][0]
    assert step["status"] == verdict and step["outcome"] == seen["result"]["verification"]["reason"]
    if verdict == "failed":
        assert "the client reports that the action failed" in step["outcome"]
        assert f"nothing changed: the URL is still {START}" in step["outcome"]
        assert seen["result"]["clientObservations"]["didDomMutate"] is False
    else:
        assert f"the URL changed from {START} to {RESULTS}" in step["outcome"]
    # The verdict is data in the action's result, never a user message.
    users = [m["content"] for m in server.bodies[-1]["messages"] if m["role"] == "user"]
    assert not any("verdict" in text or "nothing changed" in text for text in users)


async def test_a_task_goes_on_through_a_second_daemon(postgres_url: str, model_env: Any) -> None:
    script = [call("interact", action="click", element_id="15"), call("finish", result="done")]
    config = ServerConfig(database_url=postgres_url, model=MODEL, redis_url=REDIS_URL)
    async with OpenAIChatServer(script) as server:
        model_env(server)
        async with daemon_client(config) as first_daemon:
            first = await _interact(first_daemon, interactiveTree=TREE)
        watcher = await RedisBroker.connect(REDIS_URL)
        async with daemon_client(config) as second_daemon, watcher.subscribe(first["sessionId"]) as events:
            second = await _interact(second_daemon, taskId=first["taskId"], url=RESULTS, interactiveTree=RESULT_TREE)
            pushed = [await asyncio.wait_for(anext(events), 5) for _ in range(2)]
        await watcher.close()
    assert second["action"] == "finish()" and second["sessionId"] == first["sessionId"]
    assert last_result(server.bodies[-1])["result"]["verification"]["verdict"] == "completed"
    assert pushed[0]["type"] == "new_message" and pushed[0]["message"]["content"] == ""
    assert pushed[0]["message"]["actionString"] == "finish()" and pushed[0]["message"]["role"] == "assistant"
    assert pushed[1] == {
        "type": "interact_response", "sessionId": first["sessionId"], "taskId": first["taskId"],
        "status": "completed", "action": "finish()",
    }  # fmt: skip


def _task(data: dict[str, Any]) -> dict[str, str]:
    return {"taskId": data["taskId"]}
