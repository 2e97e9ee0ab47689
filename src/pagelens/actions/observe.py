"""Verification (the "sentinel"): what an action visibly did.

A `Watch` notes the tab's state before the input (address, document, request counters,
tabs it opened) and starts a mutation log in the page; after the page settles it
compares: url_changed, dom_mutated, network_requests, new_tab, tab_closed, download, dialog, recent_events
(the text of toasts, alerts and aria-live regions that appeared, and of the fields the
browser's own validation refused), has_errors and has_success, and changes (the page's
change log over the action: a tab selected, a dialog or a wizard's step shown, controls
added; docs/views.md, "Recent events").

A document's log does not see into its frames: an action on an element inside a frame
watches that frame's document too (`Watch.cover`), and the logs are merged. Whether the
action navigated is the top document's alone.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any

from pagelens.actions import bridge
from pagelens.actions.errors import ActionError
from pagelens.actions.models import Observations
from pagelens.actions.tabs import Tab
from pagelens.browser.world import FrameWorld


@dataclass
class Verdict:
    observations: Observations
    navigated: bool  # a new document, or the same one under a new address (pushState)


@dataclass(frozen=True)
class _Observed:
    """A mutation log running in one document: its world, the log's token there, and the
    token of the document it watches."""

    world: FrameWorld
    token: int
    doc: str


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
        self._observed: list[_Observed] = []  # the top document's first

    @classmethod
    async def start(cls, tab: Tab) -> Watch:
        watch = cls(tab)
        await watch.cover(await bridge.main_world(tab.page))
        return watch

    async def cover(self, world: FrameWorld) -> None:
        """Watch the document of `world` too (a frame's, where the action's target lives),
        once however often its elements are resolved."""
        if any(observed.world is world for observed in self._observed):
            return
        started = await bridge.call(world, "observeStart")
        self._observed.append(_Observed(world, started["token"], started["doc"]))

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
        reads = await asyncio.gather(*(self._read_log(observed) for observed in self._observed))
        replaced = [doc != observed.doc for (_, doc), observed in zip(reads, self._observed, strict=True)]
        logs = [log for log, _ in reads if log]
        observations.dom_mutated = any(replaced) or any(log["mutations"] for log in logs)
        events = [e for log in logs for e in log["events"]]
        observations.recent_events = _merge([[e["text"] for e in log["events"]] for log in logs])
        observations.changes = _merge([log["changes"] for log in logs])
        # Each event's tone is judged in the page, by its styling and its words (announce.js).
        observations.has_errors = any(e["tone"] == "error" for e in events)
        observations.has_success = any(e["tone"] == "success" for e in events)
        observations.dialog = tab.dialogs.take_report()
        return Verdict(observations, navigated=replaced[0] or observations.url_changed)

    @staticmethod
    async def _read_log(observed: _Observed) -> tuple[dict[str, Any] | None, str | None]:
        """The mutation log (None when the document it watched is gone) and the token of
        the document now shown."""
        try:
            log = await bridge.call(observed.world, "observeEnd", observed.token)
            return log, (log["doc"] if log else await bridge.call(observed.world, "docToken"))
        except bridge.DocumentChanged:
            return None, None
        except ActionError:
            return None, observed.doc

    async def discard(self) -> None:
        """Stop the page's mutation logs without reading them (the action failed)."""
        if self.tab.dialogs.pending or self.tab.playwright_page.is_closed():
            return
        for observed in self._observed:
            with contextlib.suppress(bridge.DocumentChanged, ActionError):
                await bridge.call(observed.world, "observeEnd", observed.token)


def _merge(per_document: list[list[str]]) -> list[str]:
    """Each document's lines in turn, the top document's first, without what an earlier
    document already reported: a message two documents show alike is told once, and a
    document's own lines stay as the engine gave them."""
    merged: list[str] = []
    for lines in per_document:
        known = set(merged)
        merged.extend(line for line in lines if line not in known)
    return merged
