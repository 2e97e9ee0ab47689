"""The automation tools' typed errors; `code` is what the agent matches on."""

from __future__ import annotations

from pagelens.errors import PagelensError


class UnknownActionError(PagelensError):
    """A tool was asked for an action it does not have."""

    code = "unknown_action"


class ScriptTimeoutError(PagelensError):
    """A script in the page ran past its time limit and was terminated."""

    code = "script_timeout"


class ReplTimeoutError(PagelensError):
    """A repl call ran past its wall-clock limit; its script was terminated."""

    code = "repl_timeout"


class ReplError(PagelensError):
    """The repl code threw; the message carries the JavaScript error and its line."""

    code = "repl_error"

    def __init__(self, message: str, *, output: str = "") -> None:
        super().__init__(message)
        self.output = output  # what the code printed before it failed


class NavigationRefusedError(PagelensError):
    """Code tried to navigate on its own instead of through `navigate()`."""

    code = "navigation_refused"


class PickerCancelledError(PagelensError):
    """The user pressed Esc instead of choosing an element."""

    code = "picker_cancelled"


class PickerTimeoutError(PagelensError):
    """The user did not choose an element in time."""

    code = "picker_timeout"
