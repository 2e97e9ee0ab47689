"""The OpenAI-wire client against a local server speaking Chat Completions: streaming,
tool calls assembled from deltas, what it sends, retries and the typed errors."""

from __future__ import annotations

import time
from typing import Any

import pytest

from pagelens.agent.llm import (
    Done,
    Message,
    ModelConfig,
    ModelError,
    TextDelta,
    ToolCall,
    open_model,
)
from pagelens.agent.llm.models import Provider
from pagelens.errors import ErrorCode
from tests.llm_servers import NAVIGATE, Call, Fail, Hang, OpenAIChatServer, Reply, model_at


async def test_text_streams_in_pieces_then_one_done() -> None:
    reply = Reply(text="Hello, web page!", chunk_size=4, input_tokens=42, output_tokens=7)
    async with OpenAIChatServer([reply]) as s, model_at(s) as model:
        events = [event async for event in model.stream([Message(role="user", content="hi")])]
    deltas = [e for e in events if isinstance(e, TextDelta)]
    assert [d.text for d in deltas] == ["Hell", "o, w", "eb p", "age!"]
    assert [type(e) for e in events[len(deltas) :]] == [Done]
    done = events[-1]
    assert isinstance(done, Done)
    assert done.completion.text == "Hello, web page!"
    assert done.completion.stop_reason == "stop"
    assert (done.completion.usage.input_tokens, done.completion.usage.output_tokens) == (42, 7)
    assert s.bodies[0]["stream"] is True and s.bodies[0]["stream_options"] == {"include_usage": True}


async def test_parallel_tool_calls_are_assembled_from_split_deltas() -> None:
    reply = Reply(
        text="Opening.",
        tool_calls=[
            Call("navigate", {"url": "https://example.com/a/long/path?q=1"}, id="call_a"),
            Call("click", {"element_id": "e12", "button": "left"}, id="call_b"),
        ],
        chunk_size=5,
    )
    async with OpenAIChatServer([reply]) as s, model_at(s) as model:
        completion = await model.complete([Message(role="user", content="go")], [NAVIGATE])
    assert completion.text == "Opening."
    assert completion.tool_calls == [
        ToolCall(id="call_a", name="navigate", arguments={"url": "https://example.com/a/long/path?q=1"}),
        ToolCall(id="call_b", name="click", arguments={"element_id": "e12", "button": "left"}),
    ]
    assert completion.stop_reason == "tool_calls"


async def test_arguments_that_are_not_a_json_object_are_kept_for_the_loop() -> None:
    script = [Reply(tool_calls=[Call("click", '{"element_id": "e1"', id="c1"), Call("scroll", "[1, 2]", id="c2")])]
    async with OpenAIChatServer(script) as s, model_at(s) as model:
        completion = await model.complete([Message(role="user", content="go")])
    broken, listed = completion.tool_calls
    assert (broken.arguments, broken.invalid_arguments) == ({}, '{"element_id": "e1"')
    assert (listed.arguments, listed.invalid_arguments) == ({}, "[1, 2]")


async def test_the_conversation_and_tools_as_sent() -> None:
    conversation = [
        Message(role="system", content="You drive a browser."),
        Message(role="user", content="Open example.com"),
        Message(
            role="assistant",
            content="",
            tool_calls=[
                ToolCall(id="c1", name="navigate", arguments={"url": "https://example.com"}),
                ToolCall(id="c2", name="click", invalid_arguments="{oops"),
            ],
        ),
        Message(role="tool", tool_call_id="c1", name="navigate", content="loaded"),
        Message(role="tool", tool_call_id="c2", name="click", content="error: arguments are not JSON"),
    ]
    async with OpenAIChatServer([Reply(text="done")]) as s, model_at(s) as model:
        await model.complete(conversation, [NAVIGATE], max_output_tokens=300)
    body = s.bodies[0]
    assert body["model"] == "scripted"
    assert body["messages"] == [
        {"role": "system", "content": "You drive a browser."},
        {"role": "user", "content": "Open example.com"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "navigate", "arguments": '{"url": "https://example.com"}'},
                },
                {"id": "c2", "type": "function", "function": {"name": "click", "arguments": "{oops"}},
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "loaded"},
        {"role": "tool", "tool_call_id": "c2", "content": "error: arguments are not JSON"},
    ]
    assert body["tools"] == [{"type": "function", "function": NAVIGATE.model_dump()}]
    assert body["max_completion_tokens"] == 300 and "max_tokens" not in body


