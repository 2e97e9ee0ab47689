"""Every failure as one JSON shape: `{success: false, error, message}` (plus `fields` for a
body that does not validate), with the HTTP status its code calls for."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from pagelens.errors import ErrorCode, PagelensError

logger = logging.getLogger("pagelens.server")

# A code's HTTP status; every other PagelensError is the caller's (400).
STATUS: dict[str, int] = {
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.UNKNOWN_ROUTE: 404,
    ErrorCode.RECORD_NOT_FOUND: 404,
    ErrorCode.TASK_NOT_FOUND: 404,
    ErrorCode.TASK_BUSY: 409,
    ErrorCode.PAYLOAD_TOO_LARGE: 413,
    ErrorCode.NO_MODEL_AVAILABLE: 503,
    ErrorCode.STORE_UNAVAILABLE: 503,
    ErrorCode.STORE_ERROR: 500,
    ErrorCode.MODEL_AUTH_FAILED: 502,
    ErrorCode.MODEL_RATE_LIMITED: 502,
    ErrorCode.MODEL_UNAVAILABLE: 502,
    ErrorCode.MODEL_NOT_FOUND: 502,
    ErrorCode.MODEL_BAD_REQUEST: 502,
    ErrorCode.MODEL_ERROR: 502,
    ErrorCode.INTERNAL_ERROR: 500,
}


class FieldProblem(BaseModel):
    field: str
    message: str


class ErrorBody(BaseModel):
    """The shape, for the OpenAPI schema."""

    success: bool = False
    error: str
    message: str
    fields: list[FieldProblem] | None = None


# A router's `responses=`: the failures every authenticated route can answer.
RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": description}
    for status, description in ((400, "invalid_request, or another error of the caller"), (401, "unauthorized"))
}


def error_response(code: str, message: str, *, status: int | None = None, **extra: Any) -> JSONResponse:
    body = {"success": False, "error": code, "message": message, **extra}
    return JSONResponse(body, status_code=status or STATUS.get(code, 400))


def said(exc: PagelensError) -> str:
    """What a client is told of `exc`. A database's failure is told without the driver's
    words, which may name the database's user and host; the daemon's log has them."""
    if exc.code != ErrorCode.STORE_ERROR:
        return exc.message
    logger.error("the store failed: %s", exc.message)
    return "the database failed a read or a write (the daemon's log has the reason)"


def install(app: FastAPI) -> None:
    """The handlers that turn exceptions into that shape."""

    async def invalid_body(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        problems = exc.errors()
        undecoded = next((p for p in problems if p["type"] == "json_invalid"), None)
        if undecoded is not None:
            reason = undecoded.get("ctx", {}).get("error", "JSON decode error")
            message = f"the body is not valid JSON: {reason} at position {undecoded['loc'][-1]}"
            return error_response(ErrorCode.INVALID_REQUEST, message, status=400)
        content_type = request.headers.get("content-type", "")
        if any(p["loc"][:1] == ("body",) for p in problems) and not _is_json(content_type):
            given = f", not {content_type}" if content_type else " (the request has no Content-Type)"
            message = f"the body must be application/json{given}"
            return error_response(ErrorCode.INVALID_REQUEST, message, status=400)
        # A field is named without where it came from (body, query, path), as the docs name it.
        fields = [
            {"field": ".".join(str(part) for part in p["loc"][1:]) or str(p["loc"][0]), "message": p["msg"]}
            for p in problems
        ]
        message = f"{fields[0]['field']}: {fields[0]['message']}"
        return error_response(ErrorCode.INVALID_REQUEST, message, status=400, fields=fields)

    async def typed(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, PagelensError)
        return error_response(exc.code, said(exc), **getattr(exc, "details", {}))

    async def refused(request: Request, exc: Exception) -> JSONResponse:
        # What the framework itself refuses: no such route (404), not that method (405),
        # a body over the limit (413, limits.py), a body it could not read (400). Its
        # headers (Allow) are kept.
        assert isinstance(exc, HTTPException)
        if exc.status_code in (404, 405):
            code, message = ErrorCode.UNKNOWN_ROUTE, f"{request.method} {request.url.path}: {exc.detail}"
        elif exc.status_code == 413:
            code, message = ErrorCode.PAYLOAD_TOO_LARGE, str(exc.detail)
        else:
            code = ErrorCode.INTERNAL_ERROR if exc.status_code >= 500 else ErrorCode.INVALID_REQUEST
            message = _unparsed(exc)
        response = error_response(code, message, status=exc.status_code)
        response.headers.update(exc.headers or {})
        return response

    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("%s %s failed", request.method, request.url.path)
        return error_response(ErrorCode.INTERNAL_ERROR, f"{type(exc).__name__}: {exc}")

    app.add_exception_handler(RequestValidationError, invalid_body)
    app.add_exception_handler(PagelensError, typed)
    app.add_exception_handler(HTTPException, refused)
    app.add_exception_handler(Exception, unexpected)


def _unparsed(exc: HTTPException) -> str:
    """What the framework says of a body it could not parse ("There was an error parsing
    the body"), made precise from the error it chained: the body is not UTF-8, or its
    JSON is nested deeper than the parser goes."""
    cause = exc.__cause__
    if isinstance(cause, UnicodeDecodeError):
        return f"the body is not UTF-8: {cause.reason} at byte {cause.start}"
    if isinstance(cause, RecursionError):
        return "the body is not JSON the daemon can read: its arrays and objects are nested too deeply"
    return str(exc.detail)


def _is_json(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


class PayloadTooLargeError(PagelensError):
    """A request field over its size limit (413); `details` names the field for the body."""

    code = ErrorCode.PAYLOAD_TOO_LARGE

    def __init__(self, field: str, limit: str) -> None:
        super().__init__(f"{field} is larger than {limit}")
        self.details = {"field": field}
