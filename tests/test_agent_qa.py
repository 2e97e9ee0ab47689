"""The agent as a demanding user meets it: malformed answers from the model, servers that do
not stream, results too big for a request, secrets and escape sequences that must not reach
the terminal. A real Chromium, scripted model servers on the real wires, `pagelens run` as a
real process where the terminal matters."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import pagelens
from pagelens.actions import Session
from pagelens.agent import Agent, Limits, RunReport, Skills
from pagelens.agent.history import DEFAULT_REQUEST_BUDGET
from pagelens.agent.llm import Done, Message, ModelError
from pagelens.errors import ErrorCode, InvalidRequestError
from pagelens.tokens import count_tokens
from tests.agent_script import call, last_result, tool_results
from tests.agent_support import scripted_model
from tests.llm_servers import AnthropicMessagesServer, Call, Fail, OpenAIChatServer, Reply, Turn, model_at
from tests.test_agent_cli import environment, pagelens_run

pytest_plugins = ["tests.agent_support"]

PASSWORD = "hunter2-Secret!"
LOGIN = """<!doctype html><title>Sign in</title><h1>Sign in</h1>
<form><label>User <input id="user"></label>
<label>Password <input id="pw" type="password"></label><button>Sign in</button></form>"""
# About 45,000 tokens of text: more than any one request may hold.
ARTICLE = (
    "<!doctype html><title>Long read</title><article><h1>Long read</h1>"
    + "".join(
        f"<p>Paragraph {i}: the kettle whistled while the old shop keeper counted the blue teapots.</p>"
        for i in range(3_000)
    )
    + "</article>"
)


def request_tokens(body: dict[str, Any]) -> int:
    """A request's tokens as a provider would bill them, near enough: its messages and tools as JSON."""
    return count_tokens(json.dumps(body["messages"], ensure_ascii=False)) + count_tokens(
        json.dumps(body.get("tools", []), ensure_ascii=False)
    )


@pytest.fixture
def pages(tmp_path: Path) -> Iterator[str]:
    """The login page and the long article, served on 127.0.0.1."""
    (tmp_path / "login.html").write_text(LOGIN)
    (tmp_path / "article.html").write_text(ARTICLE)
    with pagelens.serve_directory(tmp_path) as url:
        yield url


async def run(server: OpenAIChatServer, session: Session, skills: Skills, url: str, **kw: Any) -> RunReport:
    agent = Agent(model=scripted_model(server.base_url), session=session, skills=skills, **kw)
    return await agent.run("Do it", url=url)


# ---- secrets and the terminal


async def test_malformed_arguments_do_not_echo_a_typed_password(tmp_path: Path) -> None:
    (tmp_path / "login.html").write_text(LOGIN)
    broken = '{"action": "type", "selector": "#pw", "text": "' + PASSWORD + '"'  # the closing brace is missing
    script: list[Turn] = [
        Reply(tool_calls=[Call("interact", broken)]),
        lambda body: call("finish", result=last_result(body)["message"]),
    ]
    async with OpenAIChatServer(script) as server:
        env = environment(tmp_path, PAGELENS_MODEL_BASE_URL=server.base_url, PAGELENS_MODEL_API_KEY="test-key")
        code, out, err = await pagelens_run(
            "Sign in", "--url", str(tmp_path / "login.html"), "--model", "local/m", env=env
        )
    assert code == 0, err
    report = json.loads(out)
    assert report["steps"][1]["error"] == "invalid_request"
    # The model still hears what was wrong with its call, and where.
    assert "not a JSON object" in report["result"] and "character" in report["result"]
    assert PASSWORD not in out + err
    # Only the model's own call holds it: no tool result sends it back.
    assert all(PASSWORD not in json.dumps(result) for result in tool_results(server.bodies[-1]))


async def test_escape_sequences_never_reach_the_terminal(tmp_path: Path) -> None:
    hostile = "\x1b]0;owned\x07\x1b[2J\x1bc"
    script = [Reply(text="Thinking " + hostile, tool_calls=[Call("finish", {"result": "done " + hostile})])]
    async with OpenAIChatServer(script) as server:
        env = environment(tmp_path, PAGELENS_MODEL_BASE_URL=server.base_url, PAGELENS_MODEL_API_KEY="test-key")
        code, out, err = await pagelens_run("Anything", "--model", "local/m", env=env)
    assert code == 0, err
    assert "Thinking" in err and "COMPLETED done" in err
    assert "\x1b" not in err and "\x07" not in err
    assert json.loads(out)["result"] == "done " + hostile  # the report keeps what the model said


