"""Typed errors: every failure carries a stable machine-readable `code` and a message.

The codes are one list, `ErrorCode` (docs/errors.md is generated from it). Chromium's own
network errors come through as the open family `err_*` (`err_name_not_resolved`, ...)."""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import ValidationError


class ErrorCode(StrEnum):
    """Every code a failure can carry, with what it means. Agents and tests match on the
    value; JSON carries the plain string."""

    meaning: str

    def __new__(cls, value: str, meaning: str) -> ErrorCode:
        member = str.__new__(cls, value)
        member._value_ = value
        member.meaning = meaning
        return member

    # The caller's request
    INVALID_REQUEST = "invalid_request", "A parameter is missing, unknown or of the wrong kind; the message names it."
    PAGE_OUT_OF_RANGE = "page_out_of_range", "A view was asked for a page past its last one."
    UNKNOWN_TAB = "unknown_tab", "No open tab has that id."
    UNKNOWN_COMMAND = "unknown_command", "No background command has that id."
    RESTRICTED_URL = (
        "restricted_url",
        "The address is one the browser will not let a script read (chrome://, about:...).",
    )
    FILE_NOT_FOUND = "file_not_found", "A local file to open or upload does not exist."

    # The browser
    BROWSER_NOT_FOUND = (
        "browser_not_found",
        "No Chromium was found where pagelens looks; the message says where it looked.",
    )
    BROWSER_LAUNCH_FAILED = "browser_launch_failed", "Chromium was found but did not start."
    BROWSER_CONNECT_FAILED = "browser_connect_failed", "No browser answered at the DevTools URL."
    BROWSER_START_TIMEOUT = "browser_start_timeout", "The browser took too long to start."
    BROWSER_ERROR = "browser_error", "The browser failed in a way no other code describes."
    PAGE_CLOSED = "page_closed", "The tab was closed (or crashed) during the call."
    DOCUMENT_CHANGED = "document_changed", "The page navigated while the engine was reading or acting on it."
    FRAME_UNREACHABLE = "frame_unreachable", "A frame's document could not be reached (gone, or no session for it)."

    # Loading a page
    NAVIGATION_FAILED = "navigation_failed", "The page did not load (see also Chromium's `err_*` codes)."
    NAVIGATION_TIMEOUT = "navigation_timeout", "The page did not load in time."
    NO_HISTORY = "no_history", "There is no page to go back or forward to."
    NOT_A_PAGE = (
        "not_a_page",
        "The address is a file the browser downloads (a PDF, an archive), not a page it shows; the tab stays "
        "where it was.",
    )

    # Reading a page
    CAPTURE_FAILED = "capture_failed", "The engine could not compute the view."
    CAPTURE_TIMEOUT = "capture_timeout", "The view took longer than its time limit."
    ENGINE_ERROR = "engine_error", "The in-page engine threw; the message carries its error."
    SCRIPT_INJECTION_FAILED = (
        "script_injection_failed",
        "A navigation's summary could not run in the page (`summary_error`).",
    )
    SUMMARY_TIMEOUT = "summary_timeout", "A navigation's summary took longer than its limit (`summary_error`)."
    SUMMARY_UNAVAILABLE = "summary_unavailable", "A summary needs a language model and none is configured."

    # Acting on an element
    NOT_FOUND = "not_found", "No element has that id, or nothing matches the selector."
    STALE_ELEMENT = (
        "stale_element",
        "The element changed and could not be found again with certainty; see `candidates`.",
    )
    NOT_VISIBLE = "not_visible", "The element is hidden, has no size or is outside the viewport."
    NOT_STABLE = "not_stable", "The element kept moving."
    OCCLUDED = "occluded", "Another element would receive the click; `covering` names it."
    DISABLED = "disabled", "The element is disabled."
    NOT_EDITABLE = "not_editable", "The element does not take typed text."
    NOT_FOCUSABLE = "not_focusable", "The element cannot take the focus."
    NOT_CHECKABLE = "not_checkable", "check/uncheck on something that is not a checkbox, radio or switch."
    NOT_SELECTABLE = (
        "not_selectable",
        "select on something that is not a select or a dropdown (combobox, listbox, a button that opens one).",
    )
    OPTION_NOT_FOUND = "option_not_found", "select: no option has that value or label."
    INVALID_VALUE = (
        "invalid_value",
        "The element refused the value (the page changed it back or validated it out), or cannot take it (an "
        "ARIA slider's value: a number within its range).",
    )
    STATE_UNCHANGED = "state_unchanged", "The action ran but the element's state did not change as asked."
    INPUT_FAILED = "input_failed", "The browser did not deliver the input."
    UPLOAD_FAILED = "upload_failed", "The files could not be set on the file input."
    NO_DIALOG = "no_dialog", "handle_dialog with no dialog open."
    TIMEOUT = "timeout", "What was waited for did not happen in time."
    ACTION_FAILED = "action_failed", "The action failed in a way no other code describes."

    # The agent's automation tools
    UNKNOWN_ACTION = "unknown_action", "A tool was asked for an action it does not have."
    SCRIPT_TIMEOUT = "script_timeout", "A script in the page ran past its time limit and was terminated."
    REPL_TIMEOUT = "repl_timeout", "A repl call ran past its time limit; its script was terminated."
    REPL_ERROR = "repl_error", "The repl code threw; the message carries the JavaScript error and its line."
    NAVIGATION_REFUSED = "navigation_refused", "Code tried to navigate on its own: use navigate()."
    PICKER_CANCELLED = "picker_cancelled", "The user pressed Esc instead of choosing an element."
    PICKER_TIMEOUT = "picker_timeout", "The user did not choose an element in time."
    PICKER_UNAVAILABLE = "picker_unavailable", "Nobody can point at an element: the browser is not visible (headless)."
    UNKNOWN_TOOL = "unknown_tool", "The model called a tool it was not given."

    # The agent's run
    TASK_FAILED = "task_failed", "The agent gave up on the task with fail(reason); the message is its reason."
    STEP_BUDGET_EXHAUSTED = "step_budget_exhausted", "The run reached its step limit before the task was done."
    TIME_BUDGET_EXHAUSTED = "time_budget_exhausted", "The run reached its time limit before the task was done."
    TOKEN_BUDGET_EXHAUSTED = "token_budget_exhausted", "The run used its token allowance before the task was done."
    NO_TOOL_CALL = "no_tool_call", "The model kept answering in text instead of calling a tool (finish or fail)."
    RUN_STOPPED = "run_stopped", "The user stopped the run."

    # Language models
    NO_MODEL_AVAILABLE = (
        "no_model_available",
        "No language model is configured; the message names the variables or config keys to set.",
    )
    INVALID_MODEL_ID = "invalid_model_id", "A model id is not `provider/model` with a known provider."
    INVALID_MODEL_CONFIG = "invalid_model_config", "The model config file is missing, not TOML, or has an unknown key."
    MODEL_AUTH_FAILED = "model_auth_failed", "The model provider refused the API key (401 or 403)."
    MODEL_RATE_LIMITED = "model_rate_limited", "The model provider kept answering 429 after the retries."
    MODEL_UNAVAILABLE = (
        "model_unavailable",
        "The model provider failed (5xx), could not be reached or did not answer in time, after the retries.",
    )
    MODEL_NOT_FOUND = "model_not_found", "The model provider does not know that model (or the base URL is wrong)."
    MODEL_BAD_REQUEST = "model_bad_request", "The model provider rejected the request (400, 413 or 422)."
    MODEL_ERROR = "model_error", "The model provider failed in a way no other code describes."

    # The store and the agent's skills
    STORE_UNAVAILABLE = (
        "store_unavailable",
        "The database could not be reached or opened; the message names its URL (without the password).",
    )
    STORE_ERROR = "store_error", "The database failed a read or a write."
    RECORD_NOT_FOUND = "record_not_found", "No session, message or run has that id."
    SKILL_NOT_FOUND = "skill_not_found", "No skill has that name."
    SKILL_EXISTS = "skill_exists", "A skill already has that name."
    INVALID_SKILL = (
        "invalid_skill",
        "A skill's name, patterns or library were refused; the message says which and why.",
    )

    # The servers
    UNAUTHORIZED = "unauthorized", "The request did not carry the daemon's bearer token."
    UNKNOWN_ROUTE = "unknown_route", "The daemon has no route with that path, or not for that method."
    PAYLOAD_TOO_LARGE = "payload_too_large", "The request or one of its fields (`field`) is over its size limit."
    TASK_NOT_FOUND = "task_not_found", "No task has that taskId (it ended, or never began)."
    TASK_BUSY = (
        "task_busy",
        "A step of that task is under way: another call on its taskId has not been answered yet.",
    )
    CALL_TIMEOUT = "call_timeout", "A tool call did not finish within the server's limit."
    INTERNAL_ERROR = "internal_error", "A bug in pagelens; the call failed, the server carries on."
    LISTEN_FAILED = "listen_failed", "The server could not listen on the address."
    SERVER_CLOSING = "server_closing", "The server is shutting down."
    PAGELENS_ERROR = "pagelens_error", "A failure without a more precise code."


