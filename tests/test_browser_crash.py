"""Chromium killed (SIGKILL to its browser process) while a call waits on it, or between
an agent's steps: every call ends, with a result, well within its limits, and the next one
runs on a browser started again (`browser_restarted: true`, said once).

Playwright leaves some calls on a dead browser unanswered for ever (a `new_page` under way,
browser/guard.py); the session and the agent used to wait on them until the run's time
limit. The bounds below are generous: a hang is minutes, a crash handled is seconds."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError

from pagelens.actions import Session
from pagelens.agent import Agent
from pagelens.browser import Browser
from pagelens.browser.guard import BrowserGoneError
from tests.agent_script import call, last_result
from tests.agent_support import scripted_model
from tests.llm_servers import OpenAIChatServer, Reply, Turn

BOUND_S = 60.0  # what a killed browser may cost a call at most; the bug cost 600 s
# What a call cut short by the crash may say, when it does not succeed on the new browser.
CRASH_ERRORS = {"browser_error", "page_closed", "capture_failed", "navigation_failed", "timeout"}

CALM = b"<!doctype html><title>Calm</title><h1>Calm</h1><button>Go</button><script>%s</script>"
# Asks the server every 100 ms whether to block; told to, it blocks its main thread on a
# synchronous request the server holds: the engine's calls in it then wait.
POLL = b"""setInterval(() => {
  fetch('/should-block').then(r => r.text()).then(t => {
    if (t === 'yes') { const x = new XMLHttpRequest(); x.open('GET', '/hold', false); x.send(); }
  });
}, 100);"""


class _Site(ThreadingHTTPServer):
    """/calm: a page that blocks when told (`block_once`); /slow-once: held the first time."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.stopping = threading.Event()
        self.block = threading.Event()  # the next poll is told to block (once)
        self.held = threading.Event()  # a request is being held: the page or a load waits
        self.served: set[str] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        site = self.server
        assert isinstance(site, _Site)
        if self.path == "/should-block":
            told = site.block.is_set()
            site.block.clear()
            self._send(b"yes" if told else b"no", "text/plain")
        elif self.path == "/hold" or (self.path == "/slow-once" and self.path not in site.served):
            site.served.add(self.path)
            site.held.set()
            site.stopping.wait(30)
            self._send(CALM % b"", "text/html")
        else:
            self._send(CALM % POLL, "text/html")

    def _send(self, body: bytes, kind: str) -> None:
        with contextlib.suppress(OSError):  # the browser that asked is gone
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture
def site() -> Iterator[_Site]:
    server = _Site()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()


@pytest.fixture
async def session() -> AsyncIterator[Session]:
    async with await Session.start() as session:
        yield session


async def _browser_pid(browser: Browser) -> int:
    cdp = await browser.playwright_browser.new_browser_cdp_session()
    processes = (await cdp.send("SystemInfo.getProcessInfo"))["processInfo"]
    await cdp.detach()
    return next(p["id"] for p in processes if p["type"] == "browser")


async def _kill_during(session: Session, site: _Site, work: Awaitable[Any]) -> Any:
    """`work`'s result, Chromium killed while it waits on a held request; within BOUND_S."""
    pid = await _browser_pid(session._runtime.browser)
    task = asyncio.ensure_future(work)
    assert await asyncio.to_thread(site.held.wait, BOUND_S), "nothing waited on the server"
    await asyncio.sleep(0.3)  # well into the call
    os.kill(pid, signal.SIGKILL)
    async with asyncio.timeout(BOUND_S):
        return await task


def _check_then_next(first: dict[str, Any], following: dict[str, Any]) -> None:
    """The call cut short succeeded on the new browser or failed typed, and the restart was
    said once, by it or by the next call, which worked."""
    assert first.get("success", True) is True or first.get("error") in CRASH_ERRORS, first
    assert following.get("success", True) is True and "error" not in following, following
    assert [bool(first.get("browser_restarted")), bool(following.get("browser_restarted"))].count(True) == 1


