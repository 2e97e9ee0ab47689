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
    ErrorCode.PAYLOAD_TOO_LARGE: 413,
    ErrorCode.NO_MODEL_AVAILABLE: 503,
    ErrorCode.STORE_UNAVAILABLE: 503,
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


def install(app: FastAPI) -> None:
    """The handlers that turn exceptions into that shape."""

    async def invalid_body(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        fields = [
            {"field": ".".join(str(part) for part in error["loc"] if part != "body"), "message": error["msg"]}
            for error in exc.errors()
        ]
        first = fields[0] if fields else {"field": "body", "message": "invalid"}
        message = f"{first['field'] or 'body'}: {first['message']}"
        return error_response(ErrorCode.INVALID_REQUEST, message, status=400, fields=fields)

    async def typed(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, PagelensError)
        return error_response(exc.code, exc.message, **getattr(exc, "details", {}))

    async def refused(request: Request, exc: Exception) -> JSONResponse:
        # What the framework itself refuses: no such route (404), not that method (405),
        # a body that is not JSON (400). Its headers (Allow) are kept.
        assert isinstance(exc, HTTPException)
        if exc.status_code in (404, 405):
            code, message = ErrorCode.UNKNOWN_ROUTE, f"{request.method} {request.url.path}: {exc.detail}"
        else:
            code = ErrorCode.INTERNAL_ERROR if exc.status_code >= 500 else ErrorCode.INVALID_REQUEST
            message = str(exc.detail)
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


class PayloadTooLargeError(PagelensError):
    """A request field over its size limit (413); `details` names the field for the body."""

    code = ErrorCode.PAYLOAD_TOO_LARGE

    def __init__(self, field: str, limit: str) -> None:
        super().__init__(f"{field} is larger than {limit}")
        self.details = {"field": field}
