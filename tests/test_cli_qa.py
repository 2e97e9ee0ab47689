"""The command line as a demanding user drives it: odd targets, a --cdp-url that names no
browser, and attaching to the user's own browser, which must be left as it was."""

from __future__ import annotations

import json
import re
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pagelens.browser.launcher import CHROMIUM_ARGS, find_browser
from tests.cli_support import run_cli

USER_TAB = "data:text/html,<title>The user's tab</title><h1>Mine</h1>"


@pytest.mark.parametrize("cdp_url", ["", "localhost:9222", "127.0.0.1:9222", "http://", "ws://[::1"])
def test_a_cdp_url_that_names_no_browser_is_refused_before_any_browser(cdp_url: str) -> None:
    """An empty --cdp-url used to launch a browser of pagelens' own instead of attaching."""
    result = run_cli("snapshot", "data:text/html,<h1>x</h1>", "--cdp-url", cdp_url)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: [invalid_request] --cdp-url {cdp_url!r} is not a DevTools address")
    assert len(result.stderr.splitlines()) == 1


def test_mcp_refuses_a_cdp_url_without_its_scheme_at_once() -> None:
    """It used to start, then fail every tool call with browser_connect_failed."""
    result = run_cli("mcp", "--cdp-url", "localhost:9222")
    assert result.returncode == 1
    assert "error: [invalid_request] --cdp-url 'localhost:9222'" in result.stderr
    assert "http://127.0.0.1:9222" in result.stderr


def test_serve_refuses_a_cdp_url_without_its_scheme_at_once(tmp_path: Path) -> None:
    result = run_cli(
        "serve", "--cdp-url", "localhost:9222", "--port", "0", "--token", "t",
        "--database-url", f"sqlite:///{tmp_path / 'db.sqlite'}",
        timeout=60,
    )  # fmt: skip
    assert result.returncode == 1
    assert "error: [invalid_request] --cdp-url 'localhost:9222'" in result.stderr


@pytest.mark.parametrize("target", ["", "   "])
def test_an_empty_target_says_no_page_was_given(target: str) -> None:
    """It used to say `. is a folder`: Path("") is the current folder."""
    result = run_cli("snapshot", target)
    assert result.returncode == 1
    assert result.stderr == "error: [invalid_request] no page given: name a URL or a local file\n"


@pytest.fixture
def users_browser(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A Chromium of "the user's", with a tab of their own open; yields it and its DevTools URL."""
    chrome = subprocess.Popen(
        [find_browser(), *CHROMIUM_ARGS, "--headless=new", "--remote-debugging-port=0",
         f"--user-data-dir={tmp_path / 'profile'}", USER_TAB],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert chrome.stderr is not None
        for line in chrome.stderr:
            if match := re.search(r"DevTools listening on ws://(127\.0\.0\.1:\d+)/", line):
                break
        else:
            raise AssertionError("Chromium never printed its DevTools address")
        # Keep reading its stderr, or a chatty Chromium would block on a full pipe.
        threading.Thread(target=chrome.stderr.read, daemon=True).start()
        yield chrome, f"http://{match.group(1)}"
    finally:
        chrome.kill()
        chrome.wait()


def test_snapshot_attached_reads_a_new_tab_and_leaves_the_users_browser_as_it_was(
    users_browser: tuple[subprocess.Popen[str], str],
) -> None:
    chrome, endpoint = users_browser
    result = run_cli("snapshot", "data:text/html,<title>Asked for</title><h1>Read</h1>", "--cdp-url", endpoint)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["title"] == "Asked for"  # the URL given, not the user's tab
    assert chrome.poll() is None, "the user's browser keeps running"
    assert _page_urls(endpoint) == [USER_TAB], "only the tab pagelens opened is closed"


def _page_urls(endpoint: str) -> list[str]:
    with urllib.request.urlopen(f"{endpoint}/json/list", timeout=10) as response:
        return [t["url"] for t in json.load(response) if t.get("type") == "page"]
