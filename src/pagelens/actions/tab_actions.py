"""The actions on tabs and pages rather than on an element: navigation, tabs, dialogs,
screenshots (declared here, on their handlers; element actions are in perform.py)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Error as PlaywrightError

from pagelens.actions import navigation, perform, screenshots
from pagelens.actions.commands import CommandStore
from pagelens.actions.errors import ActionError
from pagelens.actions.models import ActionResult, InteractRequest
from pagelens.actions.registry import action, need
from pagelens.actions.tabs import Tab, Tabs
from pagelens.errors import InvalidParameterError


@dataclass
class TabCall:
    """One call of a tab or session action: the request and what it may use."""

    request: InteractRequest
    tabs: Tabs
    navigation: navigation.NavigationOptions
    actions: perform.ActionOptions
    commands: CommandStore
    tab: Tab | None = None  # the tab it acts in (None for session actions)

    @property
    def current(self) -> Tab:
        assert self.tab is not None, "a tab action runs in a tab"
        return self.tab


@action(
    "navigate",
    "Load url (a path is relative to the current page) and return its compact summary.",
    kind="tab",
    reads=("url", "tab_id", "new_tab", "summary"),
    navigates=True,
    needs=(need("url", "the address to load", lambda r: bool(r.url)),),
)
async def navigate(call: TabCall) -> ActionResult:
    tab, req = call.current, call.request
    base = tab.playwright_page.url
    if req.new_tab:
        tab = call.tab = await call.tabs.open()
        await call.tabs.activate(tab)
    elif req.tab_id is not None:
        await call.tabs.activate(tab)
    return await navigation.navigate(tab, req.url or "", call.navigation, summary=req.wants_summary, base=base)


async def _history(call: TabCall) -> ActionResult:
    req = call.request
    return await navigation.history(call.current, req.action, call.navigation, summary=req.wants_summary)


for _name, _doc in (
    ("refresh", "Reload the page."),
    ("back", "Go back in the tab's history."),
    ("forward", "Go forward in the tab's history."),
):
    action(_name, _doc + " Returns the compact summary.", kind="tab", reads=("tab_id", "summary"), navigates=True)(
        _history
    )


@action(
    "new_tab",
    "Open a tab (at url, relative to the current page, with its summary) and switch to it.",
    kind="session",
    reads=("url", "summary"),
    navigates=True,
)
async def new_tab(call: TabCall) -> ActionResult:
    req = call.request
    opener = call.tabs.active_url()
    tab = await call.tabs.open()
    await call.tabs.activate(tab)
    if not req.url:
        return ActionResult(
            success=True, action=req.action, url=tab.playwright_page.url, tab_id=tab.id,
            message=f"opened tab {tab.id}",
        )  # fmt: skip
    return await navigation.navigate(
        tab, req.url, call.navigation, summary=req.wants_summary, action=req.action, base=opener
    )


@action("list_tabs", "The open tabs: id, url, title, which is active.", kind="session")
async def list_tabs(call: TabCall) -> ActionResult:
    return ActionResult(success=True, action=call.request.action, tabs=await call.tabs.infos())


@action(
    "switch_tab",
    "Make tab_id the active tab; a dialog waiting there keeps waiting for handle_dialog.",
    kind="tab",
    reads=("tab_id",),
    answers_dialog=True,  # going back to a tab is no answer to its dialog
    needs=(need("tab_id", "the tab to switch to (see list_tabs)", lambda r: bool(r.tab_id)),),
)
async def switch_tab(call: TabCall) -> ActionResult:
    tab = call.current
    await call.tabs.activate(tab)
    result = ActionResult(
        success=True, action=call.request.action, tab_id=tab.id, url=tab.playwright_page.url,
        message=f"switched to tab {tab.id}",
    )  # fmt: skip
    pending = tab.dialogs.pending
    if pending is not None:  # the page is frozen until it is answered: nothing to wait for or read
        result.message = f"{result.message}; {perform.dialog_prompt(pending)}"
        return result
    with contextlib.suppress(PlaywrightError):  # a courtesy, never a failure
        await tab.playwright_page.wait_for_load_state("load", timeout=call.navigation.timeout * 1000)
    result.title = await tab.title()
    return result


@action("close_tab", "Close the tab (tab_id, default the active one).", kind="tab", reads=("tab_id",))
async def close_tab(call: TabCall) -> ActionResult:
    tab = call.current
    await call.tabs.close(tab)
    return ActionResult(success=True, action=call.request.action, tab_id=tab.id, message=f"closed tab {tab.id}")


def _check_dialog_answer(r: InteractRequest) -> None:
    if r.value is not None and r.value not in ("accept", "dismiss"):
        raise InvalidParameterError("value", 'handle_dialog takes "accept" or "dismiss"')


@action(
    "handle_dialog",
    'Answer the open dialog: value "accept" (default) or "dismiss", text for a prompt.',
    kind="tab",
    reads=("value", "text"),
    answers_dialog=True,
    check=_check_dialog_answer,
)
async def handle_dialog(call: TabCall) -> ActionResult:
    return await perform.handle_dialog(call.current, call.request, call.actions)


@action(
    "screenshot",
    "A JPEG of the viewport, or of the target element alone, at most 1024 px wide and 8000 px high.",
    kind="tab",
    target="optional",
)
async def screenshot(call: TabCall) -> ActionResult:
    tab, req = call.current, call.request
    shot = await screenshots.take(tab, element_id=req.element_id, selector=req.selector, frame=req.frame)
    facts = {k: v for k, v in screenshots.describe(shot).items() if k not in ("url", "mime_type")}
    return ActionResult(
        success=True, action=req.action, tab_id=tab.id, url=shot.url,
        image=shot.image_base64, mime_type=shot.mime_type, screenshot=facts,
    )  # fmt: skip


@action(
    "result",
    "The result of a background command (command_id); waits up to 15 s for it. A background "
    "navigation's result has no summary.",
    kind="command",
    reads=("command_id",),
    needs=(need("command_id", "the id returned by a background call", lambda r: bool(r.command_id)),),
)
async def result(call: TabCall) -> dict[str, Any]:
    command_id = call.request.command_id or ""
    try:
        done = await call.commands.result(command_id)
    except ActionError as exc:
        return ActionResult.failure(call.request.action, exc).to_json()
    if done is None:
        return ActionResult(
            success=True, action=call.request.action, queued=True, command_id=command_id,
            message="still running: ask for the result again",
        ).to_json()  # fmt: skip
    return done
