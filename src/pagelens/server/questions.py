"""`ask_user_which_element` in a run nobody can see: the question goes to the web UI (the
run's `question`, and a `run_question` event on the session's WebSocket), the person
clicks on the run's screenshot, and `POST /api/runs/{id}/pick` brings the point back to
the daemon running the run, which reads the element there with the page's
elementFromPoint (docs/server.md)."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from playwright.async_api import Page as PlaywrightPage
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from pagelens.agent.tools import AskUserParams, PickedElement, ask_user_which_element, element_at
from pagelens.agent.tools.errors import PickerCancelledError, PickerTimeoutError
from pagelens.server import screens
from pagelens.server.conversation import publish
from pagelens.server.state import Daemon
from pagelens.server.wire import wire_time
from pagelens.store import RunChanges


class PickPoint(BaseModel):
    """Where the person clicked on the screenshot, as fractions of its width and height
    (0 is the left or top edge)."""

    model_config = ConfigDict(extra="forbid")

    questionId: str = Field(min_length=1, max_length=100)  # noqa: N815
    x: float = Field(ge=0, le=1)
    y: float = Field(ge=0, le=1)


class PickCancel(BaseModel):
    """The person declined to choose."""

    model_config = ConfigDict(extra="forbid")

    questionId: str = Field(min_length=1, max_length=100)  # noqa: N815
    cancel: Literal[True]


PickRequest = PickPoint | PickCancel
_PICK: TypeAdapter[PickRequest] = TypeAdapter(PickRequest)


class Questions:
    """The questions one run asks its user, answered through the run's control channel
    (so any daemon may take the answer)."""

    def __init__(self, state: Daemon, run_id: str, session_id: str, *, headed: bool = False) -> None:
        self._state, self._run_id, self._session_id = state, run_id, session_id
        # A run whose browser window is on a screen can also be answered there, with the
        # on-page picker; the first answer, from either, wins.
        self._headed = headed
        self._waiting: dict[str, asyncio.Future[PickRequest]] = {}

    async def ask(self, page: PlaywrightPage, params: AskUserParams) -> PickedElement:
        """The agent's ElementPicker: shows the question with a fresh screenshot, waits for
        the click (or the person's cancel, or `params.timeout`)."""
        question_id = str(uuid.uuid4())
        question: dict[str, Any] = {
            "id": question_id,
            "message": params.message or "Choose an element",
            "askedAt": wire_time(datetime.now(UTC)),
            "inBrowser": self._headed,
        }
        answer: asyncio.Future[PickRequest] = asyncio.get_running_loop().create_future()
        self._waiting[question_id] = answer
        on_page = asyncio.ensure_future(ask_user_which_element(page, params)) if self._headed else None
        try:
            await screens.capture(self._state, self._run_id, self._session_id, page)
            await self._show(question)
            waiting: set[asyncio.Future[Any]] = {answer} if on_page is None else {answer, on_page}
            done, _ = await asyncio.wait(waiting, timeout=params.timeout, return_when=asyncio.FIRST_COMPLETED)
            if not done:
                raise PickerTimeoutError(f"no element was chosen within {params.timeout:g} s")
            if on_page is not None and on_page in done:
                return on_page.result()  # picked (or cancelled with Esc) in the browser window
            picked = answer.result()
        finally:
            if on_page is not None and not on_page.done():
                on_page.cancel()  # its overlay goes with it
                with contextlib.suppress(BaseException):
                    await on_page
            del self._waiting[question_id]
            await self._show(None)
        if isinstance(picked, PickCancel):
            raise PickerCancelledError("the user declined to choose an element")
        width, height = await page.evaluate("() => [innerWidth, innerHeight]")
        return await element_at(page, picked.x * width, picked.y * height)

    def answer(self, event: dict[str, Any]) -> None:
        """A `pick` from the control channel; one for no question waiting is dropped."""
        with contextlib.suppress(ValueError):
            pick = _PICK.validate_python({k: v for k, v in event.items() if k != "type"})
            waiting = self._waiting.get(pick.questionId)
            if waiting is not None and not waiting.done():
                waiting.set_result(pick)

    async def _show(self, question: dict[str, Any] | None) -> None:
        """The question is kept on the run (a reloaded page finds it) and pushed."""
        await self._state.store.runs.update(self._run_id, RunChanges(state={"question": question}))
        await publish(
            self._state, self._session_id, {"type": "run_question", "runId": self._run_id, "question": question}
        )
