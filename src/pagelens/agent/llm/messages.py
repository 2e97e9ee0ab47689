"""The provider-neutral conversation: messages, tool declarations, tool calls and usage.

Every provider client translates these to and from its own wire format; the agent's loop
and the daemon only ever see these types."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class ToolCall(BaseModel):
    """One call the model asks for; `arguments` is the parsed JSON object it sent.

    When what it sent is not a JSON object, `arguments` is empty and `invalid_arguments`
    holds the text as sent: the agent's loop answers such a call with an error for the model
    rather than run the tool on a guess."""

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    invalid_arguments: str | None = None


class Message(BaseModel):
    """One turn. A `tool` message answers the assistant's call with the same `tool_call_id`."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None  # the tool's name, on a tool message


class ToolDefinition(BaseModel):
    """A tool as a model sees it: a name, what it does, and its parameters' JSON schema."""

    name: str
    description: str
    parameters: dict[str, Any]


class Usage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
        )


class Completion(BaseModel):
    """The model's whole answer to one request."""

    text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    stop_reason: str | None = None  # the provider's own word: "stop", "tool_calls", "end_turn", ...

    def message(self) -> Message:
        return Message(role="assistant", content=self.text, tool_calls=list(self.tool_calls))


class TextDelta(BaseModel):
    """A piece of streamed text."""

    type: Literal["text"] = "text"
    text: str


class Done(BaseModel):
    """The end of a stream: the whole completion, tool calls assembled."""

    type: Literal["done"] = "done"
    completion: Completion


StreamEvent = TextDelta | Done