@pytest.mark.parametrize("provider", ["local", "google", "xai", "zai", "openrouter"])
async def test_compatible_servers_get_max_tokens(provider: Provider) -> None:
    async with OpenAIChatServer([Reply(text="ok")]) as s, model_at(s, provider=provider, max_output_tokens=77) as model:
        await model.complete([Message(role="user", content="hi")])
    assert s.bodies[0]["max_tokens"] == 77 and "max_completion_tokens" not in s.bodies[0]
    assert "tools" not in s.bodies[0]


async def test_a_scripted_turn_can_answer_what_was_sent() -> None:
    def echo(body: dict[str, Any]) -> Reply:
        return Reply(text=body["messages"][-1]["content"].upper())

    async with OpenAIChatServer([echo]) as s, model_at(s) as model:
        completion = await model.complete([Message(role="user", content="shout this")])
    assert completion.text == "SHOUT THIS"


async def test_429_is_retried_after_the_retry_after_header() -> None:
    async with OpenAIChatServer([Fail(429, retry_after=1), Reply(text="ok")]) as s, model_at(s) as model:
        started = time.monotonic()
        completion = await model.complete([Message(role="user", content="hi")])
        elapsed = time.monotonic() - started
    assert completion.text == "ok"
    assert len(s.requests) == 2
    assert s.requests[1].at - s.requests[0].at >= 0.95
    assert elapsed < 5


async def test_500_is_retried() -> None:
    async with OpenAIChatServer([Fail(500), Reply(text="ok")]) as s, model_at(s) as model:
        completion = await model.complete([Message(role="user", content="hi")])
    assert completion.text == "ok" and len(s.requests) == 2


async def test_a_429_that_persists_is_model_rate_limited() -> None:
    script = [Fail(429, retry_after=0.01, message="slow down")] * 3
    async with OpenAIChatServer(script) as s, model_at(s, max_retries=2) as model:
        with pytest.raises(ModelError) as caught:
            await model.complete([Message(role="user", content="hi")])
    assert caught.value.code == ErrorCode.MODEL_RATE_LIMITED and caught.value.status == 429
    assert "slow down" in caught.value.message
    assert len(s.requests) == 3


async def test_a_wrong_key_is_model_auth_failed_without_retries() -> None:
    async with OpenAIChatServer([Reply(text="never")], api_key="right") as s, model_at(s, api_key="wrong") as model:
        with pytest.raises(ModelError) as caught:
            await model.complete([Message(role="user", content="hi")])
    assert caught.value.code == ErrorCode.MODEL_AUTH_FAILED
    assert len(s.requests) == 1 and s.key(s.requests[0].headers) == "wrong"
    assert "wrong" not in caught.value.message


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (403, ErrorCode.MODEL_AUTH_FAILED),
        (404, ErrorCode.MODEL_NOT_FOUND),
        (400, ErrorCode.MODEL_BAD_REQUEST),
        (422, ErrorCode.MODEL_BAD_REQUEST),
        (503, ErrorCode.MODEL_UNAVAILABLE),
        (402, ErrorCode.MODEL_ERROR),
    ],
)
async def test_statuses_map_to_codes(status: int, code: ErrorCode) -> None:
    async with OpenAIChatServer([Fail(status)]) as s, model_at(s, max_retries=0) as model:
        with pytest.raises(ModelError) as caught:
            await model.complete([Message(role="user", content="hi")])
    assert caught.value.code == code and caught.value.status == status


async def test_a_hung_server_is_model_unavailable_within_the_timeout() -> None:
    async with OpenAIChatServer([Hang(10)]) as s, model_at(s, timeout=0.5, max_retries=0) as model:
        started = time.monotonic()
        with pytest.raises(ModelError) as caught:
            await model.complete([Message(role="user", content="hi")])
        elapsed = time.monotonic() - started
    assert caught.value.code == ErrorCode.MODEL_UNAVAILABLE
    assert 0.4 < elapsed < 2


async def test_a_hang_is_retried_like_a_lost_connection() -> None:
    async with OpenAIChatServer([Hang(10), Reply(text="ok")]) as s, model_at(s, timeout=0.5, max_retries=1) as model:
        completion = await model.complete([Message(role="user", content="hi")])
    assert completion.text == "ok" and len(s.requests) == 2


async def test_nothing_listening_is_model_unavailable() -> None:
    async with OpenAIChatServer() as s:
        config_url = s.base_url
    config = ModelConfig(provider="local", model="m", base_url=config_url, wire="openai", max_retries=0)
    model = open_model(config)
    try:
        with pytest.raises(ModelError) as caught:
            await model.complete([Message(role="user", content="hi")])
    finally:
        await model.aclose()
    assert caught.value.code == ErrorCode.MODEL_UNAVAILABLE
    assert config_url in caught.value.message
