"""Element actions: real input through Playwright's mouse and keyboard, after the
actionability checks, then verification.

Each action runs inside a `Watch` (observe.py). A dialog the input opens is held for
the agent: the action returns at once, reporting it, and `handle_dialog` answers it and
finishes the action's verification. When the action navigated or changed the route of
a single-page app, its result carries the compact summary of where it landed.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fnmatch
import math
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, TypeVar

from playwright.async_api import Error as PlaywrightError

from pagelens.actions import bridge
from pagelens.actions.errors import ActionError, InvalidParameterError
from pagelens.actions.models import ActionResult, DialogInfo, InteractRequest
from pagelens.actions.navigation import SUMMARY_TIMEOUT_S, landed
from pagelens.actions.observe import Watch
from pagelens.actions.registry import SPECS, action, need
from pagelens.actions.settle import SettlePolicy, settle
from pagelens.actions.tabs import Tab
from pagelens.actions.targets import Target, resolve, viewport_point
from pagelens.browser import loading
from pagelens.browser.loading import MAX_ITEMS_LIMIT, ScrollLoad
from pagelens.browser.world import FrameWorld
from pagelens.errors import ErrorCode, PagelensError, first_line

MAX_WAIT_MS = 60_000
# Lookups of a target that left the page while it was made ready (rendered again).
_RENDERED_AGAIN_TRIES = 3


@dataclass(frozen=True)
class ActionOptions:
    settle: SettlePolicy
    actionability_timeout: float = 2.0  # how long an element may take to become actionable
    input_timeout: float = 10.0  # how long one input (a click, typing) may take
    navigation_timeout: float = 30.0  # a click that navigates: how long the load may take
    wait_timeout: float = 10.0  # wait_for without value
    summary_timeout: float = SUMMARY_TIMEOUT_S  # the summary of where a click navigated to
    summary: bool = True  # whether a click that navigates returns that summary at all


@dataclass
class Done:
    """What an action handler did."""

    message: str
    target: Target | None = None
    element_found: bool = True
    loaded: ScrollLoad | None = None
    # Words for the message once the page has settled: what the action's effect became.
    after_settling: Callable[[], Awaitable[str]] | None = None


@dataclass
class Parked:
    """An action whose dialog is open: finished by handle_dialog (or discarded when the
    next call answers the dialog by the policy)."""

    tab: Tab
    watch: Watch
    done: Done
    options: ActionOptions

    async def finish(self, message: str) -> ActionResult:
        self.done.message = message
        return await conclude(self.tab, "handle_dialog", self.watch, self.done, self.options)

    async def discard(self) -> None:
        await self.watch.discard()


class Act:
    """One element action in progress: its request, and the steps handlers share."""

    def __init__(self, tab: Tab, request: InteractRequest, options: ActionOptions, watch: Watch) -> None:
        self.tab = tab
        self.request = request
        self.options = options
        self.watch = watch
        self.page = tab.playwright_page
        self._target: Target | None = None

    async def target(self) -> Target:
        if self._target is None:
            r = self.request
            self._target = await resolve(self.tab, element_id=r.element_id, selector=r.selector, frame=r.frame)
            # The top document's log does not see into a frame: watch the target's own.
            await self.watch.cover(self._target.world)
        return self._target

    async def ready(
        self, target: Target, *, pointer: bool, enabled: bool = True, editable: bool = False
    ) -> tuple[float, float]:
        """Wait until `target` is actionable; its click point in the page's viewport.
        ActionError not_visible, disabled, not_editable, not_stable, occluded otherwise."""
        timeout = self.options.actionability_timeout
        checks = {
            "pointer": pointer,
            "enabled": enabled,
            "editable": editable,
            "timeoutMs": int(timeout * 1000),
        }
        for attempt in range(1, _RENDERED_AGAIN_TRIES + 1):
            state = await bridge.call(target.world, "ready", target.local_id, checks, timeout=timeout + 3.0)
            if state["ok"]:
                return await viewport_point(self.tab, target, state["point"])
            rendered_again = state["reason"] == ErrorCode.NOT_FOUND and target is self._target
            if not (rendered_again and attempt < _RENDERED_AGAIN_TRIES and await self._find_again(target)):
                break
        raise ActionError(
            state["reason"],
            f"{describe(target)}: {state['message']}",
            covering=state.get("covering"),
        )

    async def _find_again(self, gone: Target) -> bool:
        """`gone` left the page while it was made ready: the page rendered it again as a
        new element (a virtual list repaints the rows it scrolls into view, a framework
        replaces the node on a render). Look it up again as the request named it; when
        that finds the same control (its role and name), `gone` names the new element."""
        self._target = None
        try:
            fresh = await self.target()
        except ActionError:
            fresh = None
        self._target = gone
        if fresh is None or not gone.descriptor.matches(fresh.role, fresh.name):
            return False
        gone.become(fresh)
        return True

    async def call(self, target: Target, function: str, *args: Any) -> Any:
        return await bridge.call(target.world, function, target.local_id, *args)

    async def deliver(self, make_input: Callable[[], Awaitable[Any]]) -> None:
        """Send real input. When it opens a dialog, the page (and the input) wait for an
        answer: the input is left running and the action returns."""
        tab = self.tab
        task = asyncio.ensure_future(make_input())
        opened = asyncio.ensure_future(tab.dialogs.opened.wait())
        try:
            done, _ = await asyncio.wait(
                {task, opened},
                timeout=self.options.input_timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            opened.cancel()
        if task in done:
            try:
                task.result()
            except PlaywrightError as exc:
                if tab.playwright_page.is_closed():  # delivered: the page closed its tab in answer
                    return
                raise ActionError(ErrorCode.INPUT_FAILED, first_line(exc)) from exc
            return
        if tab.dialogs.pending:
            task.add_done_callback(_consume)
            tab.dialogs.block(task)
            return
        task.cancel()
        raise ActionError(ErrorCode.TIMEOUT, f"the input did not complete within {self.options.input_timeout:g} s")


def describe(target: Target) -> str:
    name = f' "{target.name}"' if target.name else ""
    return f"{target.role}{name} [id {target.id}]"


def _consume(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()


# ---- the actions


async def _point(act: Act) -> tuple[float, float]:
    """The request's x and y, once they are known to lie in the viewport: a point outside
    it reaches nothing, and the input would seem to succeed."""
    r = act.request
    assert r.x is not None and r.y is not None  # the request's validation pairs them
    world = await bridge.main_world(act.tab.page)
    width, height, *_ = await bridge.call(world, "viewportMetrics")
    for name, value, size in (("x", r.x, width), ("y", r.y, height)):
        if not 0 <= value < size:
            raise InvalidParameterError(
                name, f"{value:g} is outside the viewport ({width:g}×{height:g} CSS pixels): give a point inside it"
            )
    return r.x, r.y


async def _click(act: Act, *, double: bool) -> Done:
    button = act.page.mouse.dblclick if double else act.page.mouse.click
    verb = "double-clicked" if double else "clicked"
    if act.request.x is not None:
        px, py = await _point(act)
        world = await bridge.main_world(act.tab.page)
        hit = await bridge.call(world, "atPoint", px, py)
        await act.deliver(lambda: button(px, py))
        where = f"({px:g}, {py:g}) on {hit['description']}"
        return Done(f"{verb} at {where}", element_found=hit["found"])
    target = await act.target()
    x, y = await act.ready(target, pointer=True)
    await act.deliver(lambda: button(x, y))
    return Done(f"{verb} {describe(target)}", target)


@action(
    "click",
    "Click the element (or the point x, y) with a real mouse.",
    kind="element",
    target="required",
    points=True,
)
async def click(act: Act) -> Done:
    return await _click(act, double=False)


@action(
    "double_click",
    "Double-click the element (or the point x, y).",
    kind="element",
    target="required",
    points=True,
)
async def double_click(act: Act) -> Done:
    return await _click(act, double=True)


@action(
    "hover",
    "Move the mouse over the element (or to the point x, y).",
    kind="element",
    target="required",
    points=True,
)
async def hover(act: Act) -> Done:
    if act.request.x is not None:
        px, py = await _point(act)
        await act.deliver(lambda: act.page.mouse.move(px, py))
        return Done(f"moved the pointer to ({px:g}, {py:g})")
    target = await act.target()
    x, y = await act.ready(target, pointer=True, enabled=False)
    await act.deliver(lambda: act.page.mouse.move(x, y))
    return Done(f"hovering over {describe(target)}", target)


@action("focus", "Give the element the keyboard focus.", kind="element", target="required")
async def focus(act: Act) -> Done:
    target = await act.target()
    await act.ready(target, pointer=False, enabled=False)
    state = await act.call(target, "focus", "keep")
    if not state["focused"]:
        raise ActionError(ErrorCode.NOT_FOCUSABLE, f"{describe(target)} does not take focus")
    return Done(f"focused {describe(target)}", target)


async def _write(act: Act, text: str, *, replace: bool) -> Target:
    """Type `text` into the target: after its current text, or replacing it."""
    target = await act.target()
    await act.ready(target, pointer=False, editable=True)
    state = await act.call(target, "focus", "all" if replace else "end")
    if state["mode"] == "picker":
        # Date, time, colour and range inputs have no typeable text: set it as their picker would.
        outcome = await act.call(target, "setPickerValue", text)
        if not outcome["accepted"]:
            raise ActionError(ErrorCode.INVALID_VALUE, f"{describe(target)} does not accept {text!r}")
        return target
    if not state["focused"]:
        raise ActionError(ErrorCode.NOT_FOCUSABLE, f"{describe(target)} did not take focus")
    if text:
        await _enter_text(act, text)
    elif replace:
        await act.deliver(lambda: act.page.keyboard.press("Delete"))
    return target


# Text up to this long is typed key by key, as a user types it: pages listen to the keys
# (autocomplete, counters). Longer text is inserted whole (one input event): at a few ms a
# key, thousands of keys would outlast the input's time limit and leave it half typed.
MAX_KEYED_TEXT = 256


async def _enter_text(act: Act, text: str) -> None:
    """Type `text` where the focus is."""
    keyboard = act.page.keyboard
    if len(text) <= MAX_KEYED_TEXT:
        await act.deliver(lambda: keyboard.type(text))
    else:
        await act.deliver(lambda: keyboard.insert_text(text))


@action(
    "type",
    "Type text (appended) into the element, or where the focus is when no target is given; key by key "
    f"up to {MAX_KEYED_TEXT} characters, longer text inserted at once.",
    kind="element",
    target="optional",
    reads=("text",),
    needs=(need("text", "the text to type"),),
)
async def type_text(act: Act) -> Done:
    text = act.request.text or ""
    if not act.request.has_target:
        await _check_focus_takes_text(act)
        await _enter_text(act, text)
        return Done("typed into the focused element", element_found=False)
    target = await _write(act, text, replace=False)
    return Done(f"typed into {describe(target)}", target)


async def _check_focus_takes_text(act: Act) -> None:
    """Typing with no target goes where the focus is; with no field there it would
    change nothing, and say it typed. (A frame with the focus is left to decide.)"""
    world = await bridge.main_world(act.tab.page)
    focused = await bridge.call(world, "find", {"kind": "focused"})
    if focused["status"] == "frame" or (focused["status"] == "ok" and focused["editable"]):
        return
    where = ""
    if focused["status"] == "ok":
        name = f' "{focused["name"]}"' if focused["name"] else ""
        where = f" (the focus is on {focused['role']}{name} [id {focused['id']}])"
    raise ActionError(
        ErrorCode.NOT_EDITABLE,
        f"no field has the focus{where}: give the field as element_id or selector",
    )


def _text_value(request: InteractRequest) -> str:
    value = request.value if request.value is not None else request.text
    if isinstance(value, list):
        raise InvalidParameterError("value", "set_value takes one value, not a list")
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    return value or ""


@action(
    "set_value",
    "Replace the element's value with value (or text), typed as type does; an ARIA slider or spin button is "
    "moved to it by keyboard (a field that is one too, when it refuses the typed text).",
    kind="element",
    target="required",
    reads=("value", "text"),
    needs=(need("value", "the new value", lambda r: r.value is not None or r.text is not None, alone=False),),
)
async def set_value(act: Act) -> Done:
    value = _text_value(act.request)
    target = await act.target()
    widget = await act.call(target, "rangeWidget")
    if widget is not None:
        return await _set_range(act, target, widget, value)
    target = await _write(act, value, replace=True)
    if await act.call(target, "fieldText") != value:
        # A field that a script made a spin button may refuse keys but its arrows (a spinner).
        widget = await act.call(target, "rangeWidget", True)
        if widget is not None and widget["now"] is not None:
            return await _set_range(act, target, widget, value, typed=True)
    return Done(f"set the value of {describe(target)}{await _mismatch(act, target, value)}", target)


# Key presses toward an ARIA slider's value: from the nearer of its ends and where it
# stands, a hundred steps reach any value of a 0 to 100 slider.
MAX_RANGE_PRESSES = 200
# The keys that move a slider or spin button a step (ARIA APG), for each direction by
# preference: Up and Down first, as both kinds of widget take them.
_STEP_KEYS = {True: ("ArrowUp", "ArrowRight"), False: ("ArrowDown", "ArrowLeft")}


async def _set_range(act: Act, target: Target, widget: dict[str, Any], text: str, *, typed: bool = False) -> Done:
    """An ARIA slider or spin button takes no typed text: reach `text` by keyboard, as a
    user does (Home or End when an end is nearer, then the arrow keys a step at a time),
    reading aria-valuenow after every key (`typed`: a field that refused the text, read as
    the engine's rangeWidget reads it then)."""
    want = _range_value(target, widget, text)
    await act.ready(target, pointer=False)
    if not (await act.call(target, "focus", "keep"))["focused"]:
        raise ActionError(ErrorCode.NOT_FOCUSABLE, f"{describe(target)} does not take focus")
    start = now = float(widget["now"])
    for end, key in ((widget["min"], "Home"), (widget["max"], "End")):
        if end is not None and abs(want - end) < abs(want - now):
            now = await _press_range(act, target, key, typed)
    for _ in range(MAX_RANGE_PRESSES):
        if math.isclose(now, want):
            return Done(f"set the value of {describe(target)} to {now:g}", target)
        moved = await _step_range(act, target, up=want > now, now=now, typed=typed)
        if moved is None:
            break
        if (moved > want) == (want > now) and not math.isclose(moved, want):  # no step lands on it
            return Done(f"set the value of {describe(target)} to {moved:g}: its steps pass over {want:g}", target)
        now = moved
    holds = f"it holds {now:g}" if math.isfinite(now) else "it no longer says its value"
    why = "did not move" if math.isclose(now, start) else "did not get"
    raise ActionError(
        ErrorCode.STATE_UNCHANGED, f"{describe(target)} {why} to {want:g} with Home, End or the arrow keys ({holds})"
    )


def _range_value(target: Target, widget: dict[str, Any], text: str) -> float:
    """`text` as a value the widget can take; invalid_value naming its range otherwise."""
    low, high = widget["min"], widget["max"]
    if widget["now"] is None:
        raise ActionError(
            ErrorCode.INVALID_VALUE, f"{describe(target)} does not say its value (aria-valuenow) to set it by"
        )
    try:
        want = float(text)
    except ValueError:
        want = math.nan
    if not math.isfinite(want) or (low is not None and want < low) or (high is not None and want > high):
        span = f" from {low:g} to {high:g}" if low is not None and high is not None else ""
        raise ActionError(ErrorCode.INVALID_VALUE, f"{describe(target)} takes a number{span}, not {text!r}")
    return want


async def _step_range(act: Act, target: Target, *, up: bool, now: float, typed: bool) -> float | None:
    """One step up or down, by the first key that moves the widget that way; None when none does."""
    for key in _STEP_KEYS[up]:
        moved = await _press_range(act, target, key, typed)
        if moved > now if up else moved < now:  # nan compares false: no value, no step
            return moved
    return None


async def _press_range(act: Act, target: Target, key: str, typed: bool) -> float:
    """Press `key`; the widget's value after it (nan when it no longer says one)."""
    await act.deliver(lambda: act.page.keyboard.press(key))
    widget = await act.call(target, "rangeWidget", typed)
    return math.nan if widget is None or widget["now"] is None else float(widget["now"])


@action("clear", "Empty the field.", kind="element", target="required")
async def clear(act: Act) -> Done:
    target = await _write(act, "", replace=True)
    return Done(f"cleared {describe(target)}{await _mismatch(act, target, '')}", target)


async def _mismatch(act: Act, target: Target, expected: str) -> str:
    """A note when the field ended up holding something else (a mask, a max length);
    invalid_value when it holds nothing of it (a number field given letters drops them,
    an invalid number reads as empty). Sensitive fields are never read back."""
    if act.tab.dialogs.pending:
        return ""
    actual = await act.call(target, "fieldText")
    if actual is None or actual == expected:
        return ""
    if not actual:
        raise ActionError(ErrorCode.INVALID_VALUE, f"{describe(target)} does not accept {expected!r}: it is left empty")
    return "; note: the field now holds a different value (the page reformatted or limited the input)"


_KEY_NAMES = {
    "ctrl": "Control", "control": "Control", "cmd": "Meta", "command": "Meta", "meta": "Meta",
    "win": "Meta", "alt": "Alt", "option": "Alt", "shift": "Shift", "enter": "Enter",
    "return": "Enter", "esc": "Escape", "escape": "Escape", "tab": "Tab", "space": "Space",
    "backspace": "Backspace", "delete": "Delete", "del": "Delete", "up": "ArrowUp",
    "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight", "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
    "pageup": "PageUp", "pagedown": "PageDown", "home": "Home", "end": "End", "insert": "Insert",
}  # fmt: skip


def normalize_key(key: str) -> str:
    """ "ctrl+a" → "Control+a"; Playwright's own names pass through."""
    parts = [p.strip() for p in key.split("+")] if key != "+" else ["+"]
    if any(not p for p in parts):
        raise InvalidParameterError("key", f"{key!r} is not a key or chord")
    return "+".join(_KEY_NAMES.get(p.lower(), p) if len(p) > 1 else p for p in parts)


@action(
    "press",
    'Press key ("Enter", "Control+A") on the element, or where the focus is.',
    kind="element",
    target="optional",
    reads=("key",),
    needs=(need("key", 'a key or chord such as "Enter" or "Control+A"', lambda r: bool(r.key)),),
)
async def press(act: Act) -> Done:
    key = normalize_key(act.request.key or "")
    target = None
    if act.request.has_target:
        target = await act.target()
        await act.ready(target, pointer=False, enabled=True)
        await act.call(target, "focus", "keep")
    try:
        await act.deliver(lambda: act.page.keyboard.press(key))
    except ActionError as exc:
        if "Unknown key" in exc.message:
            raise InvalidParameterError("key", exc.message) from exc
        raise
    where = f" in {describe(target)}" if target else ""
    return Done(f"pressed {key}{where}", target, element_found=target is not None)


@action(
    "select",
    "Choose options of a select, listbox or dropdown (a button that opens a list) by value or label "
    "(value; a list selects several).",
    kind="element",
    target="required",
    reads=("value",),
    needs=(need("value", "the option's value or label"),),
)
async def select(act: Act) -> Done:
    value = act.request.value
    wanted = [str(v) for v in value] if isinstance(value, list) else [_text_value(act.request)]
    target = await act.target()
    await act.ready(target, pointer=False)
    outcome = await act.call(target, "selectOptions", wanted)
    if not outcome["native"]:
        if not outcome["dropdown"]:
            raise ActionError(
                ErrorCode.NOT_SELECTABLE,
                f"{describe(target)} is not a select or a dropdown (combobox, listbox, or a button that opens one)",
            )
        return await _select_custom(act, target, wanted)
    if not outcome["ok"]:
        options = ", ".join(repr(o) for o in outcome["options"])
        if outcome.get("missing"):
            raise ActionError(
                ErrorCode.OPTION_NOT_FOUND,
                f"{describe(target)} has no option {outcome['missing'][0]!r}; options: {options}",
            )
        if outcome.get("disabled"):
            raise ActionError(ErrorCode.DISABLED, f"option {outcome['disabled']!r} of {describe(target)} is disabled")
        raise InvalidParameterError("value", f"{describe(target)} takes one option, not several")
    chosen = ", ".join(repr(s) for s in outcome["selected"])
    return Done(f"selected {chosen} in {describe(target)}", target)


# What a scripted dropdown's entries are: a listbox's options, a menu button's items; in
# one without ARIA, the links or the elements its script made clickable.
_OPTION_ROLES = ("option", "menuitem", "menuitemradio", "menuitemcheckbox", "link", "clickable")


async def _select_custom(act: Act, target: Target, wanted: list[str]) -> Done:
    """A scripted dropdown (an ARIA combobox, listbox or menu button): open it, then click
    the option of that name. With none, the list is closed again (Escape) and nothing
    else is clicked."""
    x, y = await act.ready(target, pointer=True)
    await act.deliver(lambda: act.page.mouse.click(x, y))
    await settle(act.tab.page, act.options.settle)
    for value in wanted:
        option = await _option_named(act, target, value)
        if option is None:
            if target.role != "listbox":  # a listbox shows its options in place: nothing opened
                await act.deliver(lambda: act.page.keyboard.press("Escape"))
            raise ActionError(ErrorCode.OPTION_NOT_FOUND, f"{describe(target)} has no option {value!r}")
        await _click_option(act, *await act.ready(option, pointer=True))
    return Done(f"selected {', '.join(map(repr, wanted))} in {describe(target)}", target)


async def _click_option(act: Act, x: float, y: float) -> None:
    await act.deliver(lambda: act.page.mouse.click(x, y))


async def _option_named(act: Act, target: Target, value: str) -> Target | None:
    frame = ".".join(target.frame_path) or None
    for role in _OPTION_ROLES:
        with contextlib.suppress(ActionError):
            return await resolve(act.tab, element_id=None, selector=f'role={role}[name="{value}"]', frame=frame)
    return None


async def _set_checked(act: Act, checked: bool) -> Done:
    target = await act.target()
    state = await act.call(target, "checkedState")
    verb = "checked" if checked else "unchecked"
    if state is None:
        raise ActionError(ErrorCode.NOT_CHECKABLE, f"{describe(target)} is not a checkbox, radio button or switch")
    if state == checked:
        return Done(f"{describe(target)} was already {verb}", target)
    if not checked and target.role == "radio":
        raise ActionError(ErrorCode.NOT_CHECKABLE, "a radio button is unchecked by checking another one of its group")
    try:
        x, y = await act.ready(target, pointer=True)
    except ActionError as exc:
        # Custom-styled boxes hide the input and show its label: click the label.
        label_id = await act.call(target, "labelFor") if exc.code == "not_visible" else None
        if label_id is None:
            raise
        label = dataclasses.replace(target, local_id=label_id, role="label")
        x, y = await act.ready(label, pointer=True)
    await act.deliver(lambda: act.page.mouse.click(x, y))
    if not act.tab.dialogs.pending and await act.call(target, "checkedState") != checked:
        raise ActionError(ErrorCode.STATE_UNCHANGED, f"clicked {describe(target)} but it is still not {verb}")
    return Done(f"{verb} {describe(target)}", target)


@action("check", "Tick a checkbox, radio or switch.", kind="element", target="required")
async def check(act: Act) -> Done:
    return await _set_checked(act, True)


@action("uncheck", "Untick a checkbox or switch.", kind="element", target="required")
async def uncheck(act: Act) -> Done:
    return await _set_checked(act, False)


def _check_scroll(r: InteractRequest) -> None:
    if isinstance(r.value, list):
        raise InvalidParameterError("value", "scroll takes a direction or a number of pixels")


def _check_scroll_to_load(r: InteractRequest) -> None:
    if r.value is not None and not (
        isinstance(r.value, int | float) and r.value == int(r.value) and 1 <= r.value <= MAX_ITEMS_LIMIT
    ):
        raise InvalidParameterError("value", f"scroll_to_load takes a number of items from 1 to {MAX_ITEMS_LIMIT}")


def _check_wait_for(r: InteractRequest) -> None:
    # Refused rather than capped: a wait cut short unannounced would read as "it never came".
    if r.value is not None and not (isinstance(r.value, int | float) and 0 <= r.value <= MAX_WAIT_MS):
        raise InvalidParameterError("value", f"wait_for takes a number of milliseconds from 0 to {MAX_WAIT_MS}")


@action(
    "scroll",
    'Scroll the page or inside the target: value "down" (default), "up", "top", "bottom" or '
    "pixels; a target without value is scrolled into view.",
    kind="element",
    target="optional",
    reads=("value",),
    check=_check_scroll,
)
async def scroll(act: Act) -> Done:
    value = act.request.value
    how = value if value is not None else "down"
    if isinstance(how, str) and how not in ("down", "up", "top", "bottom"):
        raise InvalidParameterError("value", 'scroll takes "down", "up", "top", "bottom" or a number of pixels')
    if not act.request.has_target:
        world = await bridge.main_world(act.tab.page)
        moved = await bridge.call(world, "scroll", None, how)
        return Done(_scrolled("the page", moved), element_found=False, after_settling=_grown(world, None, moved))
    target = await act.target()
    if value is None:
        state = await act.call(target, "scrollIntoView")
        if not state["inViewport"]:
            raise ActionError(ErrorCode.NOT_VISIBLE, f"{describe(target)} could not be scrolled into view")
        return Done(f"scrolled {describe(target)} into view", target)
    moved = await act.call(target, "scroll", how)
    grown = _grown(target.world, target.local_id, moved)
    return Done(_scrolled(moved["container"], moved), target, after_settling=grown)


N = TypeVar("N", int, float)


def _number(value: str | float | list[str] | None, kind: type[N], *, default: N) -> N:
    """`value` as a number of `kind` (the request's validator made sure it is one)."""
    if value is None:
        return default
    if isinstance(value, str | list):
        raise InvalidParameterError("value", f"expected a number, not {value!r}")
    return kind(value)


@action(
    "scroll_to_load",
    "Scroll a virtual list or infinite scroll (the target, or the page) until value (default "
    "100) new items show, the end is reached, or 15 s; `loaded` counts the new items.",
    kind="element",
    target="optional",
    reads=("value",),
    check=_check_scroll_to_load,
)
async def scroll_to_load(act: Act) -> Done:
    max_items = _number(act.request.value, int, default=100)
    target: Target | None = None
    if act.request.has_target:
        target = await act.target()
        world, local_id = target.world, target.local_id
    else:
        world, local_id = await bridge.main_world(act.tab.page), None
    loaded = await loading.scroll_to_load(world, local_id, max_items=max_items)
    more = "the end is reached" if loaded.reached_end else "more may load"
    message = (
        f"scrolled {loaded.container} {loaded.scrolls} times: {loaded.new_items} new items, "
        f"{loaded.new_controls} new controls; {more}"
    )
    return Done(message, target, element_found=target is not None, loaded=loaded)


def _scrolled(what: str, moved: dict[str, Any]) -> str:
    where = "the end" if moved["atEnd"] else f"{moved['after']} of {moved['max']} px"
    if moved["before"] == moved["after"]:
        return f"{what} did not move (at {where})"
    return f"scrolled {what} from {moved['before']} to {where}"


def _grown(world: FrameWorld, local_id: str | None, moved: dict[str, Any]) -> Callable[[], Awaitable[str]]:
    """What a scroll's end became once the page settled: an infinite scroll loads more
    as its end comes into view, and the end said before is no longer one."""

    async def note() -> str:
        now = await bridge.call(world, "scroll", local_id, 0)  # scrolls by nothing: measures
        if now["max"] <= moved["max"] + 1:
            return ""
        return f"; then more content loaded: the end moved from {moved['max']} to {now['max']} px"

    return note


# What a click may make open a file chooser: a button, link or menu item (scripted to open
# one), a label (of a file input), anything the page made clickable. A field never does.
_CHOOSER_OPENERS = frozenset({"button", "link", "menuitem", "clickable", "label"})


def _check_upload(r: InteractRequest) -> None:
    if r.value == []:
        raise InvalidParameterError("value", "upload_file takes a path, or a list of at least one")


@action(
    "upload_file",
    "Attach files to a file input: value is a path or a list of paths.",
    kind="element",
    target="required",
    reads=("value",),
    needs=(need("value", "the path of the file to upload"),),
    check=_check_upload,
)
async def upload_file(act: Act) -> Done:
    value = act.request.value
    paths = [str(v) for v in value] if isinstance(value, list) else [str(value)]
    for path in paths:
        if not await asyncio.to_thread(Path(path).is_file):
            raise ActionError(ErrorCode.FILE_NOT_FOUND, f"no file at {path}")
    target = await act.target()
    names = ", ".join(Path(p).name for p in paths)
    file_input = await act.call(target, "fileInput")
    if file_input is not None:
        _check_file_count(target, paths, multiple=file_input["multiple"])
        try:
            await _locator(act, target).set_input_files(paths, timeout=act.options.input_timeout * 1000)
        except PlaywrightError as exc:
            raise ActionError(ErrorCode.UPLOAD_FAILED, first_line(exc)) from exc
        return Done(f"attached {names} to {describe(target)}", target)
    if target.role not in _CHOOSER_OPENERS:
        raise ActionError(
            ErrorCode.UPLOAD_FAILED,
            f"{describe(target)} is not a file input, nor a button that opens a file chooser: "
            "give the file input, or the button or label that opens it",
        )
    x, y = await act.ready(target, pointer=True)
    try:
        chosen = await _choose_files(act, target, (x, y), paths)
    except PlaywrightError as exc:
        raise ActionError(ErrorCode.UPLOAD_FAILED, f"{describe(target)}: {first_line(exc)}") from exc
    if not chosen:
        raise ActionError(
            ErrorCode.UPLOAD_FAILED,
            f"clicked {describe(target)} but no file chooser opened within {act.options.input_timeout:g} s",
        )
    return Done(f"attached {names} through {describe(target)}", target)


def _check_file_count(target: Target, paths: list[str], *, multiple: bool) -> None:
    """An input without `multiple` takes one file (Playwright's own refusal reads as its bug)."""
    if len(paths) > 1 and not multiple:
        raise ActionError(
            ErrorCode.UPLOAD_FAILED, f"{describe(target)} takes one file, not {len(paths)}: give one path"
        )


async def _choose_files(act: Act, target: Target, point: tuple[float, float], paths: list[str]) -> bool:
    """Click `target` at `point` and give `paths` to the file chooser the click opens;
    False when none opens within the input timeout. The chooser is intercepted on a CDP
    session of its own, switched on before the click and confirmed: Playwright's
    expect_file_chooser asks for it without waiting, so a prompt click could open the
    chooser unseen."""
    cdp = await act.page.context.new_cdp_session(act.page)
    opened: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    def on_opened(event: dict[str, Any]) -> None:
        if not opened.done():
            opened.set_result(event)

    cdp.on("Page.fileChooserOpened", on_opened)
    try:
        await cdp.send("Page.enable")
        await cdp.send("Page.setInterceptFileChooserDialog", {"enabled": True})
        await act.page.mouse.click(*point)
        try:
            event = await asyncio.wait_for(opened, act.options.input_timeout)
        except TimeoutError:
            return False
        if "backendNodeId" not in event:  # a picker of the File System Access API: no input to fill
            return False
        _check_file_count(target, paths, multiple=event["mode"] == "selectMultiple")
        await cdp.send("DOM.setFileInputFiles", {"files": paths, "backendNodeId": event["backendNodeId"]})
        return True
    finally:
        with contextlib.suppress(PlaywrightError):
            await cdp.send("Page.setInterceptFileChooserDialog", {"enabled": False})
            await cdp.detach()


def _locator(act: Act, target: Target) -> Any:
    scope: Any = act.page
    for owner in target.frame_path:
        scope = scope.frame_locator(f'[data-llm-id="{owner}"]')
    return scope.locator(f'[data-llm-id="{target.local_id}"]')


@action(
    "wait_for",
    f"Wait up to value ms (default 10000, at most {MAX_WAIT_MS}) for text, the target, or url (a "
    "substring or a * glob) to appear; value alone waits that long.",
    kind="element",
    target="optional",
    reads=("text", "url", "value"),
    needs=(
        need(
            "text",
            "what to wait for: text, element_id/selector, url, or value (ms)",
            lambda r: bool(r.has_target or r.text or r.url or r.value is not None),
            alone=False,
        ),
    ),
    check=_check_wait_for,
)
async def wait_for(act: Act) -> Done:
    r = act.request
    limit_ms = _number(r.value, float, default=act.options.wait_timeout * 1000)
    if not (r.text or r.url or r.has_target):
        await asyncio.sleep(limit_ms / 1000)
        return Done(f"waited {limit_ms:g} ms", element_found=False)
    if r.text:
        world = await bridge.main_world(act.tab.page)
        if not await bridge.call(world, "waitForText", r.text, limit_ms, timeout=limit_ms / 1000 + 2.0):
            raise ActionError(ErrorCode.TIMEOUT, f"the text {r.text!r} did not appear within {limit_ms:g} ms")
        return Done(f"the page shows {r.text!r}", element_found=False)
    if r.url:
        pattern = r.url
        matches = (lambda u: fnmatch.fnmatchcase(u, pattern)) if "*" in pattern else (lambda u: pattern in u)
        try:
            await act.page.wait_for_url(matches, timeout=limit_ms, wait_until="load")
        except PlaywrightError as exc:
            raise ActionError(
                ErrorCode.TIMEOUT, f"the address did not match {pattern!r} within {limit_ms:g} ms"
            ) from exc
        return Done(f"the address is {act.page.url}", element_found=False)
    return await _wait_for_element(act, limit_ms)


async def _wait_for_element(act: Act, limit_ms: float) -> Done:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_ms / 1000
    while True:
        with contextlib.suppress(ActionError):
            target = await act.target()
            with contextlib.suppress(ActionError):
                await act.ready(target, pointer=False, enabled=False)
                return Done(f"{describe(target)} is visible", target)
        remaining = deadline - loop.time()
        if remaining <= 0:
            what = act.request.element_id or act.request.selector
            raise ActionError(ErrorCode.TIMEOUT, f"{what} did not appear within {limit_ms:g} ms")
        act._target = None  # look it up afresh after the next change
        world = await bridge.main_world(act.tab.page)
        with contextlib.suppress(bridge.DocumentChanged):
            await bridge.call(world, "waitForChange", int(remaining * 1000), timeout=remaining + 2.0)


# ---- running an action and verifying it


# Actions that type into a field: the page is read once a debounced field has answered.
_TYPING_ACTIONS = frozenset({"type", "set_value", "clear"})


async def perform(tab: Tab, request: InteractRequest, options: ActionOptions) -> ActionResult:
    options = replace(options, summary=request.summary_of_landing)
    if request.action in _TYPING_ACTIONS:
        options = replace(options, settle=options.settle.after_typing())
    watch = await Watch.start(tab)
    act = Act(tab, request, options, watch)
    tab.dialogs.hold()
    try:
        done = await SPECS[request.action].handler(act)
    except BaseException:
        tab.dialogs.stop_holding()
        await watch.discard()
        raise
    return await conclude(tab, request.action, watch, done, options)


async def conclude(tab: Tab, action: str, watch: Watch, done: Done, options: ActionOptions) -> ActionResult:
    """Let the page settle (or, when a dialog holds it, park the action), then verify."""
    try:
        if not tab.dialogs.pending:
            with _unless_closed(tab):
                await _settle_unless_dialog(tab, watch, options)
        if done.after_settling is not None and not tab.dialogs.pending and not tab.playwright_page.is_closed():
            with contextlib.suppress(ActionError, bridge.DocumentChanged):
                done.message += await done.after_settling()
        verdict = await watch.finish(element_found=done.element_found)
    finally:
        tab.dialogs.stop_holding()
    target = done.target
    result = ActionResult(
        success=True,
        action=action,
        url=tab.playwright_page.url,
        message=done.message,
        tab_id=tab.id,
        element_id=target.id if target else None,
        selector_path=target.selector if target else None,
        observations=verdict.observations,
        loaded=done.loaded,
    )
    if target is not None and target.healed_from is not None:
        result.healed, result.old_id, result.new_id = True, target.healed_from, target.id
    if verdict.observations.tab_closed:
        result.message = f"{done.message}; {_after_closing(tab)}"
        return result
    if tab.dialogs.pending:
        tab.dialogs.park(Parked(tab, watch, done, options))
        pending = tab.dialogs.pending
        result.message = f"{done.message}; {dialog_prompt(pending)}"
        return result
    result.title = await tab.title()
    tab.last_url = tab.playwright_page.url
    if verdict.navigated:
        await landed(tab, result, summary=options.summary, summary_timeout=options.summary_timeout)
    return result


@contextlib.contextmanager
def _unless_closed(tab: Tab) -> Iterator[None]:
    """A page that closed its own tab meanwhile fails what waited on it: no failure of the
    action, which reports the tab closed."""
    try:
        yield
    except (PagelensError, PlaywrightError):
        if not tab.playwright_page.is_closed():
            raise


def _after_closing(tab: Tab) -> str:
    """Where the agent is once the page closed its own tab."""
    active = tab.tabs.active() if tab.tabs is not None else None
    now = f"tab {active.id} ({active.playwright_page.url}) is active now" if active else "no tab is left open"
    return f"the page closed its tab {tab.id}; {now}"


def dialog_prompt(dialog: DialogInfo) -> str:
    article = "an" if dialog.type[0] in "aeiou" else "a"
    return (
        f"the page opened {article} {dialog.type} dialog ({dialog.message!r}) and waits: answer "
        f'it with handle_dialog (value "accept" or "dismiss"), or the next action answers it '
        "by the dialog policy"
    )


async def _settle_unless_dialog(tab: Tab, watch: Watch, options: ActionOptions) -> None:
    """Settle; a click that started a navigation waits for the new page's load. A dialog
    freezes the page, so waiting stops when one opens."""

    async def settle_all() -> None:
        await settle(tab.page, options.settle, load_timeout=options.navigation_timeout)
        # A navigation that started but has not loaded yet (a slow server): wait for it.
        loading = watch.navigation_started and tab.loads == watch_loads
        if loading and await tab.wait_for_load(watch_loads, watch.abandoned, options.navigation_timeout):
            await settle(tab.page, options.settle, load_timeout=options.navigation_timeout)

    watch_loads = watch.loads
    task = asyncio.ensure_future(settle_all())
    opened = asyncio.ensure_future(tab.dialogs.opened.wait())
    try:
        await asyncio.wait({task, opened}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        opened.cancel()
    if task.done():
        task.result()
    else:
        task.cancel()
        task.add_done_callback(_consume)


async def handle_dialog(tab: Tab, request: InteractRequest, options: ActionOptions) -> ActionResult:
    """Answer the open dialog; finish the action that opened it, if one is waiting."""
    answer: Literal["accept", "dismiss"] = "dismiss" if request.value == "dismiss" else "accept"
    tab.dialogs.hold()
    info = await tab.dialogs.answer(answer, request.text, by="agent")
    if info is None:
        tab.dialogs.stop_holding()
        last = tab.dialogs.take_report()
        raise ActionError(
            ErrorCode.NO_DIALOG,
            "no dialog is open" + (f"; the last one ({last.type}) was {last.handled} by the {last.by}" if last else ""),
        )
    await _unblock(tab, options)
    parked = tab.dialogs.take_parked()
    verb = "accepted" if answer == "accept" else "dismissed"
    message = f"{verb} the {info.type} dialog {info.message!r}"
    if parked is not None:
        return await parked.finish(message)
    watch = await Watch.start(tab)
    return await conclude(tab, "handle_dialog", watch, Done(message, element_found=False), options)


async def release(tab: Tab, options: ActionOptions) -> str | None:
    """Before any other call: a held dialog is answered by the policy, and the action
    that waited for it is let go. Returns what was done, for the call's message."""
    answered = await tab.dialogs.answer(None, None, by="policy") if tab.dialogs.pending else None
    await _unblock(tab, options)
    parked = tab.dialogs.take_parked()
    if parked is not None:
        await parked.discard()
    if answered is None:
        return None
    what = f"the open {answered.type} dialog {answered.message!r}"
    return f"first {answered.handled} {what} (dialog policy)"


async def _unblock(tab: Tab, options: ActionOptions) -> None:
    blocked = tab.dialogs.take_blocked()
    if blocked is not None:
        await asyncio.wait({blocked}, timeout=options.input_timeout)
