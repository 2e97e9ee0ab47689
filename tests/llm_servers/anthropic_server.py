"""Anthropic's Messages wire: POST /v1/messages, `x-api-key` and `anthropic-version`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .script import Reply
from .server import ScriptedServer, pieces

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}


class AnthropicMessagesServer(ScriptedServer):
    path = "/v1/messages"
    base_path = ""
    wire = "anthropic"  # the ModelConfig wire of a client for it

    def key(self, headers: dict[str, str]) -> str | None:
        """`x-api-key`, or a bearer token (which recent SDKs send an API key as)."""
        return headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ") or None

    def authorized(self, headers: dict[str, str]) -> bool:
        return super().authorized(headers) and "anthropic-version" in headers

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        return {"type": "error", "error": {"type": ERROR_TYPES.get(status, "api_error"), "message": message}}

    def message(self, reply: Reply, body: dict[str, Any], number: int) -> dict[str, Any]:
        content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}] if reply.text else []
        content += [
            {"type": "tool_use", "id": call_id, "name": name, "input": json.loads(arguments)}
            for call_id, name, arguments in _calls(reply, number)
        ]
        return {
            **_envelope(body, number),
            "content": content,
            "stop_reason": _stop(reply),
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
        }

    def events(self, reply: Reply, body: dict[str, Any], number: int) -> Iterator[str]:
        def event(kind: str, data: dict[str, Any]) -> str:
            return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"

        start = {
            **_envelope(body, number),
            "content": [],
            "stop_reason": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
        }
        yield event("message_start", {"message": start})
        yield event("ping", {})
        index = 0
        if reply.text:
            yield event("content_block_start", {"index": index, "content_block": {"type": "text", "text": ""}})
            for piece in pieces(reply.text, reply.chunk_size):
                yield event("content_block_delta", {"index": index, "delta": {"type": "text_delta", "text": piece}})
            yield event("content_block_stop", {"index": index})
            index += 1
        for call_id, name, arguments in _calls(reply, number):
            block = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
            yield event("content_block_start", {"index": index, "content_block": block})
            for piece in ["", *pieces(arguments, reply.chunk_size)]:  # the API's first piece is empty
                delta = {"type": "input_json_delta", "partial_json": piece}
                yield event("content_block_delta", {"index": index, "delta": delta})
            yield event("content_block_stop", {"index": index})
            index += 1
        ending = {"stop_reason": _stop(reply), "stop_sequence": None}
        yield event("message_delta", {"delta": ending, "usage": {"output_tokens": reply.output_tokens}})
        yield event("message_stop", {})


def _envelope(body: dict[str, Any], number: int) -> dict[str, Any]:
    return {
        "id": f"msg_{number}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", ""),
        "stop_sequence": None,
    }


def _calls(reply: Reply, number: int) -> list[tuple[str, str, str]]:
    return [
        (
            call.id or f"toolu_{number}_{i}",
            call.name,
            call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments),
        )
        for i, call in enumerate(reply.tool_calls)
    ]


def _stop(reply: Reply) -> str:
    return reply.stop_reason or ("tool_use" if reply.tool_calls else "end_turn")