# ---- every request under its budget


async def test_huge_results_keep_every_request_under_the_budget(pages: str, session: Session, skills: Skills) -> None:
    script: list[Turn] = [
        call("debugger", action="eval", code="'word '.repeat(200000)"),
        call("analyze", what="markdown", max_tokens=200_000),
        call("analyze", what="markdown", max_tokens=200_000),
        lambda body: call("finish", result=json.dumps(tool_results(body)[1:])),
    ]
    async with OpenAIChatServer(script) as server:
        report = await run(server, session, skills, pages + "article.html")
    assert report.status == "COMPLETED", report.reason
    assert all(request_tokens(body) <= DEFAULT_REQUEST_BUDGET for body in server.bodies)
    debugger, first, second = json.loads(report.result or "")
    # A result too big says so and keeps its start; the model can ask for less.
    assert debugger["success"] is True and debugger["partial"].startswith('{"success":true,"text":"\\"word word')
    assert "more than the" in debugger["cut"]
    assert "Paragraph 0:" in first["partial"]
    # The model never read the whole view, so asking again sends it again, not `unchanged`.
    assert "unchanged" not in second and "Paragraph 0:" in second["partial"]


async def test_summarize_fits_the_budget_and_its_tokens_count(pages: str, session: Session, skills: Skills) -> None:
    script: list[Turn] = [
        call("summarize", url=pages + "article.html"),
        Reply(text="A long read about kettles.", input_tokens=20_000, output_tokens=30),
        lambda body: call("finish", result=json.dumps(last_result(body))),
    ]
    async with OpenAIChatServer(script) as server:
        report = await run(server, session, skills, pages + "login.html")
    assert report.status == "COMPLETED", report.reason
    summarized = json.loads(report.result or "")
    # The summary, not the page again: its text stays out of the details.
    assert summarized["output"] == "A long read about kettles." and "content" not in summarized["details"]
    assert summarized["details"]["summarized_characters"] < summarized["details"]["characters"]
    summary_request = server.bodies[1]
    assert "Paragraph 0:" in summary_request["messages"][1]["content"]
    assert request_tokens(summary_request) <= DEFAULT_REQUEST_BUDGET
    assert report.usage.input_tokens == 10 + 20_000 + 10 and report.usage.output_tokens == 5 + 30 + 5


async def test_a_task_too_long_for_any_request_is_refused(tmp_path: Path) -> None:
    async with OpenAIChatServer([call("finish", result="done")]) as server:
        env = environment(tmp_path, PAGELENS_MODEL_BASE_URL=server.base_url, PAGELENS_MODEL_API_KEY="test-key")
        code, out, err = await pagelens_run("Find the kettle. " * 5_000, "--model", "local/m", env=env)
    assert code == 1 and out == ""
    assert "error: [invalid_request] the task is" in err and "Traceback" not in err
    assert server.requests == []


def test_limits_refuse_what_would_end_a_run_before_it_began() -> None:
    for limits in ({"max_steps": 0}, {"max_steps": -3}, {"time_limit_s": 0}, {"request_budget": -1}):
        with pytest.raises(InvalidRequestError, match="must be positive"):
            Limits(**limits)


# ---- model servers that misbehave


class CutShort(OpenAIChatServer):
    """A connection that drops after the first events of every answer."""

    def events(self, reply: Reply, body: dict[str, Any], number: int) -> Iterator[str]:
        yield from list(super().events(reply, body, number))[:3]


class CutShortAnthropic(AnthropicMessagesServer):
    def events(self, reply: Reply, body: dict[str, Any], number: int) -> Iterator[str]:
        yield from list(super().events(reply, body, number))[:4]


class Stalls(OpenAIChatServer):
    """Sends the first event of an answer, then nothing for longer than the client waits."""

    async def _timed(self, events: AsyncIterator[str], arrived: float) -> AsyncIterator[str]:
        async for event in events:
            yield event
            break
        await asyncio.sleep(3)