# Chromium's network errors (net::ERR_NAME_NOT_RESOLVED → err_name_not_resolved).
CHROMIUM_NET_ERROR = re.compile(r"^err_[a-z0-9_]+$")


class PagelensError(Exception):
    """Base error. `code` is stable (agents and tests match on it); `message` is for people."""

    code: str = ErrorCode.PAGELENS_ERROR

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
    code = ErrorCode.BROWSER_NOT_FOUND


class BrowserLaunchError(BrowserNotFoundError):
    """The executable exists but did not start as a Chromium pagelens can drive."""

    code = ErrorCode.BROWSER_LAUNCH_FAILED


class BrowserConnectError(PagelensError):
    code = ErrorCode.BROWSER_CONNECT_FAILED


class InvalidRequestError(PagelensError):
    code = ErrorCode.INVALID_REQUEST


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
    code = ErrorCode.CAPTURE_TIMEOUT


class CaptureError(PagelensError):
    code = ErrorCode.CAPTURE_FAILED


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message, or its type's name when it has none: what
    a typed error quotes of a library's error."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# The call a Playwright error names first ("Page.goto: ..."): not the user's call.
_PLAYWRIGHT_CALL = re.compile(r"^[A-Z]\w*\.\w+: ")
_DOWNLOAD_STARTED = "Download is starting"  # Playwright's words for a navigation that became a download


