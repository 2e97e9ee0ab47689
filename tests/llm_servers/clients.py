"""A pagelens model client for a scripted server, and a tool to declare to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from pagelens.agent.llm import ChatModel, ModelConfig, ToolDefinition, open_model

from .server import ScriptedServer

NAVIGATE = ToolDefinition(
    name="navigate",
    description="Open a URL.",
    parameters={"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
)


@asynccontextmanager
async def model_at(server: ScriptedServer, **overrides: Any) -> AsyncIterator[ChatModel]:
    """A client of `server` (its wire, its key; the SDK's two retries), closed after."""
    fields: dict[str, Any] = {
        "provider": server.wire,
        "model": "scripted",
        "api_key": server.api_key,
        "base_url": server.base_url,
        "wire": server.wire,
        "max_retries": 2,
    }
    model = open_model(ModelConfig(**(fields | overrides)))
    try:
        yield model
    finally:
        await model.aclose()