class BreaksOff(OpenAIChatServer):
    """Sends the first event of an answer, then the connection breaks."""

    async def _timed(self, events: AsyncIterator[str], arrived: float) -> AsyncIterator[str]:
        async for event in events:
            yield event
            break
        raise ConnectionResetError("the proxy went away")


class SameIndex(OpenAIChatServer):
    """Ollama's way: every tool-call delta of an answer has index 0 (older versions: none)."""

    def __init__(self, *args: Any, index: int | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.index = index

    def events(self, reply: Reply, body: dict[str, Any], number: int) -> Iterator[str]:
        for event in super().events(reply, body, number):
            chunk = json.loads(event.removeprefix("data: ")) if event.startswith("data: {") else {}
            parts = [p for choice in chunk.get("choices", []) for p in choice["delta"].get("tool_calls", [])]
            for part in parts:
                part.pop("index")
                if self.index is not None:
                    part["index"] = self.index
            yield f"data: {json.dumps(chunk)}\n\n" if parts else event


async def test_an_answer_that_is_not_a_stream_ends_the_run_as_a_model_error(
    shop: str, session: Session, skills: Skills
) -> None:
    # A server that ignores "stream": true (or a proxy's page) must not pass for a model
    # that stopped calling tools.
    completion = {"object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant"}}]}
    async with OpenAIChatServer([Fail(200, body=completion)]) as server:
        report = await run(server, session, skills, shop + "index.html")
    assert report.status == "FAILED" and report.error == ErrorCode.MODEL_ERROR
    assert report.reason is not None and "application/json, not a stream of events" in report.reason


@pytest.mark.parametrize("server_class", [CutShort, CutShortAnthropic])
async def test_a_stream_cut_short_is_a_model_error(server_class: type[OpenAIChatServer]) -> None:
    reply = Reply(text="I will open the page now.", tool_calls=[Call("navigate", {"url": "https://example.com"})])
    async with server_class([reply]) as server, model_at(server, max_retries=0) as model:
        with pytest.raises(ModelError) as raised:
            await model.complete([Message(role="user", content="Go")])
    assert raised.value.code == ErrorCode.MODEL_ERROR


@pytest.mark.parametrize(("server_class", "said"), [(Stalls, "stopped streaming"), (BreaksOff, "broke off")])
async def test_a_stream_that_stalls_or_breaks_is_model_unavailable(
    server_class: type[OpenAIChatServer], said: str
) -> None:
    reply = Reply(text="I will open the page now.")
    async with server_class([reply]) as server, model_at(server, max_retries=0, timeout=1) as model:
        with pytest.raises(ModelError) as raised:
            await model.complete([Message(role="user", content="Go")])
    assert raised.value.code == ErrorCode.MODEL_UNAVAILABLE and said in raised.value.message


@pytest.mark.parametrize("index", [None, 0])
async def test_parallel_calls_that_share_an_index_stay_apart(index: int | None) -> None:
    reply = Reply(tool_calls=[Call("plan", {"steps": [{"description": "Look"}]}), Call("finish", {"result": "ok"})])
    async with SameIndex([reply], index=index) as server, model_at(server) as model:
        events = [event async for event in model.stream([Message(role="user", content="Go")])]
    done = events[-1]
    assert isinstance(done, Done)
    calls = [(c.name, c.arguments, c.id) for c in done.completion.tool_calls]
    assert calls == [
        ("plan", {"steps": [{"description": "Look"}]}, "call_1_0"),
        ("finish", {"result": "ok"}, "call_1_1"),
    ]


async def test_an_empty_answer_sends_no_empty_turn_to_anthropic(shop: str, session: Session, skills: Skills) -> None:
    # The Messages API refuses a turn without content: the nudge must not carry one.
    async with (
        AnthropicMessagesServer([Reply(text=""), call("finish", result="done")]) as server,
        model_at(server) as model,
    ):
        agent = Agent(model=model, session=session, skills=skills)
        report = await agent.run("Anything", url=shop + "index.html")
    assert report.status == "COMPLETED"
    assert all(turn["content"] for turn in server.bodies[1]["messages"])