class NavigationError(PagelensError):
    code = ErrorCode.NAVIGATION_FAILED

    @classmethod
    def could_not_load(cls, url: str, reason: str, code: str) -> NavigationError:
        """The one wording of a failed load, whoever saw it fail: "could not load URL: reason"."""
        return cls(f"could not load {url}: {reason}", code=code)

    @classmethod
    def from_playwright(cls, exc: Exception, url: str) -> NavigationError:
        """Chromium's ``net::ERR_NAME_NOT_RESOLVED`` becomes code ``err_name_not_resolved``,
        and the message says it as the error document does (browser/error_document.py):
        "could not load URL: net::ERR_NAME_NOT_RESOLVED", without Playwright's wording
        around it ("Page.goto: ... at URL")."""
        text = str(exc)
        if _DOWNLOAD_STARTED in text:
            return cls(f"{url} is a file to download, not a page", code=ErrorCode.NOT_A_PAGE)
        if reason := re.search(r"net::(ERR_[A-Z0-9_]+)", text):
            return cls.could_not_load(url, reason.group(0), reason.group(1).lower())
        if timeout := re.search(r"Timeout (\d+)ms exceeded", text):
            waited = int(timeout.group(1)) / 1000
            return cls.could_not_load(url, f"not loaded within {waited:g} s", ErrorCode.NAVIGATION_TIMEOUT)
        code = ErrorCode.NAVIGATION_TIMEOUT if "Timeout" in text else cls.code
        return cls.could_not_load(url, _PLAYWRIGHT_CALL.sub("", first_line(exc)), code)
