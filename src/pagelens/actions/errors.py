"""Errors of the action layer.

Two kinds, kept apart on purpose: an `InvalidParameterError` is the caller's mistake and
is raised (the request never reaches the page); an `ActionError` is the page's or the
user's problem (an element is covered, a host does not resolve) and becomes a
``success: false`` result with the same code, so a session never dies of it.
"""

from __future__ import annotations

from typing import Any

from pagelens.errors import ErrorCode, InvalidParameterError, PagelensError

__all__ = ["ActionError", "InvalidParameterError"]


class ActionError(PagelensError):
    """An action that could not be done. `details` become fields of the result
    (``covering`` for occluded, ``candidates`` for stale_element)."""

    code = ErrorCode.ACTION_FAILED

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message, code=code)
        self.details = details
