"""The turns a scripted model server plays, one per request, and what it records."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Call:
    """A tool call in a reply. `arguments` as a str is sent verbatim (invalid JSON included);
    `id` defaults to one the server makes up."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)
    id: str | None = None


@dataclass(frozen=True)
class Reply:
    """A successful answer. Text and each call's argument JSON are streamed in pieces of
    `chunk_size` characters; `stop_reason` defaults to the provider's word for a stop or a
    tool call."""

    text: str = ""
    tool_calls: Sequence[Call] = ()
    input_tokens: int = 10
    output_tokens: int = 5
    stop_reason: str | None = None
    chunk_size: int = 3


@dataclass(frozen=True)
class Fail:
    """An HTTP error in the provider's error envelope (or `body` verbatim), with a
    `retry-after` header when `retry_after` is set."""

    status: int
    retry_after: float | None = None
    message: str = "scripted failure"
    body: dict[str, Any] | None = None


@dataclass(frozen=True)
class Hang:
    """No answer for `seconds` (the server ends the wait early when it shuts down), then 504."""

    seconds: float


Outcome = Reply | Fail | Hang
# A turn is an outcome, or a function of the request body that returns one (it may be async),
# so that a scripted model can answer what the client sent.
Turn = Outcome | Callable[[dict[str, Any]], Outcome | Awaitable[Outcome]]


@dataclass(frozen=True)
class Received:
    """One request as the server got it; `at` is time.monotonic() on arrival."""

    body: dict[str, Any]
    headers: dict[str, str]
    at: float
