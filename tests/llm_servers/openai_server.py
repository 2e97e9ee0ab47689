"""OpenAI's Chat Completions wire: POST /v1/chat/completions, `Authorization: Bearer`."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from .script import Reply
from .server import ScriptedServer, pieces

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    404: "invalid_request_error",
    429: "rate_limit_error",
}


class OpenAIChatServer(ScriptedServer):
    path = "/v1/chat/completions"
    base_path = "/v1"
    wire = "openai"  # the ModelConfig wire of a client for it

    def key(self, headers: dict[str, str]) -> str | None:
        return headers.get("authorization", "").removeprefix("Bearer ") or None

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        kind = ERROR_TYPES.get(status, "server_error")
        return {"error": {"message": message, "type": kind, "param": None, "code": None}}

    def message(self, reply: Reply, body: dict[str, Any], number: int) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text or None, "refusal": None}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": call_id, "type": "function", "function": {"name": call.name, "arguments": arguments}}
                for call_id, call, arguments in _calls(reply, number)
            ]
        return {
            "id": f"chatcmpl-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": _finish(reply)}],
            "usage": _usage(reply),
        }

    def events(self, reply: Reply, body: dict[str, Any], number: int) -> Iterator[str]:
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        base = {
            "id": f"chatcmpl-{number}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", ""),
            "system_fingerprint": None,
        }

        def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
            choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
            data = {**base, "choices": [choice], **({"usage": None} if include_usage else {})}
            return f"data: {json.dumps(data)}\n\n"

        yield chunk({"role": "assistant", "content": "", "refusal": None})
        for piece in pieces(reply.text, reply.chunk_size):
            yield chunk({"content": piece})
        for index, (call_id, call, arguments) in enumerate(_calls(reply, number)):
            # The first delta of a call names it; the arguments follow in pieces.
            head = {"index": index, "id": call_id, "type": "function", "function": {"name": call.name, "arguments": ""}}
            yield chunk({"tool_calls": [head]})
            for piece in pieces(arguments, reply.chunk_size):
                yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        yield chunk({}, _finish(reply))
        if include_usage:
            yield f"data: {json.dumps({**base, 'choices': [], 'usage': _usage(reply)})}\n\n"
        yield "data: [DONE]\n\n"


def _calls(reply: Reply, number: int) -> list[tuple[str, Any, str]]:
    return [
        (
            call.id or f"call_{number}_{i}",
            call,
            call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments),
        )
        for i, call in enumerate(reply.tool_calls)
    ]


def _finish(reply: Reply) -> str:
    return reply.stop_reason or ("tool_calls" if reply.tool_calls else "stop")


def _usage(reply: Reply) -> dict[str, int]:
    return {
        "prompt_tokens": reply.input_tokens,
        "completion_tokens": reply.output_tokens,
        "total_tokens": reply.input_tokens + reply.output_tokens,
    }
