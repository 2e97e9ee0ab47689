"""The tools, `interact`, `analyze` and `summarize`, declared once: name, request model,
wording and hints. The MCP server and the agent both offer them from these declarations,
so an agent sees the same parameters and results whichever way it reaches pagelens."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from pagelens.actions import descriptions, registry
from pagelens.actions.models import AnalyzeRequest, InteractRequest
from pagelens.actions.schemas import input_schema, parse_arguments
from pagelens.extraction.models import SummarizeRequest


@dataclass(frozen=True)
class ToolDeclaration:
    name: str
    title: str
    request: type[BaseModel]
    description: str
    parameters: dict[str, str]
    read_only: bool

    def parse(self, arguments: dict[str, Any]) -> Any:
        """The validated request; a bad or unknown parameter raises an
        InvalidParameterError naming it, before any browser is involved."""
        return parse_arguments(self.request, arguments)

    def schema(self) -> dict[str, Any]:
        """The flat JSON schema of the parameters, each with its description."""
        schema = input_schema(self.request)
        schema.pop("description", None)  # the tool's description says it once
        for name, prop in schema["properties"].items():
            prop.setdefault("description", self.parameters[name])
        return schema


INTERACT = ToolDeclaration(
    name="interact",
    title="Navigate and act",
    request=InteractRequest,
    description=descriptions.INTERACT
    + "\n\n"
    + inspect.cleandoc(InteractRequest.__doc__ or "")
    + "\n\n"
    + registry.describe(),
    parameters=descriptions.INTERACT_PARAMETERS,
    read_only=False,
)

ANALYZE = ToolDeclaration(
    name="analyze",
    title="Read the page",
    request=AnalyzeRequest,
    description=descriptions.ANALYZE + "\n\n" + inspect.cleandoc(AnalyzeRequest.__doc__ or ""),
    parameters=descriptions.ANALYZE_PARAMETERS,
    read_only=True,
)

SUMMARIZE = ToolDeclaration(
    name="summarize",
    title="Read a URL's main content",
    request=SummarizeRequest,
    description=descriptions.SUMMARIZE,
    parameters=descriptions.SUMMARIZE_PARAMETERS,
    read_only=True,
)
