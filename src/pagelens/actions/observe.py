"""Verification (the "sentinel"): what an action visibly did.

A `Watch` notes the tab's state before the input (address, document, request counters,
tabs it opened) and starts a mutation log in the page; after the page settles it
compares: url_changed, dom_mutated, network_requests, new_tab, tab_closed, download, dialog, recent_events
(the text of toasts, alerts and aria-live regions that appeared), has_errors and
has_success, and changes (the page's change log over the action: a tab selected, a
dialog shown, controls added).
"""

from __future__ import annotations

from dataclasses import dataclass

from pagelens.actions import bridge
from pagelens.actions.errors import ActionError
from pagelens.actions.models import Observations
from pagelens.actions.tabs import Tab


@dataclass
class Verdict:
    observations: Observations
    navigated: bool  # a new document, or the same one under a new address (pushState)


class Watch:
    """One action's before-and-after."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.url = tab.playwright_page.url
        self.requests = tab.requests
        self.navigations = tab.navigations
        self.loads = tab.loads
        self.abandoned = tab.navigations_abandoned
        self.popups = len(tab.popups)
        self.downloads = len(tab.downloads)
        self._token: int | None = None
        self._doc: str | None = None

    @classmethod
    async def start(cls, tab: Tab) -> Watch:
        watch = cls(tab)
        world = await bridge.main_world(tab.page)
        started = await bridge.call(world, "observeStart")
        watch._token, watch._doc = started["token"], started["doc"]
        return watch

    @property
    def navigation_started(self) -> bool:
        return self.tab.navigations > self.navigations

    async def finish(self, *, element_found: bool) -> Verdict:
        tab = self.tab
        observations = Observations(
            url_changed=tab.playwright_page.url != self.url,
            network_requests=tab.requests - self.requests,
            new_tab=tab.popups[self.popups] if len(tab.popups) > self.popups else None,
            download=tab.downloads[self.downloads] if len(tab.downloads) > self.downloads else None,
            element_found=element_found,
        )
        if tab.playwright_page.is_closed():  # window.close(): no page left to read
            observations.tab_closed = True
            return Verdict(observations, navigated=False)
        if tab.dialogs.pending:
            # The page is frozen until the dialog is answered: it cannot be read now.
            observations.dialog = tab.dialogs.take_report()
            return Verdict(observations, navigated=observations.url_changed)
        log, doc = await self._read_log()
        document_changed = doc != self._doc
        observations.dom_mutated = document_changed or bool(log and log["mutations"])
        events = log["events"] if log else []
        observations.recent_events = [e["text"] for e in events]
        observations.changes = log["changes"] if log else []
        # Each event's tone is judged in the page, by its styling and its words (announce.js).
        observations.has_errors = any(e["tone"] == "error" for e in events)
        observations.has_success = any(e["tone"] == "success" for e in events)
        observations.dialog = tab.dialogs.take_report()
        return Verdict(observations, navigated=document_changed or observations.url_changed)

    async def _read_log(self) -> tuple[dict | None, str | None]:
        """The mutation log (None when the document it watched is gone) and the token of
        the document now shown."""
        try:
            world = await bridge.main_world(self.tab.page)
            log = await bridge.call(world, "observeEnd", self._token)
            return log, (log["doc"] if log else await bridge.call(world, "docToken"))
        except bridge.DocumentChanged:
            return None, None
        except ActionError:
            return None, self._doc

    async def discard(self) -> None:
        """Stop the page's mutation log without reading it (the action failed)."""
        if self.tab.dialogs.pending or self.tab.playwright_page.is_closed():
            return
        try:
            world = await bridge.main_world(self.tab.page)
            await bridge.call(world, "observeEnd", self._token)
        except (bridge.DocumentChanged, ActionError):
            pass
