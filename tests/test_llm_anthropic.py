"""The Anthropic client against a local server speaking the Messages API: streaming,
tool_use blocks assembled from input_json_delta, the system and tool_result mapping,
retries and the typed errors."""

from __future__ import annotations

import time

import pytest

from pagelens.agent.llm import (
    Done,
    Message,
    ModelError,
    TextDelta,
    ToolCall,
)
from pagelens.errors import ErrorCode
from tests.llm_servers import NAVIGATE, AnthropicMessagesServer, Call, Fail, Hang, Reply, model_at


async def test_text_streams_in_pieces_then_one_done() -> None:
    reply = Reply(text="Hello, web page!", chunk_size=4, input_tokens=42, output_tokens=7)
    async with AnthropicMessagesServer([reply]) as s, model_at(s) as model:
        events = [event async for event in model.stream([Message(role="user", content="hi")])]
    deltas = [e for e in events if isinstance(e, TextDelta)]
    assert [d.text for d in deltas] == ["Hell", "o, w", "eb p", "age!"]
    assert [type(e) for e in events[len(deltas) :]] == [Done]
    done = events[-1]
    assert isinstance(done, Done)
    assert done.completion.text == "Hello, web page!"
    assert done.completion.stop_reason == "end_turn"
    assert (done.completion.usage.input_tokens, done.completion.usage.output_tokens) == (42, 7)
    assert s.bodies[0]["stream"] is True
    assert s.key(s.requests[0].headers) == "test-key"


async def test_parallel_tool_calls_are_assembled_from_input_json_deltas() -> None:
    reply = Reply(
        text="Opening.",
        tool_calls=[
            Call("navigate", {"url": "https://example.com/a/long/path?q=1"}, id="toolu_a"),
            Call("click", {"element_id": "e12", "button": "left"}, id="toolu_b"),
        ],
        chunk_size=5,
    )
    async with AnthropicMessagesServer([reply]) as s, model_at(s) as model:
        completion = await model.complete([Message(role="user", content="go")], [NAVIGATE])
    assert completion.text == "Opening."
    assert completion.tool_calls == [
        ToolCall(id="toolu_a", name="navigate", arguments={"url": "https://example.com/a/long/path?q=1"}),
        ToolCall(id="toolu_b", name="click", arguments={"element_id": "e12", "button": "left"}),
    ]
    assert completion.stop_reason == "tool_use"


async def test_a_call_without_arguments_has_empty_arguments() -> None:
    async with AnthropicMessagesServer([Reply(tool_calls=[Call("go_back", id="t1")])]) as s, model_at(s) as model:
        completion = await model.complete([Message(role="user", content="back")])
    assert completion.tool_calls == [ToolCall(id="t1", name="go_back")]


async def test_arguments_that_are_not_json_are_kept_for_the_loop() -> None:
    script = [Reply(tool_calls=[Call("click", '{"element_id": ', id="t1")])]
    async with AnthropicMessagesServer(script) as s, model_at(s) as model:
        completion = await model.complete([Message(role="user", content="go")])
    assert completion.tool_calls == [ToolCall(id="t1", name="click", invalid_arguments='{"element_id": ')]


async def test_system_goes_to_its_parameter_and_tool_results_to_one_user_turn() -> None:
    conversation = [
        Message(role="system", content="You drive a browser."),
        Message(role="user", content="Open example.com and click Next"),
        Message(
            role="assistant",
            content="Doing both.",
            tool_calls=[
                ToolCall(id="t1", name="navigate", arguments={"url": "https://example.com"}),
                ToolCall(id="t2", name="click", invalid_arguments="{oops"),
            ],
        ),
        Message(role="tool", tool_call_id="t1", name="navigate", content="loaded"),
        Message(role="tool", tool_call_id="t2", name="click", content="error: arguments are not JSON"),
        Message(role="system", content="Be brief."),
        Message(role="user", content="And now?"),
    ]
    async with AnthropicMessagesServer([Reply(text="done")]) as s, model_at(s) as model:
        await model.complete(conversation, [NAVIGATE], max_output_tokens=300)
    body = s.bodies[0]
    assert body["model"] == "scripted" and body["max_tokens"] == 300
    assert body["system"] == "You drive a browser.\n\nBe brief."
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Open example.com and click Next"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Doing both."},
                {"type": "tool_use", "id": "t1", "name": "navigate", "input": {"url": "https://example.com"}},
                {"type": "tool_use", "id": "t2", "name": "click", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "loaded"},
                {"type": "tool_result", "tool_use_id": "t2", "content": "error: arguments are not JSON"},
                {"type": "text", "text": "And now?"},
            ],
        },
    ]
    assert body["tools"] == [
        {"name": "navigate", "description": "Open a URL.", "input_schema": NAVIGATE.parameters},
    ]


