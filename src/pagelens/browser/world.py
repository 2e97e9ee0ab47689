"""Running the engine in an isolated world of a frame, over CDP.

An isolated world shares the DOM with the page but has its own globals, so a page that
overwrites ``Array.prototype.map`` or ``document.querySelectorAll`` cannot break the
engine, and a strict CSP does not apply to it. A bundle's script evaluates to its entry
object; the world keeps a handle on it and every call goes through that handle by method
name (`FrameWorld.call`), so nothing is left on the page's globals. Worlds are created once
per document and reused; a navigation destroys them and the next call makes a new one.

The top frame's world is made and the engine evaluated in it as soon as a new document
commits (`FrameWorld.open`, from `Page`), so that its calls after `load` are one round
trip each; frames get it at their first call. It is not evaluated at the start of every
document (`Page.addScriptToEvaluateOnNewDocument`): that needs the Page domain on in our
own CDP session, whose events for every frame of every load, and a world in every frame,
cost a frame-heavy page more than the engine's evaluation (about 10 ms) costs once.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from enum import Enum, auto
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

from pagelens.browser.guard import Lifeline, bounded
from pagelens.engine import ENGINE, EntryScript
from pagelens.errors import CaptureError, CaptureTimeoutError, ErrorCode, PagelensError

WORLD_NAME = "pagelens"
OBJECT_GROUP = "pagelens"


class DocumentChanged(PagelensError):
    """The frame's document went away while a call was running: the page navigated."""

    code = ErrorCode.DOCUMENT_CHANGED


@dataclass(frozen=True)
class RemoteObject:
    """An object of the world (an element), passed to `FrameWorld.call` by reference."""

    object_id: str


class _Failure(Enum):
    STALE = auto()  # the world or the handle belongs to a document that is gone: make it again
    DOCUMENT_GONE = auto()  # the document went away during the call


# What a CDP error means for a call, in one place.
_CDP_FAILURES: tuple[tuple[str, _Failure], ...] = (
    ("Cannot find context with specified id", _Failure.STALE),
    ("Could not find object with given id", _Failure.STALE),
    ("Cannot find default execution context", _Failure.STALE),
    ("Execution context was destroyed", _Failure.DOCUMENT_GONE),
    ("Inspected target navigated or closed", _Failure.DOCUMENT_GONE),
    ("Target closed", _Failure.DOCUMENT_GONE),
    ("Target page, context or browser has been closed", _Failure.DOCUMENT_GONE),
)
_STALE_TRIES = 3
_OPEN_LIMIT_S = 10.0  # making the world and evaluating the engine in a new document


def engine_budget_ms(limit_s: float) -> int:
    """The engine's own budget for a call limited to `limit_s` seconds: it reads the page
    for that long and returns what it has (a call cannot be cut short from outside). What
    it builds from what it read (ids stamped, each control's visibility) has as long again,
    then stops too (docs/views.md, "Huge pages"): 60 % of the limit, and the rest is for
    what is left to build (a few selectors, the view's JSON) and the round trip. On a
    100k-element page with the CPU slowed fourfold and the test suite running beside it,
    the summary came back in 1.5-2.1 s of its 3 s. Never 0: the engine reads a 0 budget
    as "no budget given"."""
    return max(1, int(limit_s * 1000 * 0.3))


def _failure(text: str) -> _Failure | None:
    return next((kind for needle, kind in _CDP_FAILURES if needle in text), None)


# Calls a method of the entry object (`this`) with the arguments after its name.
_CALL_METHOD = "function (name, ...args) { return this[name](...args); }"
# Called on a handle only to learn whether it still reaches its object.
_NOTHING = "function () {}"


