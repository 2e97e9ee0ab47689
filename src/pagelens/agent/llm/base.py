"""What the agent's loop needs from a model, whichever provider serves it: a stream of text
pieces ending in one `Done`, or the same answer all at once."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pagelens.agent.llm.messages import Completion, Done, Message, StreamEvent, ToolCall, ToolDefinition, Usage
from pagelens.agent.llm.models import ModelConfig


class ChatModel(Protocol):
    config: ModelConfig

    def stream(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolDefinition] = (),
        *,
        max_output_tokens: int | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """TextDelta events as the text arrives, then exactly one Done with the whole
        completion. Raises a ModelError once the SDK's retries are spent."""
        ...

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolDefinition] = (),
        *,
        max_output_tokens: int | None = None,
    ) -> Completion:
        """The whole completion: `stream` drained."""
        ...

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        ...


class StreamingModel:
    """What every client shares: `complete` is its `stream` drained."""

    def stream(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolDefinition] = (),
        *,
        max_output_tokens: int | None = None,
    ) -> AsyncIterator[StreamEvent]:
        raise NotImplementedError

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolDefinition] = (),
        *,
        max_output_tokens: int | None = None,
    ) -> Completion:
        return await drain(self.stream(messages, tools, max_output_tokens=max_output_tokens))


async def drain(events: AsyncIterator[StreamEvent]) -> Completion:
    """The completion a stream ends with."""
    async for event in events:
        if isinstance(event, Done):
            return event.completion
    raise AssertionError("a model stream ended without Done")


@dataclass
class PartialCall:
    """A tool call while its pieces stream in."""

    id: str
    name: str = ""
    arguments: str = ""


def assembled(text: list[str], calls: dict[int, PartialCall], usage: Usage, stop_reason: str | None) -> Done:
    """The end of a stream: its text pieces joined, its calls in their order, parsed."""
    completion = Completion(
        text="".join(text),
        tool_calls=[tool_call(c.id, c.name, c.arguments) for _, c in sorted(calls.items())],
        usage=usage,
        stop_reason=stop_reason,
    )
    return Done(completion=completion)


def tool_call(call_id: str, name: str, arguments: str) -> ToolCall:
    """A call from the JSON text of its arguments. Text that is not a JSON object leaves
    `arguments` empty and keeps the text in `invalid_arguments`, so the agent's loop can tell
    the model its call was malformed instead of running the tool with guessed arguments."""
    if not arguments.strip():
        return ToolCall(id=call_id, name=name)
    try:
        parsed: Any = json.loads(arguments)
    except json.JSONDecodeError:
        parsed = None
    if isinstance(parsed, dict):
        return ToolCall(id=call_id, name=name, arguments=parsed)
    return ToolCall(id=call_id, name=name, invalid_arguments=arguments)
