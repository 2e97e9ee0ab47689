"""Finding the browser a user has: where each one is looked for on Linux, macOS and
Windows, in what order, and what the error says when none is there; then real launches
of what was found."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest

import pagelens
from pagelens.actions import Session
from pagelens.browser.launcher import HEADLESS_SHELL, Host, candidates, find_browser
from pagelens.errors import BrowserNotFoundError, InvalidRequestError
from tests.cli_support import run_cli

CHROMIUM = "/usr/bin/chromium"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "shop.html"


def executable(path: Path, target: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if target is not None:
        path.symlink_to(target)
    else:
        path.write_text("#!/bin/sh\nexit 0\n")
        path.chmod(0o755)
    return path


def linux(tmp_path: Path, **env: str) -> Host:
    """This machine's rules with an empty PATH and a home of its own."""
    return Host("linux", {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path / "home"), **env})


def test_a_named_browser_is_found_on_path(tmp_path: Path) -> None:
    chrome = executable(tmp_path / "bin" / "google-chrome-stable")
    edge = executable(tmp_path / "bin" / "microsoft-edge")
    host = linux(tmp_path)
    assert find_browser("chrome", host=host) == str(chrome)
    assert find_browser("msedge", host=host) == str(edge)
    assert find_browser("chromium", host=host) == CHROMIUM  # Debian's, at its fixed place


def test_playwrights_chromium_is_found_newest_first(tmp_path: Path) -> None:
    cache = tmp_path / "home" / ".cache" / "ms-playwright"
    old = executable(cache / "chromium-1100" / "chrome-linux" / "chrome")
    new = executable(cache / "chromium-1200" / "chrome-linux64" / "chrome")
    # The headless shell is looked for on its own, before Chromium when no window is shown.
    old_shell = executable(cache / "chromium_headless_shell-1100" / "chrome-linux" / "headless_shell")
    shell = cache / "chromium_headless_shell-1300" / "chrome-headless-shell-linux64" / "chrome-headless-shell"
    new_shell = executable(shell)
    found = candidates("chromium", linux(tmp_path))
    assert found.index(str(new)) < found.index(str(old))
    assert not any("headless_shell" in c for c in found)
    assert found.index(CHROMIUM) < found.index(str(new))  # the system's own comes first
    shells = candidates(HEADLESS_SHELL, linux(tmp_path))
    assert shells.index(str(new_shell)) < shells.index(str(old_shell))
    assert shells.index("/usr/lib/chromium/chromium-headless-shell") < shells.index(str(new_shell))

    elsewhere = tmp_path / "browsers"
    moved = executable(elsewhere / "chromium-1250" / "chrome-linux64" / "chrome")
    assert str(moved) in candidates("chromium", linux(tmp_path, PLAYWRIGHT_BROWSERS_PATH=str(elsewhere)))
    assert str(moved) not in candidates("chromium", linux(tmp_path))


def test_the_usual_places_on_macos_and_windows(tmp_path: Path) -> None:
    mac = Host("darwin", {"PATH": "", "HOME": "/Users/ada"})
    assert "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" in candidates("chrome", mac)
    assert "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge" in candidates("msedge", mac)
    assert any(c.startswith("/Users/ada/Library/Caches/ms-playwright/chromium-") for c in candidates("chromium", mac))

    windows = Host(
        "win32",
        {
            "PATH": "",
            "USERPROFILE": r"C:\Users\ada",
            "PROGRAMFILES": r"C:\Program Files",
            "PROGRAMFILES(X86)": r"C:\Program Files (x86)",
            "LOCALAPPDATA": r"C:\Users\ada\AppData\Local",
        },
    )
    chrome = candidates("chrome", windows)
    assert r"C:\Program Files\Google\Chrome\Application\chrome.exe" in chrome
    assert r"C:\Users\ada\AppData\Local\Google\Chrome\Application\chrome.exe" in chrome
    assert r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe" in candidates("msedge", windows)
    cache = r"C:\Users\ada\AppData\Local\ms-playwright\chromium-"
    assert any(c.startswith(cache) for c in candidates("chromium", windows))


def test_the_error_names_every_place_tried(tmp_path: Path) -> None:
    host = Host("darwin", {"PATH": str(tmp_path), "HOME": str(tmp_path / "home")})
    with pytest.raises(BrowserNotFoundError) as caught:
        find_browser(host=host)
    message = caught.value.message
    assert caught.value.code == "browser_not_found"
    for place in (
        "google-chrome (on PATH)",
        "/Applications/Chromium.app/Contents/MacOS/Chromium",
        "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
        "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
        str(tmp_path / "home" / "Library" / "Caches" / "ms-playwright"),
    ):
        assert place in message
    with pytest.raises(BrowserNotFoundError, match="no msedge found; tried microsoft-edge"):
        find_browser("msedge", host=host)