async def _calm(session: Session, site: _Site) -> None:
    loaded = await session.interact({"action": "navigate", "url": f"{site.url}calm", "summary": False})
    assert loaded["success"] is True, loaded


async def _blocked(session: Session, site: _Site) -> None:
    """The calm page, its main thread blocked (until the server stops)."""
    await _calm(session, site)
    site.block.set()


async def test_killed_during_a_navigate(session: Session, site: _Site) -> None:
    await _calm(session, site)
    navigated = await _kill_during(
        session, site, session.interact({"action": "navigate", "url": f"{site.url}slow-once"})
    )
    following = (await session.analyze({"what": "tabs"})).data
    _check_then_next(navigated, following)


async def test_killed_during_an_analyze(session: Session, site: _Site) -> None:
    await _blocked(session, site)
    view = await _kill_during(session, site, session.analyze({"what": "semantic"}))
    following = (await session.analyze({"what": "page_summary"})).data
    _check_then_next(view.data, following)
    assert following["title"] == "Calm"


async def test_killed_during_a_click(session: Session, site: _Site) -> None:
    await _blocked(session, site)
    clicked = await _kill_during(session, site, session.interact({"action": "click", "selector": "text=Go"}))
    following = await session.interact({"action": "click", "selector": "text=Go"})
    _check_then_next(clicked, following)


async def test_work_on_a_browser_that_dies_under_it_runs_again_on_a_new_one(session: Session, site: _Site) -> None:
    """summarize's way (Session.on_live_browser): a browser killed a moment ago can still
    look alive; the work it cuts short runs once more on a new browser, which is said."""
    await _calm(session, site)
    used: list[Browser] = []

    async def work(browser: Browser) -> str:
        used.append(browser)
        if len(used) == 1:
            os.kill(await _browser_pid(browser), signal.SIGKILL)
        page = await browser.new_page()  # BrowserGoneError on the killed one
        try:
            await page.goto(f"{site.url}calm")
            return await page.title()
        finally:
            await page.playwright_page.close()

    async with asyncio.timeout(BOUND_S):
        title, restarted = await session.on_live_browser(work)
    assert (title, restarted) == ("Calm", True)
    assert len(used) == 2 and used[0] is not used[1]
    following = (await session.analyze({"what": "tabs"})).data
    assert "browser_restarted" not in following  # said once, by the work's result


async def test_killed_between_two_agent_steps(session: Session, site: _Site) -> None:
    async def kill_then_read(body: dict[str, Any]) -> Reply:
        assert last_result(body)["title"] == "Calm"
        os.kill(await _browser_pid(session._runtime.browser), signal.SIGKILL)
        await asyncio.sleep(0.5)  # the model thinks; Chromium is gone meanwhile
        return call("analyze", what="semantic")  # a view not read yet: the agent sends it whole

    def finish(body: dict[str, Any]) -> Reply:
        read = last_result(body)
        return call("finish", result=f"{read.get('browser_restarted')} {read.get('title')}")

    script: list[Turn] = [call("analyze", what="page_summary"), kill_then_read, finish]
    async with OpenAIChatServer(script) as server:
        agent = Agent(model=scripted_model(server.base_url), session=session)
        async with asyncio.timeout(BOUND_S):
            report = await agent.run("Read the page", url=f"{site.url}calm")
    assert report.status == "COMPLETED", report.reason
    assert report.result == "True Calm"
    assert [step.ok for step in report.steps] == [True] * 4


async def test_a_tab_opening_when_chromium_dies_ends() -> None:
    # Playwright's new_page under way when the browser dies never returns; which moment
    # hits that window depends on the machine, so several are tried.
    for delay in (0.0, 0.01, 0.02, 0.05, 0.1):
        async with await Browser.launch() as browser:
            pid = await _browser_pid(browser)
            opening = asyncio.ensure_future(browser.new_page())
            await asyncio.sleep(delay)
            os.kill(pid, signal.SIGKILL)
            async with asyncio.timeout(BOUND_S):
                with contextlib.suppress(BrowserGoneError, PlaywrightError):
                    await opening
