"""Anthropic's Messages API, through the official SDK."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any, cast

import anthropic
import httpx2
from anthropic import types
from anthropic.types import (
    InputJSONDelta,
    MessageDeltaUsage,
    MessageParam,
    RawContentBlockDeltaEvent,
    RawContentBlockStartEvent,
    RawMessageDeltaEvent,
    RawMessageStartEvent,
    ToolParam,
    ToolUseBlock,
)

from pagelens.agent.llm.base import PartialCall, StreamingModel, assembled
from pagelens.agent.llm.errors import ModelError, ModelUnavailableError, error_for_status, lost_stream
from pagelens.agent.llm.messages import Message, StreamEvent, TextDelta, ToolDefinition, Usage
from pagelens.agent.llm.models import ModelConfig


class AnthropicChatModel(StreamingModel):
    """A ChatModel over `anthropic.AsyncAnthropic`; the SDK does the retries and timeouts."""

    def __init__(self, config: ModelConfig) -> None:
        self.config = config
        self._client = anthropic.AsyncAnthropic(
            api_key=config.api_key,
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
        system, turns = wire_messages(messages)
        text: list[str] = []
        calls: dict[int, PartialCall] = {}
        usage = Usage()
        stop_reason: str | None = None
        try:
            response = await self._client.messages.create(
                model=self.config.model,
                max_tokens=max_output_tokens or self.config.max_output_tokens,
                messages=cast(list[MessageParam], turns),
                system=system or anthropic.omit,
                tools=[cast(ToolParam, wire_tool(t)) for t in tools] or anthropic.omit,
                stream=True,
            )
            async with response:
                async for event in response:
                    if isinstance(event, RawMessageStartEvent):
                        usage = Usage(
                            input_tokens=_input_tokens(event.message.usage),
                            output_tokens=event.message.usage.output_tokens,
                        )
                    elif isinstance(event, RawContentBlockStartEvent) and isinstance(event.content_block, ToolUseBlock):
                        calls[event.index] = PartialCall(event.content_block.id, event.content_block.name)
                    elif isinstance(event, RawContentBlockDeltaEvent):
                        if isinstance(event.delta, types.TextDelta):
                            text.append(event.delta.text)
                            yield TextDelta(text=event.delta.text)
                        elif isinstance(event.delta, InputJSONDelta) and event.index in calls:
                            calls[event.index].arguments += event.delta.partial_json
                    elif isinstance(event, RawMessageDeltaEvent):
                        stop_reason = event.delta.stop_reason or stop_reason
                        usage = Usage(
                            input_tokens=usage.input_tokens
                            if event.usage.input_tokens is None
                            else _input_tokens(event.usage),
                            output_tokens=event.usage.output_tokens,
                        )
        except anthropic.APIError as exc:
            raise self._error(exc) from exc
        except httpx2.TransportError as exc:  # during the body: the SDK maps only what comes before it
            raise lost_stream(self.config.where, self.config.timeout, exc) from exc
        if stop_reason is None:
            # Taken as an answer, this would be an empty or half one: the run would end as
            # if the model had stopped calling tools.
            raise ModelError(f"{self.config.where} ended its answer before its stop reason")
        yield assembled(text, calls, usage, stop_reason)

    async def aclose(self) -> None:
        await self._client.close()

    def _error(self, exc: anthropic.APIError) -> ModelError:
        where = self.config.where
        if isinstance(exc, anthropic.APITimeoutError):
            return ModelUnavailableError(f"{where} did not answer within {self.config.timeout:g} s")
        if isinstance(exc, anthropic.APIConnectionError):
            return ModelUnavailableError(f"could not reach {where}: {exc.__cause__ or exc}")
        error = exc.body.get("error") if isinstance(exc.body, dict) else None
        detail = error.get("message", exc.message) if isinstance(error, dict) else exc.message
        if isinstance(exc, anthropic.APIStatusError):
            return error_for_status(exc.status_code, f"{where} answered {exc.status_code}: {detail}")
        return ModelError(f"{where} failed: {detail}")


def _input_tokens(usage: types.Usage | MessageDeltaUsage) -> int:
    """All the prompt's tokens: Anthropic counts the cached part apart."""
    return (usage.input_tokens or 0) + (usage.cache_creation_input_tokens or 0) + (usage.cache_read_input_tokens or 0)


def wire_tool(tool: ToolDefinition) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "input_schema": tool.parameters}


def wire_messages(messages: Sequence[Message]) -> tuple[str, list[dict[str, Any]]]:
    """The `system` text and the turns as the Messages API takes them: system messages go
    to `system`, tool results become `tool_result` blocks of a user turn, and consecutive
    turns of one role are merged (the API wants user and assistant to alternate)."""
    system = "\n\n".join(m.content for m in messages if m.role == "system" and m.content)
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            continue
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message)
        if not blocks:  # an answer with neither text nor calls: the API refuses an empty turn
            continue
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    return system, turns


def _blocks(message: Message) -> list[dict[str, Any]]:
    if message.role == "tool":
        return [{"type": "tool_result", "tool_use_id": message.tool_call_id, "content": message.content}]
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message.content}] if message.content else []
    blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in message.tool_calls]
    return blocks
