"""Errors are typed (a stable code and a message), name what was wrong, and come quickly:
bad requests, time limits, navigation failures, missing browsers, failed attaches. Also
attaching to a running Chromium over CDP and detaching without killing it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pagelens
from pagelens.browser.browser import Browser
from pagelens.browser.launcher import CHROMIUM_ARGS
from pagelens.browser.network import LOOPBACK_HOSTS
from pagelens.engine.models import CompactSummary
from pagelens.errors import (
    BrowserConnectError,
    BrowserLaunchError,
    BrowserNotFoundError,
    CaptureTimeoutError,
    InvalidRequestError,
    NavigationError,
    PagelensError,
)
from tests.network_support import ConnectionCounter

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
async def rich(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    await page.goto(f"{fixtures_url}robustness/rich.html")
    return page


@pytest.fixture
def blank(page: pagelens.Page) -> pagelens.Page:
    """A tab never navigated: requests are validated before the page is touched."""
    return page


def free_port() -> int:
    """A loopback port with nothing listening on it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ---- validation


@pytest.mark.parametrize(
    ("request_", "parameter"),
    [
        ({"maxControls": 0}, "maxControls"),
        ({"maxControls": -5}, "maxControls"),
        ({"maxHeadings": 0}, "maxHeadings"),
        ({"maxIframeDepth": -1}, "maxIframeDepth"),
        ({"maxIframeDepth": 11}, "maxIframeDepth"),
        ({"maxControl": 10}, "maxControl"),  # unknown field (a typo)
        ({"maxControls": "many"}, "maxControls"),
        ({"maxControls": True}, "maxControls"),
        ({"maxControls": 2.5}, "maxControls"),
        ({"maxIframeDepth": "1"}, "maxIframeDepth"),
        ({"includeValues": "yes"}, "includeValues"),
        ({"includeValues": 1}, "includeValues"),
        ({"baseUrl": 5}, "baseUrl"),
    ],
)
async def test_bad_capture_requests(blank: pagelens.Page, request_: dict[str, Any], parameter: str) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        await blank.interaction_model(request_)
    assert caught.value.code == "invalid_request"
    assert parameter in caught.value.message
    assert caught.value.to_dict() == {"error": "invalid_request", "message": caught.value.message}


async def test_bad_options(blank: pagelens.Page) -> None:
    bad_calls = {
        "max_iframe_depth": blank.snapshot("semantic", max_iframe_depth=-1),
        "includeValues": blank.snapshot("interaction", include_values="no"),  # type: ignore[arg-type]
        "include_boxes": blank.snapshot("semantic", include_boxes="yes"),  # type: ignore[arg-type]
        "include_offscreen": blank.snapshot("semantic", include_offscreen=None),  # type: ignore[arg-type]
        "request": blank.interaction_model(42),  # type: ignore[arg-type]
    }
    for parameter, call in bad_calls.items():
        with pytest.raises(InvalidRequestError) as caught:
            await call
        assert parameter.lower().replace("_", "") in caught.value.message.lower().replace("_", ""), parameter


@pytest.mark.parametrize("limit", [0, -1, float("nan"), float("inf"), "3", True, 301])
async def test_bad_timeouts(blank: pagelens.Page, limit: Any) -> None:
    with pytest.raises(InvalidRequestError, match="timeout"):
        await blank.snapshot("compact", timeout=limit)


async def test_unknown_views(blank: pagelens.Page) -> None:
    # summary's modes are typed (compact or full): the bad one is the point here.
    bad_summary = blank.summary("interaction")  # type: ignore[call-overload]
    for call in (blank.snapshot("everything"), bad_summary, blank.snapshot("")):
        with pytest.raises(InvalidRequestError) as caught:
            await call
        assert caught.value.code == "invalid_request" and "compact" in caught.value.message


# ---- time limits


async def test_capture_timeout_is_typed_and_prompt(rich: pagelens.Page) -> None:
    for mode in ("compact", "interaction", "semantic"):
        started = time.monotonic()
        with pytest.raises(CaptureTimeoutError) as caught:
            await rich.snapshot(mode, timeout=0.001)
        assert caught.value.code == "capture_timeout" and mode in caught.value.message
        assert time.monotonic() - started < 1.5
    # The page is still usable afterwards.
    view = await rich.snapshot("compact")
    assert isinstance(view, CompactSummary) and view.title.startswith("Account settings")


async def test_capture_timeout_on_a_huge_page(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}robustness/big.html")
    for mode in ("interaction", "compact"):
        started = time.monotonic()
        # A partial answer in time is fine too; what is not fine is waiting.
        with contextlib.suppress(CaptureTimeoutError):
            await page.snapshot(mode, timeout=0.3)
        assert time.monotonic() - started < 0.3 + 1.5, mode


# ---- navigation


async def test_navigation_to_a_refused_port(page: pagelens.Page) -> None:
    url = f"http://127.0.0.1:{free_port()}/"
    with pytest.raises(NavigationError) as caught:
        await page.goto(url)
    assert caught.value.code == "err_connection_refused"
    # Chromium's reason, without Playwright's wording around it ("Page.goto: ... at URL").
    assert caught.value.message == f"could not load {url}: net::ERR_CONNECTION_REFUSED"