@dataclass
class FrameWorld:
    """The pagelens world of one frame (identified by its CDP frame id) in one session."""

    session: CDPSession
    frame_id: str
    # Its browser's: a call that the browser's death leaves unanswered ends then.
    lifeline: Lifeline | None = field(default=None, repr=False)
    context_id: int | None = None
    _entries: dict[str, str] = field(default_factory=dict)  # entry script name -> object id
    # One evaluation of an entry at a time: a document's opening and its first call may
    # both ask, and two copies of the engine would each watch the page.
    _loading: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    async def call(
        self,
        name: str,
        *args: Any,
        timeout: float = 5.0,  # noqa: ASYNC109 - the call's own limit, around the round trip
        by_value: bool = True,
        entry: EntryScript = ENGINE,
    ) -> Any:
        """``entry.<name>(*args)`` in this world, awaiting a returned promise; the value
        (JSON), or with ``by_value=False`` the remote object id (None for null).

        Raises DocumentChanged when the document goes away meanwhile, CaptureTimeoutError
        past `timeout` seconds, CaptureError when the engine throws, BrowserGoneError when
        the browser dies. A world or handle left over from an earlier document is made
        again."""
        return await self.apply(_CALL_METHOD, name, *args, timeout=timeout, by_value=by_value, entry=entry)

    async def open(self) -> None:
        """Make (or find) the world of the frame's current document and evaluate the engine
        in it now: done while a document loads, so that its calls after `load` are one
        round trip each. Raises CaptureTimeoutError when the page does not answer within
        10 s, as `call` raises."""
        try:
            await bounded(self._open(), timeout=_OPEN_LIMIT_S, lifeline=self.lifeline)
        except TimeoutError as exc:
            raise CaptureTimeoutError(f"the page did not ready the engine within {_OPEN_LIMIT_S:g} s") from exc

    async def _open(self) -> None:
        async with self._loading:
            await self._create()
            await self._load(ENGINE)

    async def apply(
        self,
        function: str,
        *args: Any,
        timeout: float = 5.0,  # noqa: ASYNC109 - the call's own limit, around the round trip
        by_value: bool = True,
        entry: EntryScript = ENGINE,
    ) -> Any:
        """The JavaScript `function` declaration called with `this` set to the entry
        object, as `call` does (for tests and benchmarks that reach the primitives)."""
        label = args[0] if function == _CALL_METHOD else "a script"
        for attempt in range(1, _STALE_TRIES + 1):
            try:
                # The limit covers making the world and evaluating the entry too: a page
                # too busy to answer holds both up.
                reply = await bounded(
                    self._send(entry, function, args, by_value), timeout=timeout, lifeline=self.lifeline
                )
            except TimeoutError as exc:
                raise CaptureTimeoutError(f"the page did not answer {label} within {timeout:g} s") from exc
            except PlaywrightError as exc:
                kind = _failure(str(exc))
                if kind is _Failure.STALE and attempt < _STALE_TRIES:
                    self._forget()
                    continue
                if kind is not None:
                    raise DocumentChanged(f"the page navigated while {label} ran") from exc
                raise CaptureError(f"could not run the engine: {_first_line(str(exc))}") from exc
            details = reply.get("exceptionDetails")
            if details:
                text = details.get("exception", {}).get("description") or details.get("text", "")
                raise CaptureError(f"engine error in {label}: {_first_line(text) or 'unknown'}")
            result = reply["result"]
            return result.get("value") if by_value else result.get("objectId")
        raise AssertionError("unreachable")

    async def capture(self, mode: str, options: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        """Run one capture; a capture that outlives `timeout_s` raises CaptureTimeoutError.
        A page that keeps navigating gets three tries, then a CaptureError."""
        options = {**options, "timeoutMs": engine_budget_ms(timeout_s)}
        for attempt in (1, 2, 3):
            try:
                result: dict[str, Any] = await self.call("capture", mode, options, timeout=timeout_s)
                return result
            except CaptureTimeoutError as exc:
                raise CaptureTimeoutError(f"the {mode} view took longer than {timeout_s:g} s") from exc
            except DocumentChanged as exc:
                if attempt == 3:
                    raise CaptureError("the page kept navigating while it was being read; try again") from exc
        raise AssertionError("unreachable")

    async def element_object(self, element_id: str) -> str | None:
        """A remote object id for the element stamped `element_id`, or None."""
        object_id: str | None = await self.call("elementById", element_id, by_value=False)
        return object_id

    async def release(self, object_id: str) -> None:
        """Let the browser free an object a call returned by reference."""
        with contextlib.suppress(PlaywrightError):  # gone with its document: nothing to release
            await self.session.send("Runtime.releaseObject", {"objectId": object_id})

    async def _create(self) -> None:
        """Create the world in the frame's current document, or find the one made before
        (Chromium answers the same context for the same name and document). A new
        document's world may have the number the last one's had (seen on navigations to
        the same address and to another site): where the number is the same, the handles
        are asked whether they still hold."""
        created = await self.session.send(
            "Page.createIsolatedWorld",
            {"frameId": self.frame_id, "worldName": WORLD_NAME, "grantUniveralAccess": False},
        )
        context_id = created["executionContextId"]
        if context_id != self.context_id or not await self._holds():
            self.context_id = context_id
            self._entries.clear()

    async def _holds(self) -> bool:
        """Whether the handles on the entry objects still reach them (true for none)."""
        handle = next(iter(self._entries.values()), None)
        if handle is None:
            return True
        try:
            await self.session.send("Runtime.callFunctionOn", {"functionDeclaration": _NOTHING, "objectId": handle})
        except PlaywrightError as exc:
            if _failure(str(exc)) is None:
                raise
            return False
        return True

    async def _entry(self, entry: EntryScript) -> str:
        """The handle on `entry`'s object in this world, creating world and object once."""
        handle = self._entries.get(entry.name)
        if handle is None:
            async with self._loading:
                if self.context_id is None:
                    await self._create()
                handle = await self._load(entry)
        return handle

    async def _load(self, entry: EntryScript) -> str:
        """`entry`'s handle, evaluating it where it has none yet (under `_loading`)."""
        handle = self._entries.get(entry.name)
        if handle is None:
            handle = await self._evaluate(entry, entry.world_source())
            if handle is None:
                raise CaptureError(f"the {entry.name} script evaluated to nothing")
            self._entries[entry.name] = handle
        return handle

    async def _evaluate(self, entry: EntryScript, expression: str) -> str | None:
        """The object id of what `expression` evaluates to in this world (None for
        undefined)."""
        reply = await self.session.send(
            "Runtime.evaluate",
            {
                "expression": expression,
                "contextId": self.context_id,
                "objectGroup": OBJECT_GROUP,
                "returnByValue": False,
            },
        )
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text", "")
            raise CaptureError(f"the {entry.name} script did not load: {_first_line(text)}")
        object_id: str | None = reply["result"].get("objectId")
        return object_id

    async def _send(self, entry: EntryScript, function: str, args: tuple[Any, ...], by_value: bool) -> dict[str, Any]:
        arguments = [{"objectId": a.object_id} if isinstance(a, RemoteObject) else {"value": a} for a in args]
        reply: dict[str, Any] = await self.session.send(
            "Runtime.callFunctionOn",
            {
                "functionDeclaration": function,
                "objectId": await self._entry(entry),
                "arguments": arguments,
                "returnByValue": by_value,
                "awaitPromise": True,
            },
        )
        return reply

    def _forget(self) -> None:
        self.context_id = None
        self._entries.clear()


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""