async def test_no_system_and_no_tools_are_left_out() -> None:
    async with AnthropicMessagesServer([Reply(text="ok")]) as s, model_at(s, max_output_tokens=99) as model:
        await model.complete([Message(role="user", content="hi")])
    assert "system" not in s.bodies[0] and "tools" not in s.bodies[0]
    assert s.bodies[0]["max_tokens"] == 99


async def test_429_is_retried_after_the_retry_after_header() -> None:
    async with AnthropicMessagesServer([Fail(429, retry_after=1), Reply(text="ok")]) as s, model_at(s) as model:
        started = time.monotonic()
        completion = await model.complete([Message(role="user", content="hi")])
        elapsed = time.monotonic() - started
    assert completion.text == "ok"
    assert len(s.requests) == 2
    assert s.requests[1].at - s.requests[0].at >= 0.95
    assert elapsed < 5


@pytest.mark.parametrize("status", [500, 529])
async def test_server_errors_are_retried(status: int) -> None:
    async with AnthropicMessagesServer([Fail(status), Reply(text="ok")]) as s, model_at(s) as model:
        completion = await model.complete([Message(role="user", content="hi")])
    assert completion.text == "ok" and len(s.requests) == 2


async def test_a_429_that_persists_is_model_rate_limited() -> None:
    script = [Fail(429, retry_after=0.01, message="slow down")] * 3
    async with AnthropicMessagesServer(script) as s, model_at(s, max_retries=2) as model:
        with pytest.raises(ModelError) as caught:
            await model.complete([Message(role="user", content="hi")])
    assert caught.value.code == ErrorCode.MODEL_RATE_LIMITED and caught.value.status == 429
    assert "slow down" in caught.value.message
    assert len(s.requests) == 3


async def test_a_wrong_key_is_model_auth_failed_without_retries() -> None:
    server = AnthropicMessagesServer([Reply(text="never")], api_key="right")
    async with server as s, model_at(s, api_key="wrong") as model:
        with pytest.raises(ModelError) as caught:
            await model.complete([Message(role="user", content="hi")])
    assert caught.value.code == ErrorCode.MODEL_AUTH_FAILED
    assert len(s.requests) == 1 and s.key(s.requests[0].headers) == "wrong"
    assert "invalid api key" in caught.value.message and "wrong" not in caught.value.message


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (403, ErrorCode.MODEL_AUTH_FAILED),
        (404, ErrorCode.MODEL_NOT_FOUND),
        (400, ErrorCode.MODEL_BAD_REQUEST),
        (413, ErrorCode.MODEL_BAD_REQUEST),
        (529, ErrorCode.MODEL_UNAVAILABLE),
        (402, ErrorCode.MODEL_ERROR),
    ],
)
async def test_statuses_map_to_codes(status: int, code: ErrorCode) -> None:
    async with AnthropicMessagesServer([Fail(status)]) as s, model_at(s, max_retries=0) as model:
        with pytest.raises(ModelError) as caught:
            await model.complete([Message(role="user", content="hi")])
    assert caught.value.code == code and caught.value.status == status


async def test_a_hung_server_is_model_unavailable_within_the_timeout() -> None:
    async with AnthropicMessagesServer([Hang(10)]) as s, model_at(s, timeout=0.5, max_retries=0) as model:
        started = time.monotonic()
        with pytest.raises(ModelError) as caught:
            await model.complete([Message(role="user", content="hi")])
        elapsed = time.monotonic() - started
    assert caught.value.code == ErrorCode.MODEL_UNAVAILABLE
    assert 0.4 < elapsed < 2
