"""What a request may carry: the whole body, refused before it is read or parsed when it
is over the daemon's limit, and the sizes of the text fields several routes share."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pagelens.errors import ErrorCode
from pagelens.server.errors import error_response

# The largest legit body is interact's: a screenshot (2 MB of base64), the DOM (200,000
# characters, up to 1.2 MB as JSON escapes), the skeleton (100 KB) and the trees of a
# huge page, under 5 MB in all; a chat's history may also carry a few images.
BODY_LIMIT = 16 * 1024 * 1024  # bytes
TOO_LARGE = "the request body is larger than 16 MB, the daemon's limit"
MAX_URL = 8_000  # characters: longer than any URL a browser keeps
MAX_TASK = 10_000  # characters of what the user asks (a task, a query)


class BodyLimit:
    """A body over BODY_LIMIT is refused with 413 `payload_too_large`: at once when its
    Content-Length says so (nothing is read), else as soon as what was read of it (a
    chunked body) passes the limit."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > BODY_LIMIT:
            await error_response(ErrorCode.PAYLOAD_TOO_LARGE, TOO_LARGE)(scope, receive, send)
            return
        read = 0

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if read > BODY_LIMIT:
                # Raised where the route reads its body; the error handlers answer 413.
                raise HTTPException(413, TOO_LARGE)
            return message

        await self.app(scope, counted, send)
