"""The `ask_user_which_element` tool: the user points at an element of the page with
the mouse (and the arrow keys), and the agent gets a selector and the element's details.
A run whose browser nobody sees asks through an ElementPicker instead (the daemon's web
UI, where the person clicks on a screenshot), and `element_at` reads what is under the
click with the same details.

The overlay (picker.js) runs in an isolated world of the main frame, so the page's
scripts neither see it nor break it, and it removes itself when it ends."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError
from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from pagelens.agent.tools.errors import PickerCancelledError, PickerTimeoutError
from pagelens.engine import ENGINE
from pagelens.errors import ErrorCode, PagelensError

_PICKER = resources.files(__package__).joinpath("picker.js").read_text(encoding="utf-8")
_WORLD_NAME = "pagelens-picker"
# Setting the overlay up and taking it down are quick; only the user's choice takes long.
_SETUP_TIMEOUT_S = 5.0


class AskUserParams(BaseModel):
    message: str = Field("", description="What the user is asked to point at, shown in a banner.")
    timeout: float = Field(120.0, gt=0, description="Seconds to wait for the user.")


class BoundingBox(BaseModel):
    """Where the element was, in CSS pixels of the viewport."""

    x: float
    y: float
    width: float
    height: float


class PickedElement(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    selector: str | None = Field(
        description="A CSS selector matching exactly this element, as the views build it; "
        "null when CSS cannot name it alone (inside one of several identical components)."
    )
    xpath: str
    text: str = Field(description="Its visible text, whitespace collapsed, cut at 500 characters.")
    tag_name: str
    attributes: dict[str, str]
    html: str = Field(description="Its outer HTML, cut at 2,000 characters.")
    bounding_box: BoundingBox


# How a headless run asks its user which element: given the run's page and the question.
ElementPicker = Callable[[Page, AskUserParams], Awaitable[PickedElement]]


async def ask_user_which_element(page: Page, params: AskUserParams) -> PickedElement:
    """Show the picker on `page` until the user chooses. Raises PickerCancelledError (Esc)
    or PickerTimeoutError; either way the overlay is gone afterwards."""
    session = await page.context.new_cdp_session(page)
    try:
        picker = await _install(session)
        try:
            outcome = await asyncio.wait_for(_call(session, picker, "pick", params.message), params.timeout)
        except TimeoutError as exc:
            raise PickerTimeoutError(f"no element was chosen within {params.timeout:g} s") from exc
        finally:
            # Timed out, cancelled by the agent or done: the overlay goes (a no-op when done).
            with contextlib.suppress(PlaywrightError, TimeoutError):
                await asyncio.wait_for(_call(session, picker, "stop"), _SETUP_TIMEOUT_S)
    except PlaywrightError as exc:  # the page navigated or closed under the picker
        reason = str(exc).splitlines()[0]
        raise PagelensError(
            f"the page changed while the user was choosing: {reason}", code=ErrorCode.DOCUMENT_CHANGED
        ) from exc
    finally:
        with contextlib.suppress(PlaywrightError):
            await session.detach()
    if outcome.get("cancelled"):
        raise PickerCancelledError("the user cancelled the choice (Esc)")
    return PickedElement.model_validate(outcome)


async def element_at(page: Page, x: float, y: float) -> PickedElement:
    """The element at (x, y), CSS pixels of the viewport, described as a click of the
    picker there describes it. Nothing there (outside the page): not_found."""
    session = await page.context.new_cdp_session(page)
    try:
        picker = await _install(session)
        outcome = await asyncio.wait_for(_call(session, picker, "describeAt", x, y), _SETUP_TIMEOUT_S)
    except PlaywrightError as exc:
        raise PagelensError(
            f"the page changed while looking at the point: {str(exc).splitlines()[0]}", code=ErrorCode.DOCUMENT_CHANGED
        ) from exc
    finally:
        with contextlib.suppress(PlaywrightError):
            await session.detach()
    if not outcome:
        raise PagelensError(f"no element is at ({x:g}, {y:g}) of the viewport", code=ErrorCode.NOT_FOUND)
    return PickedElement.model_validate(outcome)


async def _install(session: CDPSession) -> str:
    """The picker object, evaluated in a fresh isolated world of the main frame."""
    async with asyncio.timeout(_SETUP_TIMEOUT_S):
        tree = await session.send("Page.getFrameTree")
        world = await session.send(
            "Page.createIsolatedWorld", {"frameId": tree["frameTree"]["frame"]["id"], "worldName": _WORLD_NAME}
        )
        reply = await session.send(
            "Runtime.evaluate",
            {"expression": f"({_PICKER})({ENGINE.source()})", "contextId": world["executionContextId"]},
        )
    object_id: str = reply["result"]["objectId"]
    return object_id


async def _call(session: CDPSession, picker: str, method: str, *args: Any) -> dict[str, Any]:
    reply = await session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": f"function (...args) {{ return this.{method}(...args); }}",
            "objectId": picker,
            "arguments": [{"value": arg} for arg in args],
            "awaitPromise": True,
            "returnByValue": True,
        },
    )
    value: dict[str, Any] = reply["result"].get("value") or {}
    return value
