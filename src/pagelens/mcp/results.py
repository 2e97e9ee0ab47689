"""Tool results: one JSON text block (plus an image block for screenshots). Page text only
ever travels inside that JSON, as data, never as free text an agent could mistake for
the server's own words."""

from __future__ import annotations

import base64
from typing import Any

import pydantic_core
from mcp.types import CallToolResult, ImageContent, TextContent

from pagelens.errors import PagelensError


def tool_result(
    data: dict[str, Any], image: bytes | str | None = None, mime_type: str = "image/jpeg"
) -> CallToolResult:
    """`data` as the result, plus `image` (bytes, or already base64) as an image block of
    type `mime_type`; a `success: false` result is flagged as a tool error."""
    content: list[TextContent | ImageContent] = [TextContent(text=to_json(data))]
    if image is not None:
        encoded = image if isinstance(image, str) else base64.b64encode(image).decode("ascii")
        content.append(ImageContent(data=encoded, mime_type=mime_type))
    return CallToolResult(content=content, is_error=data.get("success") is False)


def error_result(exc: PagelensError) -> CallToolResult:
    """A typed failure: `{"error": code, "message": ...}`."""
    return CallToolResult(content=[TextContent(text=to_json(exc.to_dict()))], is_error=True)


def to_json(data: Any) -> str:
    # Compact separators: every byte of a result is an agent's token.
    return pydantic_core.to_json(data).decode("utf-8")
