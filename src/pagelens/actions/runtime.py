"""The session's Chromium, which may die under it (a crash, an OOM kill, a user closing
it). Before each call the session asks `ensure()`; a dead browser is relaunched, or
re-attached for a `cdp_url`, and the call says ``browser_restarted: true``.

Three ways to get a browser: launch one with a throwaway profile (Playwright's launch),
launch one on a given profile (`user_data_dir`: Chromium is started here with a DevTools
port and attached over CDP, so the profile is the real one), or attach to the user's.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from dataclasses import dataclass

from playwright.async_api import Error as PlaywrightError

from pagelens.browser.browser import Browser
from pagelens.browser.guard import bounded
from pagelens.browser.launcher import CHROMIUM_ARGS, check_launch_or_attach, find_browser
from pagelens.browser.network import host_resolver_rules
from pagelens.errors import BrowserConnectError

_DEVTOOLS_RE = re.compile(rb"DevTools listening on (ws://\S+)")
_LAUNCH_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class BrowserOptions:
    headless: bool = True
    cdp_url: str | None = None
    ws_endpoint: str | None = None  # a Playwright browser server
    allowed_hosts: tuple[str, ...] | None = None
    user_data_dir: str | None = None
    viewport: tuple[int, int] = (1280, 800)
    browser: str | None = None  # chromium, chrome, msedge or a path (launcher.find_browser)

    def __post_init__(self) -> None:
        check_launch_or_attach(self.browser, self.cdp_url or self.ws_endpoint)


class BrowserRuntime:
    def __init__(self, options: BrowserOptions) -> None:
        self.options = options
        self._browser: Browser | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._drain: asyncio.Task[None] | None = None
        self.endpoint: str | None = None  # DevTools URL of a Chromium launched on a profile

    @property
    def browser(self) -> Browser:
        assert self._browser is not None, "start() first"
        return self._browser

    @property
    def attached(self) -> bool:
        return self.options.cdp_url is not None or self.options.ws_endpoint is not None

    def alive(self) -> bool:
        return self._browser is not None and self._browser.playwright_browser.is_connected()

    async def start(self) -> Browser:
        o = self.options
        if o.cdp_url is not None:
            self._browser = await Browser.connect(o.cdp_url, allowed_hosts=o.allowed_hosts, viewport=o.viewport)
        elif o.ws_endpoint is not None:
            self._browser = await Browser.connect_server(
                o.ws_endpoint, allowed_hosts=o.allowed_hosts, viewport=o.viewport
            )
        elif o.user_data_dir is not None:
            self._browser = await self._launch_on_profile(o.user_data_dir)
        else:
            self._browser = await Browser.launch(
                headless=o.headless, allowed_hosts=o.allowed_hosts, viewport=o.viewport, browser=o.browser
            )
        return self._browser

    async def ensure(self) -> bool:
        """True when the browser had died and a new one was started (or attached)."""
        if self.alive():
            return False
        await self.stop()
        await self.start()
        return True

    async def stop(self) -> None:
        browser, self._browser = self._browser, None
        if browser is not None:
            with contextlib.suppress(PlaywrightError, OSError, TimeoutError):  # gone, or hung: let go of it
                await bounded(browser.close(), timeout=10.0)
        self.endpoint = None
        process, self._process = self._process, None
        if process is not None and process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 10.0)
            except TimeoutError:
                process.kill()
                await process.wait()

    async def _launch_on_profile(self, user_data_dir: str) -> Browser:
        o = self.options
        args = [
            *CHROMIUM_ARGS,
            f"--user-data-dir={user_data_dir}",
            "--remote-debugging-port=0",
            f"--window-size={o.viewport[0]},{o.viewport[1]}",
            *(["--headless=new"] if o.headless else []),
            # As Browser.launch does: what request interception cannot see (preconnects,
            # sockets) must not reach a host outside the policy either.
            *([f"--host-resolver-rules={host_resolver_rules(o.allowed_hosts)}"] if o.allowed_hosts is not None else []),
            "about:blank",
        ]
        self._process = await asyncio.create_subprocess_exec(
            find_browser(o.browser),
            *args,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            endpoint = await asyncio.wait_for(self._devtools_endpoint(), _LAUNCH_TIMEOUT_S)
        except (TimeoutError, BrowserConnectError):
            await self.stop()
            raise BrowserConnectError(f"Chromium did not start on profile {user_data_dir}") from None
        self.endpoint = endpoint
        try:
            return await Browser.connect(endpoint, allowed_hosts=o.allowed_hosts, viewport=o.viewport)
        except BrowserConnectError:
            await self.stop()
            raise

    async def _devtools_endpoint(self) -> str:
        assert self._process is not None and self._process.stderr is not None
        stderr = self._process.stderr
        while line := await stderr.readline():
            found = _DEVTOOLS_RE.search(line)
            if found:
                # Keep draining stderr, or a chatty Chromium would block on a full pipe.
                self._drain = asyncio.ensure_future(_drain(stderr))
                return found.group(1).decode()
        raise BrowserConnectError("Chromium exited before it listened for DevTools")


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.readline():
        pass
