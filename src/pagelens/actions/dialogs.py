"""JavaScript dialogs (alert, confirm, prompt, beforeunload) that never wedge a session.

A dialog freezes its page until someone answers it. While an element action runs, a
dialog it opens is held for the agent: the action returns at once and reports it, and
`handle_dialog` answers it. Any other call answers a held dialog by the policy first (and
reports that), and so does a timer, so an unattended page never stays frozen. Dialogs
during navigation, or that the page opens on its own between calls, are answered by the
policy at once and reported by the next result.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Literal, Protocol

from playwright.async_api import Dialog
from playwright.async_api import Error as PlaywrightError

from pagelens.actions.models import ActionResult, DialogInfo

Answer = Literal["accept", "dismiss"]


class ParkedAction(Protocol):
    """An element action whose dialog is open: it ends when the dialog is answered."""

    async def finish(self, message: str) -> ActionResult:
        """Verify and report the action, `message` saying how its dialog was answered."""
        ...

    async def discard(self) -> None:
        """Let it go unreported (the next call answered the dialog by the policy)."""
        ...


@dataclass(frozen=True)
class DialogPolicy:
    """How dialogs nobody answers are answered. Leaving a page (beforeunload) is what the
    agent asked for; a confirm or prompt is refused rather than agreed to blindly."""

    alert: Answer = "accept"
    confirm: Answer = "dismiss"
    prompt: Answer = "dismiss"
    beforeunload: Answer = "accept"
    timeout: float = 10.0  # a held dialog is answered by the policy after this long

    def answer(self, dialog_type: str) -> Answer:
        return getattr(self, dialog_type, "dismiss")


class DialogBox:
    """The dialogs of one tab, and what waits on them: the input a dialog interrupted and
    the action it belongs to."""

    def __init__(self, policy: DialogPolicy) -> None:
        self.policy = policy
        self.opened = asyncio.Event()
        self._holding = False  # while an element action runs: a dialog waits for the agent
        self._pending: Dialog | None = None
        self._pending_info: DialogInfo | None = None
        self._unreported: DialogInfo | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._blocked: asyncio.Future[object] | None = None  # input waiting for the dialog to close
        self._parked: ParkedAction | None = None

    def hold(self) -> None:
        """From now on a dialog waits for the agent (the policy answers it after a while)."""
        self._holding = True

    def stop_holding(self) -> None:
        """From now on a dialog is answered by the policy at once."""
        self._holding = False

    def block(self, input_task: asyncio.Future[object]) -> None:
        """`input_task` (a click, typing) cannot finish until the open dialog is answered."""
        self._blocked = input_task

    def take_blocked(self) -> asyncio.Future[object] | None:
        blocked, self._blocked = self._blocked, None
        return blocked

    def park(self, action: ParkedAction) -> None:
        """`action` ends when the open dialog is answered."""
        self._parked = action

    def take_parked(self) -> ParkedAction | None:
        parked, self._parked = self._parked, None
        return parked

    @property
    def pending(self) -> DialogInfo | None:
        return self._pending_info

    def on_dialog(self, dialog: Dialog) -> None:
        """Playwright's dialog event handler."""
        info = DialogInfo(
            type=dialog.type,
            message=dialog.message[:500],
            default_value=dialog.default_value if dialog.type == "prompt" else None,
            handled="pending",
        )
        self._pending, self._pending_info = dialog, info
        self._unreported = info
        self.opened.set()
        loop = asyncio.get_running_loop()
        if self._holding:
            self._timer = loop.call_later(self.policy.timeout, self._answer_later, dialog)
        else:
            loop.create_task(self.answer(None, None, by="policy"))

    def _answer_later(self, dialog: Dialog) -> None:
        if self._pending is dialog:
            asyncio.get_running_loop().create_task(self.answer(None, None, by="policy"))

    async def answer(
        self, answer: Answer | None, text: str | None, *, by: Literal["agent", "policy"]
    ) -> DialogInfo | None:
        """Accept or dismiss the pending dialog (`answer` None: by the policy)."""
        dialog, info = self._pending, self._pending_info
        if dialog is None or info is None:
            return None
        self._pending = self._pending_info = None
        self.opened.clear()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        choice = answer or self.policy.answer(info.type)
        # The page may have closed or navigated away with it: then it is answered already.
        with contextlib.suppress(PlaywrightError):
            if choice == "accept":
                await dialog.accept(text) if text is not None else await dialog.accept()
            else:
                await dialog.dismiss()
        done = info.model_copy(update={"handled": "accepted" if choice == "accept" else "dismissed", "by": by})
        self._unreported = done
        return done

    def take_report(self) -> DialogInfo | None:
        """The latest dialog the agent has not been told about, once."""
        report, self._unreported = self._unreported, None
        return report
