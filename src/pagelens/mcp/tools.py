"""The tools, `interact`, `analyze` and `summarize`, as MCP tools: their declarations come from the
action layer (actions/tools.py); here is what each call does with the browser session and
how its result becomes MCP content."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mcp.types import CallToolResult, Tool, ToolAnnotations

from pagelens.actions import tools
from pagelens.actions.models import AnalyzeRequest, InteractRequest
from pagelens.actions.session import Session
from pagelens.agent.llm import open_model, resolve_model
from pagelens.agent.tools.summarize import summarize as summarize_page
from pagelens.extraction.models import SummarizeRequest
from pagelens.mcp.results import tool_result


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


async def summarize(session: Session, request: SummarizeRequest) -> CallToolResult:
    """Extract-only needs no model; a summary uses the one the request names, else the
    configured one (no_model_available says what to set)."""
    if request.extractOnly:
        result, restarted = await session.on_live_browser(lambda browser: summarize_page(request, browser, None))
    else:
        model = open_model(resolve_model(request.model or "auto"))
        try:
            result, restarted = await session.on_live_browser(lambda browser: summarize_page(request, browser, model))
        finally:
            await model.aclose()
    data = result.for_model()
    if restarted:
        data["browser_restarted"] = True
    return tool_result(data)


@dataclass(frozen=True)
class ToolSpec:
    declaration: tools.ToolDeclaration
    run: Callable[[Session, Any], Awaitable[CallToolResult]]

    def parse(self, arguments: dict[str, Any]) -> Any:
        return self.declaration.parse(arguments)

    def definition(self) -> Tool:
        declared = self.declaration
        return Tool(
            name=declared.name,
            description=declared.description,
            input_schema=declared.schema(),
            annotations=ToolAnnotations(title=declared.title, read_only_hint=declared.read_only, open_world_hint=True),
        )


TOOLS: dict[str, ToolSpec] = {
    spec.declaration.name: spec
    for spec in (
        ToolSpec(tools.INTERACT, interact),
        ToolSpec(tools.ANALYZE, analyze),
        ToolSpec(tools.SUMMARIZE, summarize),
    )
}