async def test_navigation_to_a_server_that_never_answers(page: pagelens.Page) -> None:
    counter = ConnectionCounter()  # accepts, then says nothing
    try:
        started = time.monotonic()
        url = f"http://127.0.0.1:{counter.port}/"
        with pytest.raises(NavigationError) as caught:
            await page.goto(url, timeout=1.0)
        assert time.monotonic() - started < 3.0
    finally:
        counter.close()
    assert caught.value.code == "navigation_timeout"
    assert caught.value.message == f"could not load {url}: not loaded within 1 s"


async def test_bad_navigation_arguments(page: pagelens.Page) -> None:
    with pytest.raises(InvalidRequestError, match="wait_until"):
        await page.goto("about:blank", wait_until="whenever")
    with pytest.raises(InvalidRequestError, match="timeout"):
        await page.goto("about:blank", timeout=0)
    with pytest.raises(NavigationError):
        await page.goto("not a url")


# ---- finding, launching and attaching


@pytest.fixture
def not_executable(tmp_path: Path) -> str:
    path = tmp_path / "chromium"
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o644)
    return str(path)


async def test_launch_without_a_browser(monkeypatch: pytest.MonkeyPatch, not_executable: str) -> None:
    monkeypatch.setenv("PAGELENS_CHROMIUM", not_executable)
    with pytest.raises(BrowserNotFoundError) as caught:
        await Browser.launch()
    assert caught.value.code == "browser_not_found"
    monkeypatch.delenv("PAGELENS_CHROMIUM")
    with pytest.raises(BrowserNotFoundError) as caught:
        await pagelens.launch(browser=not_executable)
    assert caught.value.code == "browser_not_found"


async def test_launch_of_something_that_is_not_chromium() -> None:
    started = time.monotonic()
    with pytest.raises(BrowserLaunchError) as caught:
        await Browser.launch(browser="/bin/true", timeout=10)
    assert caught.value.code == "browser_launch_failed"
    assert isinstance(caught.value, BrowserNotFoundError)  # still a browser problem
    assert time.monotonic() - started < 10


async def test_connect_failures() -> None:
    silent = ConnectionCounter()  # accepts connections, never speaks
    try:
        cases = [f"http://127.0.0.1:{free_port()}", "not a url", f"http://127.0.0.1:{silent.port}"]
        for url in cases:
            started = time.monotonic()
            with pytest.raises(BrowserConnectError) as caught:
                await Browser.connect(url, timeout=1.0)
            assert caught.value.code == "browser_connect_failed" and url in caught.value.message
            # Starting Playwright's driver takes a second or two of this; a hang would not end.
            assert time.monotonic() - started < 8.0, url
    finally:
        silent.close()


@pytest.fixture
def running_chromium(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A Chromium started the way a user would, with a DevTools port; its endpoint."""
    profile = tmp_path / "profile"
    process = subprocess.Popen(
        [
            CHROMIUM,
            "--headless",
            *CHROMIUM_ARGS,
            f"--user-data-dir={profile}",
            "--remote-debugging-port=0",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group, ended below by that id
    )
    try:
        active = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (active.exists() and active.read_text().strip()):
            assert process.poll() is None, "Chromium exited"
            assert time.monotonic() < deadline, "Chromium did not open its DevTools port"
            time.sleep(0.05)
        port = active.read_text().splitlines()[0]
        yield process, f"http://127.0.0.1:{port}"
    finally:
        with_group = os.getpgid(process.pid) if process.poll() is None else None
        if with_group is not None:
            os.killpg(with_group, signal.SIGTERM)
        process.wait(timeout=15)


async def test_attach_capture_detach(running_chromium: tuple[subprocess.Popen[bytes], str], fixtures_url: str) -> None:
    process, endpoint = running_chromium
    url = f"{fixtures_url}robustness/rich.html"
    async with pagelens.connect(endpoint, allowed_hosts=LOOPBACK_HOSTS) as browser:
        page = await browser.new_page()
        await page.goto(url)
        model = await page.interaction_model()
        assert "Save changes" in [c.name for c in model.controls]
        compact = await page.summary("compact")
        assert compact.title.startswith("Account settings")
        with pytest.raises(NavigationError) as caught:
            await page.goto("http://example.com/")  # the policy holds on an attached browser
        assert caught.value.code == "err_blocked_by_client"
    await asyncio.sleep(0.5)
    assert process.poll() is None, "closing must detach, not kill the user's browser"
    # Our tab is gone; the browser's own tab is still there.
    async with pagelens.connect(endpoint) as again:
        urls = [p.url for context in again.playwright_browser.contexts for p in context.pages]
    assert url not in urls and "about:blank" in urls


def test_errors_have_codes() -> None:
    error = PagelensError("boom", code="custom")
    assert str(error) == "[custom] boom" and error.to_dict() == {"error": "custom", "message": "boom"}
    assert CaptureTimeoutError("x").code == "capture_timeout"
    assert NavigationError.from_playwright(Exception("net::ERR_NAME_NOT_RESOLVED at x"), "x").code == (
        "err_name_not_resolved"
    )
