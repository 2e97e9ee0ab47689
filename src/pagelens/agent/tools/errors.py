"""The automation tools' typed errors; `code` is what the agent matches on."""

from __future__ import annotations

from pagelens.errors import ErrorCode, PagelensError


class UnknownActionError(PagelensError):
    """A tool was asked for an action it does not have."""

    code = ErrorCode.UNKNOWN_ACTION


class ScriptTimeoutError(PagelensError):
    """A script in the page ran past its time limit and was terminated."""

    code = ErrorCode.SCRIPT_TIMEOUT


class ReplTimeoutError(PagelensError):
    """A repl call ran past its wall-clock limit; its script was terminated."""

    code = ErrorCode.REPL_TIMEOUT


class ReplError(PagelensError):
    """The repl code threw; the message carries the JavaScript error and its line."""

    code = ErrorCode.REPL_ERROR

    def __init__(self, message: str, *, output: str = "") -> None:
        super().__init__(message)
        self.output = output  # what the code printed before it failed


class NavigationRefusedError(PagelensError):
    """Code tried to navigate on its own instead of through `navigate()`."""

    code = ErrorCode.NAVIGATION_REFUSED


class PickerCancelledError(PagelensError):
    """The user pressed Esc instead of choosing an element."""

    code = ErrorCode.PICKER_CANCELLED


class PickerTimeoutError(PagelensError):
    """The user did not choose an element in time."""

    code = ErrorCode.PICKER_TIMEOUT
