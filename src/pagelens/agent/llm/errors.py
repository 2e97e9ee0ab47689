"""The language-model layer's typed errors. Both SDKs' failures are mapped here by HTTP
status, so the agent loop matches on one `code` whichever provider it talks to."""

from __future__ import annotations

import httpx2

from pagelens.errors import ErrorCode, PagelensError


class ModelError(PagelensError):
    """A language-model failure; `status` is the provider's HTTP status when there was one."""

    code = ErrorCode.MODEL_ERROR

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class NoModelAvailableError(ModelError):
    """Nothing configures a model; the message names what to set."""

    code = ErrorCode.NO_MODEL_AVAILABLE


class InvalidModelIdError(ModelError):
    code = ErrorCode.INVALID_MODEL_ID


class InvalidModelConfigError(ModelError):
    code = ErrorCode.INVALID_MODEL_CONFIG


class ModelAuthError(ModelError):
    code = ErrorCode.MODEL_AUTH_FAILED


class ModelRateLimitedError(ModelError):
    code = ErrorCode.MODEL_RATE_LIMITED


class ModelUnavailableError(ModelError):
    """The provider failed (5xx), was unreachable or too slow, after the SDK's retries."""

    code = ErrorCode.MODEL_UNAVAILABLE


class ModelNotFoundError(ModelError):
    code = ErrorCode.MODEL_NOT_FOUND


class ModelBadRequestError(ModelError):
    code = ErrorCode.MODEL_BAD_REQUEST


def lost_stream(where: str, timeout: float, exc: Exception) -> ModelUnavailableError:
    """A streamed answer (from the model `where` names) that stalled past `timeout`
    seconds or whose connection broke."""
    if isinstance(exc, httpx2.TimeoutException):
        return ModelUnavailableError(f"{where} stopped streaming its answer for more than {timeout:g} s")
    return ModelUnavailableError(f"{where} broke off its answer: {exc or type(exc).__name__}")


def error_for_status(status: int, message: str) -> ModelError:
    """The typed error for an HTTP status the SDK gave up on (its retries already spent)."""
    if status in (401, 403):
        return ModelAuthError(message, status=status)
    if status == 404:
        return ModelNotFoundError(message, status=status)
    if status in (400, 413, 422):
        return ModelBadRequestError(message, status=status)
    if status == 429:
        return ModelRateLimitedError(message, status=status)
    if status >= 500:
        return ModelUnavailableError(message, status=status)
    return ModelError(message, status=status)
