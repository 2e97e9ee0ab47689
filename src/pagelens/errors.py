"""Typed errors: every failure carries a stable machine-readable `code` and a message."""

from __future__ import annotations

import re

from pydantic import ValidationError


class PagelensError(Exception):
    """Base error. `code` is stable (agents and tests match on it); `message` is for people."""

    code = "pagelens_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def to_dict(self) -> dict[str, str]:
        return {"error": self.code, "message": self.message}

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class BrowserNotFoundError(PagelensError):
    code = "browser_not_found"


class BrowserLaunchError(BrowserNotFoundError):
    """The executable exists but did not start as a Chromium pagelens can drive."""

    code = "browser_launch_failed"


class BrowserConnectError(PagelensError):
    code = "browser_connect_failed"


class InvalidRequestError(PagelensError):
    code = "invalid_request"


class InvalidParameterError(InvalidRequestError):
    """A bad or unknown parameter; `parameter` names it."""

    def __init__(self, parameter: str, problem: str) -> None:
        super().__init__(f"parameter {parameter!r}: {problem}")
        self.parameter = parameter

    @classmethod
    def from_validation(cls, exc: ValidationError) -> InvalidParameterError:
        first = exc.errors()[0]
        loc = [str(part) for part in first["loc"]]
        if first["type"] == "extra_forbidden":
            return cls(loc[0], "unknown parameter")
        return cls(loc[0] if loc else "request", first["msg"])


class CaptureTimeoutError(PagelensError):
    code = "capture_timeout"


class CaptureError(PagelensError):
    code = "capture_failed"


class NavigationError(PagelensError):
    code = "navigation_failed"

    @classmethod
    def from_playwright(cls, exc: Exception, url: str) -> NavigationError:
        """Chromium's ``net::ERR_NAME_NOT_RESOLVED`` becomes code ``err_name_not_resolved``."""
        text = str(exc)
        reason = re.search(r"net::(ERR_[A-Z0-9_]+)", text)
        if reason:
            code = reason.group(1).lower()
        elif "Timeout" in text:
            code = "navigation_timeout"
        else:
            code = cls.code
        first_line = text.strip().splitlines()[0] if text.strip() else "navigation failed"
        return cls(f"could not load {url}: {first_line}", code=code)
