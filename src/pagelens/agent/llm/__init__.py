"""Language models: provider-neutral messages, model ids and the provider clients.

`resolve_model("auto")` finds a configured model, `open_model(config)` a client for it;
every client is a `ChatModel`, so the agent's loop does not know which provider it talks to."""

from __future__ import annotations

from pagelens.agent.llm.base import ChatModel
from pagelens.agent.llm.errors import (
    InvalidModelConfigError,
    InvalidModelIdError,
    ModelAuthError,
    ModelBadRequestError,
    ModelError,
    ModelNotFoundError,
    ModelRateLimitedError,
    ModelUnavailableError,
    NoModelAvailableError,
)
from pagelens.agent.llm.messages import (
    Completion,
    Done,
    Message,
    StreamEvent,
    TextDelta,
    ToolCall,
    ToolDefinition,
    Usage,
)
from pagelens.agent.llm.models import ModelConfig, resolve_model


def open_model(config: ModelConfig) -> ChatModel:
    """A client for `config`. The SDK of the other wire is not imported."""
    if config.wire == "anthropic":
        from pagelens.agent.llm.anthropic_client import AnthropicChatModel

        return AnthropicChatModel(config)
    from pagelens.agent.llm.openai_client import OpenAIChatModel

    return OpenAIChatModel(config)


__all__ = [
    "ChatModel",
    "Completion",
    "Done",
    "InvalidModelConfigError",
    "InvalidModelIdError",
    "Message",
    "ModelAuthError",
    "ModelBadRequestError",
    "ModelConfig",
    "ModelError",
    "ModelNotFoundError",
    "ModelRateLimitedError",
    "ModelUnavailableError",
    "NoModelAvailableError",
    "StreamEvent",
    "TextDelta",
    "ToolCall",
    "ToolDefinition",
    "Usage",
    "open_model",
    "resolve_model",
]
