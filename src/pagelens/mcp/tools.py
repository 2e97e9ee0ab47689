"""The two tools, `interact` and `analyze`: their MCP definitions, built from the action
layer's request models, and what each call does with the browser session."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mcp.types import CallToolResult, Tool, ToolAnnotations

from pagelens.actions import registry
from pagelens.actions.models import AnalyzeRequest, InteractRequest
from pagelens.actions.session import Session
from pagelens.mcp import descriptions
from pagelens.mcp.results import tool_result
from pagelens.mcp.schemas import input_schema


async def interact(session: Session, request: InteractRequest) -> CallToolResult:
    data = await session.interact(request)
    # A screenshot action carries its JPEG as base64 in the JSON; an image block is where
    # an MCP client looks for it (and the JSON stays small).
    image = data.pop("image", None)
    mime_type = data.pop("mime_type", None)
    if image is None:
        return tool_result(data)
    return tool_result(data, image, mime_type)


async def analyze(session: Session, request: AnalyzeRequest) -> CallToolResult:
    result = await session.analyze(request)
    if result.image is None:
        return tool_result(result.data)
    return tool_result(result.data, result.image, result.data["mime_type"])


@dataclass(frozen=True)
class ToolSpec:
    name: str
    request: type[InteractRequest] | type[AnalyzeRequest]
    description: str
    parameters: dict[str, str]
    annotations: ToolAnnotations
    run: Callable[[Session, Any], Awaitable[CallToolResult]]

    def parse(self, arguments: dict[str, Any]) -> Any:
        """The validated request; a bad or unknown parameter raises an
        InvalidRequestError naming it, before any browser is involved."""
        return self.request.parse(arguments)

    def definition(self) -> Tool:
        schema = input_schema(self.request)
        schema.pop("description", None)  # the tool's description says it once
        for name, prop in schema["properties"].items():
            prop.setdefault("description", self.parameters[name])
        return Tool(
            name=self.name,
            description=self.description,
            input_schema=schema,
            annotations=self.annotations,
        )


TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec(
            name="interact",
            request=InteractRequest,
            description=descriptions.INTERACT
            + "\n\n"
            + inspect.cleandoc(InteractRequest.__doc__ or "")
            + "\n\n"
            + registry.describe(),
            parameters=descriptions.INTERACT_PARAMETERS,
            annotations=ToolAnnotations(
                title="Navigate and act", read_only_hint=False, open_world_hint=True
            ),
            run=interact,
        ),
        ToolSpec(
            name="analyze",
            request=AnalyzeRequest,
            description=descriptions.ANALYZE
            + "\n\n"
            + inspect.cleandoc(AnalyzeRequest.__doc__ or ""),
            parameters=descriptions.ANALYZE_PARAMETERS,
            annotations=ToolAnnotations(
                title="Read the page", read_only_hint=True, open_world_hint=True
            ),
            run=analyze,
        ),
    )
}