def test_a_path_or_the_environment_variable(tmp_path: Path) -> None:
    host = linux(tmp_path)
    mine = executable(tmp_path / "my-chrome")
    assert find_browser(str(mine), host=host) == str(mine)
    for bad in (str(tmp_path / "missing"), str(tmp_path), "firefox"):
        with pytest.raises(BrowserNotFoundError) as caught:
            find_browser(bad, host=host)
        assert bad in caught.value.message and "chromium, chrome, msedge" in caught.value.message

    assert find_browser(host=linux(tmp_path, PAGELENS_CHROMIUM=str(mine))) == str(mine)
    not_executable = tmp_path / "plain"
    not_executable.write_text("")
    with pytest.raises(BrowserNotFoundError, match="PAGELENS_CHROMIUM=.*plain is not an executable file"):
        find_browser(host=linux(tmp_path, PAGELENS_CHROMIUM=str(not_executable)))
    # A named browser does not look at the variable, which names a default.
    assert find_browser("chromium", host=linux(tmp_path, PAGELENS_CHROMIUM=str(not_executable))) == CHROMIUM


def test_a_launch_with_no_window_takes_chromiums_headless_shell_first(tmp_path: Path) -> None:
    shell = executable(tmp_path / "bin" / "chromium-headless-shell")
    chrome = executable(tmp_path / "bin" / "google-chrome")
    host = linux(tmp_path)
    assert find_browser(headless=True, host=host) == str(shell)
    assert find_browser("chromium", headless=True, host=host) == str(shell)
    assert find_browser(host=host) == CHROMIUM  # a window to show: Chromium itself
    assert find_browser("chrome", headless=True, host=host) == str(chrome)  # no shell of its own
    assert find_browser(CHROMIUM, headless=True, host=host) == CHROMIUM  # a path is taken as it is
    mine = executable(tmp_path / "mine")
    assert find_browser(headless=True, host=linux(tmp_path, PAGELENS_CHROMIUM=str(mine))) == str(mine)

    with pytest.raises(BrowserNotFoundError) as caught:
        find_browser(headless=True, host=Host("darwin", {"PATH": str(tmp_path / "none"), "HOME": str(tmp_path)}))
    assert "chromium-headless-shell (on PATH)" in caught.value.message
    assert str(tmp_path / "Library" / "Caches" / "ms-playwright" / "chromium_headless_shell-*") in caught.value.message


def _browsers_running() -> dict[int, str]:
    """The executables run by this process's descendants, by process id."""
    found: dict[int, str] = {}
    pids = [os.getpid()]
    while pids:
        pid = pids.pop()
        with contextlib.suppress(OSError):
            found[pid] = os.readlink(f"/proc/{pid}/exe")
            for task in os.scandir(f"/proc/{pid}/task"):
                with open(f"{task.path}/children", encoding="ascii") as children:
                    pids.extend(int(child) for child in children.read().split())
    return found


async def test_a_headless_launch_runs_the_headless_shell() -> None:
    """What the setup installs beside Chromium is what a headless launch runs (the
    suite's pages run in it too: test_frames checks that it isolates sites as Chrome)."""
    before = _browsers_running()
    async with pagelens.launch(allowed_hosts=[]) as browser:
        started = {pid: exe for pid, exe in _browsers_running().items() if pid not in before}
        assert any(Path(exe).name == "chromium-headless-shell" for exe in started.values()), started
        assert not any(Path(exe).name == "chromium" for exe in started.values()), started
        page = await browser.new_page()
        await page.set_content("<button>Go</button>")
        assert [c.name for c in (await page.interaction_model()).controls] == ["Go"]


async def test_a_build_in_playwrights_cache_launches(tmp_path: Path) -> None:
    """The real Chromium, found through the layout of Playwright's cache."""
    build = executable(tmp_path / "chromium-1200" / "chrome-linux64" / "chrome", target=CHROMIUM)
    found = candidates("chromium", linux(tmp_path, PLAYWRIGHT_BROWSERS_PATH=str(tmp_path)))
    assert str(build) in found
    async with await pagelens.launch(browser=str(build), allowed_hosts=[]) as browser:
        page = await browser.new_page()
        await page.set_content("<button>Go</button>")
        assert [c.name for c in (await page.interaction_model()).controls] == ["Go"]
    with pytest.raises(InvalidRequestError):
        await Session.start(browser="chromium", cdp_url="http://127.0.0.1:9")


def test_the_browser_option_of_the_cli(tmp_path: Path) -> None:
    shown = run_cli("snapshot", str(EXAMPLE), "--browser", "chromium")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["title"].startswith("Northwind Outfitters")

    missing = run_cli("snapshot", str(EXAMPLE), "--browser", str(tmp_path / "nothing-here"))
    assert missing.returncode == 1
    assert "[browser_not_found]" in missing.stderr and "nothing-here" in missing.stderr

    both = run_cli("snapshot", str(EXAMPLE), "--browser", "chrome", "--cdp-url", "http://127.0.0.1:9")
    assert both.returncode == 1 and "[invalid_request]" in both.stderr
