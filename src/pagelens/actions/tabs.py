"""The tabs of a session, with stable ids ("t1", "t2", ...) that outlive a browser
restart: after a crash each tab is reopened at its last address under the same id."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Iterator

from playwright.async_api import Download
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as PlaywrightPage

from pagelens.actions.dialogs import DialogBox, DialogPolicy
from pagelens.actions.errors import ActionError
from pagelens.actions.healing import ElementMemory
from pagelens.actions.models import TabInfo
from pagelens.browser.browser import Browser
from pagelens.browser.page import Page
from pagelens.errors import ErrorCode

_RESTORE_TIMEOUT_S = 15.0
_TITLE_TIMEOUT_S = 5.0
_RESTORABLE = ("http://", "https://", "data:")


class Tab:
    """One tab and what the session tracks about it: dialogs, ids it has shown, and
    counters the observations of an action are read from."""

    def __init__(
        self, tab_id: str, page: Page, policy: DialogPolicy, *, owned: bool = True, tabs: Tabs | None = None
    ) -> None:
        self.id = tab_id
        self.owned = owned  # opened by this session (not a tab the user had open)
        self.tabs = tabs  # the session's tabs it is one of: which is active when it closes itself
        self.dialogs = DialogBox(policy)
        self.memory = ElementMemory()
        self.loads = 0  # main-frame load events
        self.popups: list[str] = []  # ids of tabs this one opened
        self.downloads: list[str] = []  # file names of the downloads its pages started
        self.page = page
        self.last_url = "about:blank"

    def attach(self, page: Page) -> None:
        """Follow `page` (again, after a restart)."""
        self.page = page
        pw = page.playwright_page
        pw.on("dialog", self.dialogs.on_dialog)
        pw.on("framenavigated", self._on_navigated)
        pw.on("load", self._on_load)
        pw.on("download", self._on_download)

    @property
    def playwright_page(self) -> PlaywrightPage:
        return self.page.playwright_page

    @property
    def requests(self) -> int:
        """Every request the tab's page made (browser/requests.py; counted anew for the
        page a restart reopens: no action spans a restart)."""
        return self.page.requests.made

    @property
    def navigations(self) -> int:
        """Navigations of the tab's top frame that started."""
        return self.page.requests.navigations

    def _on_load(self, _page: PlaywrightPage) -> None:
        self.loads += 1

    def _on_download(self, download: Download) -> None:
        self.downloads.append(download.suggested_filename)

    @property
    def navigations_abandoned(self) -> int:
        """Navigations of the top frame that ended without a new document (browser/requests.py)."""
        return self.page.requests.navigations_abandoned

    async def wait_for_load(
        self,
        since: int,
        abandoned: int,
        timeout: float,  # noqa: ASYNC109 - the limit is passed on to the browser
    ) -> bool:
        """Wait for a main-frame load after the `since`-th; False on timeout, or once more
        than `abandoned` navigations were abandoned (a mailto: link, a download: no load
        comes). (The check and the listener are set up without yielding, so a load cannot
        slip between.)"""

        async def loaded() -> None:
            while self.loads <= since:
                await self.playwright_page.wait_for_event("load", timeout=timeout * 1000)

        load = asyncio.ensure_future(loaded())
        gone = asyncio.ensure_future(self.page.requests.wait_abandoned(abandoned))
        try:
            await asyncio.wait({load, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            load.cancel()  # nothing to a finished one
        return load.done() and not load.cancelled() and load.exception() is None

    def _on_navigated(self, frame: object) -> None:
        if frame == self.playwright_page.main_frame:
            self.last_url = self.playwright_page.url

    async def title(self) -> str:
        """The page's title; "" when the page is too busy to say (a script spinning)."""
        try:
            return await asyncio.wait_for(self.playwright_page.title(), _TITLE_TIMEOUT_S)
        except (PlaywrightError, TimeoutError):
            return ""

    async def info(self, active: bool) -> TabInfo:
        return TabInfo(tab_id=self.id, url=self.playwright_page.url, title=await self.title(), active=active)


class Tabs:
    """Open, list, switch and close tabs; adopt the ones pages open (target=_blank,
    window.open)."""

    def __init__(self, policy: DialogPolicy) -> None:
        self._policy = policy
        self._tabs: dict[str, Tab] = {}
        self._active: str | None = None
        self._ids = itertools.count(1)
        self._browser: Browser | None = None

    def bind(self, browser: Browser) -> None:
        self._browser = browser

    def __iter__(self) -> Iterator[Tab]:
        return iter(list(self._tabs.values()))

    async def open(self) -> Tab:
        assert self._browser is not None
        page = await self._browser.new_page()
        tab = self._add(page)
        self._active = tab.id
        return tab

    def adopt_existing(self, pages: list[PlaywrightPage], *, owned: bool) -> None:
        """Tabs already open: in a browser we attached to (the user's), or the first tab of
        one we launched."""
        assert self._browser is not None
        for pw in pages:
            self._add(self._browser.adopt(pw), owned=owned)
        if self._tabs:
            self._active = next(iter(self._tabs))

    def _add(self, page: Page, opener: Tab | None = None, *, owned: bool = True) -> Tab:
        tab = Tab(f"t{next(self._ids)}", page, self._policy, owned=owned, tabs=self)
        self._watch(tab, page)
        self._tabs[tab.id] = tab
        if opener is not None:
            opener.popups.append(tab.id)
        return tab

    def _watch(self, tab: Tab, page: Page) -> None:
        tab.attach(page)

        def adopt(popup: PlaywrightPage) -> None:
            assert self._browser is not None  # the page that opened it is in the bound browser
            self._add(self._browser.adopt(popup), opener=tab)

        page.playwright_page.on("popup", adopt)

    def _prune(self) -> None:
        """Forget tabs whose page closed itself (window.close()). Not while the browser is
        down: then every page is closed, and restore() brings the tabs back."""
        if self._browser is None or not self._browser.playwright_browser.is_connected():
            return
        for tab in list(self._tabs.values()):
            if tab.playwright_page.is_closed():
                del self._tabs[tab.id]
        if self._active not in self._tabs:
            self._active = next(reversed(self._tabs), None)

    def get(self, tab_id: str) -> Tab:
        self._prune()
        tab = self._tabs.get(tab_id)
        if tab is None:
            known = ", ".join(self._tabs) or "none"
            raise ActionError(ErrorCode.UNKNOWN_TAB, f"no tab {tab_id!r}; open tabs: {known}")
        return tab

    def active_url(self) -> str:
        """The active tab's address, '' without one: a new tab takes a path relative to it."""
        tab = self.active()
        return tab.playwright_page.url if tab is not None else ""

    def active(self) -> Tab | None:
        """The active tab; None when none is left."""
        self._prune()
        return self._tabs.get(self._active) if self._active is not None else None

    async def current(self, tab_id: str | None = None) -> Tab:
        """The tab named, else the active one (a blank one is opened when none is left)."""
        if tab_id is not None:
            return self.get(tab_id)
        return self.active() or await self.open()

    async def activate(self, tab: Tab) -> None:
        self._active = tab.id
        with contextlib.suppress(PlaywrightError):
            await tab.playwright_page.bring_to_front()

    async def close(self, tab: Tab) -> None:
        del self._tabs[tab.id]
        if self._active == tab.id:
            self._active = next(reversed(self._tabs), None)
        with contextlib.suppress(PlaywrightError):
            await tab.playwright_page.close(run_before_unload=False)

    async def infos(self) -> list[TabInfo]:
        self._prune()
        return [await tab.info(tab.id == self._active) for tab in self._tabs.values()]

    async def restore(self, browser: Browser) -> None:
        """After a browser restart: a new page per tab, reloaded at its last address. The
        tab keeps its element memory, so ids the agent holds heal on the reloaded page."""
        self.bind(browser)
        for tab in list(self._tabs.values()):
            page = await browser.new_page()
            tab.dialogs = DialogBox(self._policy)
            self._watch(tab, page)
            if tab.last_url.startswith(_RESTORABLE):
                with contextlib.suppress(PlaywrightError):
                    await page.playwright_page.goto(tab.last_url, timeout=_RESTORE_TIMEOUT_S * 1000)
