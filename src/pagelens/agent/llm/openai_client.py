"""The OpenAI Chat Completions wire, through the official SDK. It serves OpenAI itself and
every provider that speaks the same API: Google, xAI, Z.ai, OpenRouter and local servers
(Ollama, vLLM, llama.cpp, LM Studio)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx2
import openai
from pydantic_core import from_json

from pagelens.agent.llm.base import PartialCall, StreamingModel, assembled
from pagelens.agent.llm.errors import ModelError, ModelUnavailableError, error_for_status, lost_stream
from pagelens.agent.llm.messages import (
    Message,
    StreamEvent,
    TextDelta,
    ToolDefinition,
    Usage,
)
from pagelens.agent.llm.models import ModelConfig

# Local servers take any key, but the SDK insists on one.
NO_KEY = "none"


class OpenAIChatModel(StreamingModel):
    """A ChatModel over `openai.AsyncOpenAI`; the SDK does the retries and timeouts."""

    def __init__(self, config: ModelConfig) -> None:
        self.config = config
        self._client = openai.AsyncOpenAI(
            api_key=config.api_key or NO_KEY,
            base_url=config.base_url,
            timeout=config.timeout,
            max_retries=config.max_retries,
        )

    async def stream(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolDefinition] = (),
        *,
        max_output_tokens: int | None = None,
    ) -> AsyncIterator[StreamEvent]:
        params = self._params(messages, tools, max_output_tokens or self.config.max_output_tokens)
        text: list[str] = []
        calls: dict[int, PartialCall] = {}
        usage = Usage()
        stop_reason: str | None = None
        stream, kind = _Stream(), "no content type"
        try:
            # The chunks as plain JSON: the SDK would build a typed object of each, which
            # takes longer than everything else the daemon does with a reply.
            async with self._client.chat.completions.with_streaming_response.create(**params) as response:
                async for chunk in self._chunks(response.iter_lines(), stream):
                    if chunk.get("usage"):
                        counts = chunk["usage"]
                        usage = Usage(
                            input_tokens=counts.get("prompt_tokens") or 0,
                            output_tokens=counts.get("completion_tokens") or 0,
                        )
                    for choice in (chunk.get("choices") or [])[:1]:
                        delta = choice.get("delta") or {}
                        if delta.get("content"):
                            text.append(delta["content"])
                            yield TextDelta(text=delta["content"])
                        for part in delta.get("tool_calls") or []:
                            call = stream.call(calls, part)
                            function = part.get("function") or {}
                            call.name += function.get("name") or ""
                            call.arguments += function.get("arguments") or ""
                        stop_reason = choice.get("finish_reason") or stop_reason
                kind = response.headers.get("content-type") or kind
        except openai.APIError as exc:
            raise self._error(exc) from exc
        except httpx2.TransportError as exc:  # during the body: the SDK maps only what comes before it
            raise lost_stream(self.config.where, self.config.timeout, exc) from exc
        if not stream.done and stop_reason is None:
            # Taken as an answer, this would be an empty or half one: the run would end as
            # if the model had stopped calling tools.
            where = self.config.where
            if not stream.events:
                sent = f"{stream.other[:200]!r}" if stream.other else "nothing"
                raise ModelError(f"{where} answered with {kind}, not a stream of events: {sent}")
            raise ModelError(f"{where} ended its stream before the answer was complete")
        yield assembled(text, calls, usage, stop_reason)

    async def _chunks(self, lines: AsyncIterator[str], stream: _Stream) -> AsyncIterator[dict[str, Any]]:
        """The JSON of each server-sent event but `[DONE]`; an event that carries an
        `error` (a failure after the stream began) raises it. The body is read to its
        end, after `[DONE]` too, so that its connection goes back to the pool."""
        data: list[str] = []
        async for line in lines:
            if line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
            elif not line and data:  # the end of an event (its other fields and comments do not count)
                if (chunk := self._event(data, stream)) is not None:
                    yield chunk
                data = []
            elif len(stream.other) < 200:  # what a server that does not stream sent instead
                stream.other += line
        if data and (chunk := self._event(data, stream)) is not None:  # a last event without its blank line
            yield chunk

    def _event(self, data: list[str], stream: _Stream) -> dict[str, Any] | None:
        stream.events += 1
        if data == ["[DONE]"]:
            stream.done = True
            return None
        return self._chunk("\n".join(data))

    def _chunk(self, text: str) -> dict[str, Any]:
        where = self.config.where
        try:
            chunk = from_json(text)
        except ValueError as exc:
            raise ModelError(f"{where} sent a chunk that is not JSON: {text[:200]}") from exc
        if not isinstance(chunk, dict):
            raise ModelError(f"{where} sent a chunk that is not a JSON object: {text[:200]}")
        if chunk.get("error"):
            error = chunk["error"]
            detail = error.get("message") if isinstance(error, dict) else None
            raise ModelError(f"{where} failed: {detail or error}")
        return chunk

    async def aclose(self) -> None:
        await self._client.close()

    def _params(self, messages: Sequence[Message], tools: Sequence[ToolDefinition], limit: int) -> dict[str, Any]:
        body: dict[str, Any] = {"messages": [wire_message(m) for m in messages]}
        if tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
                }
                for t in tools
            ]
        params: dict[str, Any] = {
            "model": self.config.model,
            "stream": True,
            "stream_options": {"include_usage": True},
            # The SDK walks `messages` and `tools` against its TypedDicts before sending them,
            # about 20 ms a request with the agent's tool schemas; ours are plain JSON
            # already, so they travel as they are, in the body the SDK merges last.
            "messages": [],
            "extra_body": body,
        }
        # OpenAI's reasoning models refuse `max_tokens`; the compatible servers know only it.
        params["max_completion_tokens" if self.config.provider == "openai" else "max_tokens"] = limit
        return params

    def _error(self, exc: openai.APIError) -> ModelError:
        where = self.config.where
        if isinstance(exc, openai.APITimeoutError):
            return ModelUnavailableError(f"{where} did not answer within {self.config.timeout:g} s")
        if isinstance(exc, openai.APIConnectionError):
            return ModelUnavailableError(f"could not reach {where}: {exc.__cause__ or exc}")
        detail = exc.body.get("message", exc.message) if isinstance(exc.body, dict) else exc.message
        if isinstance(exc, openai.APIStatusError):
            return error_for_status(exc.status_code, f"{where} answered {exc.status_code}: {detail}")
        return ModelError(f"{where} failed: {detail}")


@dataclass
class _Stream:
    """What a streamed answer held besides its chunks: whether it ended with `[DONE]`."""

    events: int = 0
    done: bool = False
    other: str = ""  # the start of any text that was no event
    slots: dict[int, int] = field(default_factory=dict)  # the server's index of a call → its place in `calls`
    named: set[int] = field(default_factory=set)  # the places whose id the server gave

    def call(self, calls: dict[int, PartialCall], part: dict[str, Any]) -> PartialCall:
        """The call a tool-call delta is part of. Some compatible servers (Ollama) send no
        index, or 0 for every call of an answer: a delta with another id starts a new call."""
        index = part.get("index")
        slot = self.slots.get(index, index) if isinstance(index, int) else max(calls, default=0)
        call_id = part.get("id")
        if call_id and slot in self.named and calls[slot].id != call_id:
            slot = max(calls) + 1
            if isinstance(index, int):
                self.slots[index] = slot
        call = calls.setdefault(slot, PartialCall(id=f"call_{slot}"))
        if call_id:
            call.id = call_id
            self.named.add(slot)
        return call


def wire_message(message: Message) -> dict[str, Any]:
    """A message as Chat Completions takes it."""
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    if message.role != "assistant" or not message.tool_calls:
        return {"role": message.role, "content": message.content}
    return {
        "role": "assistant",
        "content": message.content or None,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {
                    "name": call.name,
                    # What the model sent, even when it was not JSON: it is answering for it.
                    "arguments": call.invalid_arguments
                    if call.invalid_arguments is not None
                    else json.dumps(call.arguments),
                },
            }
            for call in message.tool_calls
        ],
    }
