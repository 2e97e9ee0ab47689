"""Finding, launching and attaching to Chromium. A browser build is never downloaded.

`find_browser` looks where each browser is usually installed on Linux, macOS and
Windows (docs/browsers.md): Chromium (the system's, then Playwright's own download),
Google Chrome and Microsoft Edge. For a launch with no window it takes Chromium's
headless shell first, where one is installed: the same engine without the browser's
own windows and tabs, it loads pages faster. When nothing is found, the error lists
every place it looked, so a user can see why.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from urllib.parse import urlsplit

from pagelens.errors import BrowserNotFoundError, InvalidRequestError

# Flags that keep a headless Chromium quiet on a machine with no outside network.
CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Each site in a process of its own, as in Chrome; the headless shell does not
    # isolate sites unless asked.
    "--site-per-process",
)

BROWSERS: tuple[str, ...] = ("chromium", "chrome", "msedge")  # in the order `auto` tries them
# Chromium's headless shell, tried before Chromium for a launch with no window.
HEADLESS_SHELL = "chromium-headless-shell"
ENV_VARIABLE = "PAGELENS_CHROMIUM"
# What a DevTools address to attach to starts with (Browser.connect).
CDP_SCHEMES = ("http://", "https://", "ws://", "wss://")

INSTALL_HINT = (
    "install Chromium (Debian: `apt-get install chromium`), Google Chrome or Microsoft Edge, "
    f"or name an executable with --browser PATH or {ENV_VARIABLE}"
)

# Programs on PATH, by browser.
_COMMANDS: dict[str, tuple[str, ...]] = {
    "chromium": ("chromium", "chromium-browser"),
    "chrome": ("google-chrome", "google-chrome-stable"),
    "msedge": ("microsoft-edge", "microsoft-edge-stable"),
    HEADLESS_SHELL: ("chromium-headless-shell", "chrome-headless-shell"),
}
# Fixed install locations. On Windows each is under %PROGRAMFILES%, %PROGRAMFILES(X86)%
# and %LOCALAPPDATA%.
_LOCATIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "linux": {
        "chromium": ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/snap/bin/chromium"),
        "chrome": ("/opt/google/chrome/chrome",),
        "msedge": ("/opt/microsoft/msedge/msedge",),
        HEADLESS_SHELL: ("/usr/lib/chromium/chromium-headless-shell",),
    },
    "darwin": {
        "chromium": ("/Applications/Chromium.app/Contents/MacOS/Chromium",),
        "chrome": ("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",),
        "msedge": ("/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",),
        HEADLESS_SHELL: (),
    },
    "win32": {
        "chromium": ("Chromium/Application/chrome.exe",),
        "chrome": ("Google/Chrome/Application/chrome.exe",),
        "msedge": ("Microsoft/Edge/Application/msedge.exe",),
        HEADLESS_SHELL: (),
    },
}
_WINDOWS_ROOTS = ("PROGRAMFILES", "PROGRAMFILES(X86)", "LOCALAPPDATA")
# Playwright's browser cache: the folder of each build (then `-<revision>`), and inside
# it, by platform, its builds of Chrome for Testing, then the older Chromium builds.
_PLAYWRIGHT_FOLDERS = {"chromium": "chromium", HEADLESS_SHELL: "chromium_headless_shell"}
_PLAYWRIGHT_BUILDS: dict[str, dict[str, tuple[str, ...]]] = {
    "chromium": {
        "linux": ("chrome-linux64/chrome", "chrome-linux-arm64/chrome", "chrome-linux/chrome"),
        "darwin": (
            "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
            "chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
            "chrome-mac/Chromium.app/Contents/MacOS/Chromium",
        ),
        "win32": ("chrome-win64/chrome.exe", "chrome-win/chrome.exe"),
    },
    HEADLESS_SHELL: {
        "linux": (
            "chrome-headless-shell-linux64/chrome-headless-shell",
            "chrome-headless-shell-linux-arm64/chrome-headless-shell",
            "chrome-linux/headless_shell",
        ),
        "darwin": (
            "chrome-headless-shell-mac-arm64/chrome-headless-shell",
            "chrome-headless-shell-mac-x64/chrome-headless-shell",
            "chrome-mac/headless_shell",
        ),
        "win32": ("chrome-headless-shell-win64/chrome-headless-shell.exe", "chrome-win/headless_shell.exe"),
    },
}


@dataclass(frozen=True)
class Host:
    """Where to look: the platform and its environment (a parameter, so every platform's
    rules can be tested on any machine)."""

    platform: str
    env: Mapping[str, str]

    @classmethod
    def current(cls) -> Host:
        platform = sys.platform if sys.platform in ("darwin", "win32") else "linux"
        return cls(platform, os.environ)

    def path(self, text: str) -> PurePath:
        return PureWindowsPath(text) if self.platform == "win32" else PurePosixPath(text)

    @property
    def home(self) -> PurePath:
        return self.path(self.env.get("USERPROFILE" if self.platform == "win32" else "HOME") or str(Path.home()))


def find_browser(browser: str | None = None, *, headless: bool = False, host: Host | None = None) -> str:
    """The executable to launch for `browser`: ``chromium``, ``chrome``, ``msedge``, the
    path of an executable, or None for the first found of $PAGELENS_CHROMIUM, Chromium,
    Chrome and Edge. Chromium is its headless shell first when `headless` (a launch that
    shows no window). Raises BrowserNotFoundError naming every place tried."""
    host = host or Host.current()
    if browser is not None and browser not in BROWSERS:
        if _is_executable(browser):
            return browser
        raise BrowserNotFoundError(
            f"--browser {browser!r} is neither one of {', '.join(BROWSERS)} nor an executable file"
        )
    if browser is None:
        configured = host.env.get(ENV_VARIABLE)
        if configured:
            if _is_executable(configured):
                return configured
            raise BrowserNotFoundError(f"{ENV_VARIABLE}={configured} is not an executable file; {INSTALL_HINT}")
    kinds = BROWSERS if browser is None else (browser,)
    if headless and "chromium" in kinds:
        at = kinds.index("chromium")
        kinds = (*kinds[:at], HEADLESS_SHELL, *kinds[at:])
    tried: list[str] = []
    for kind in kinds:
        for candidate in candidates(kind, host):
            tried.append(candidate)
            if _is_executable(candidate):
                return candidate
    what = "no browser" if browser is None else f"no {browser}"
    raise BrowserNotFoundError(f"{what} found; tried {', '.join(tried)}; {INSTALL_HINT}")


def check_launch_or_attach(browser: str | None, attach_to: str | None) -> None:
    """A browser to launch and one to attach to (a CDP or Playwright server URL) exclude each other."""
    if browser is not None and attach_to:
        raise InvalidRequestError(
            f"--browser {browser} names a browser to launch; it cannot go with {attach_to} to attach to"
        )


def check_cdp_url(cdp_url: str | None) -> None:
    """Refuse a --cdp-url that names no browser, before any browser work: an empty one
    would launch a browser of pagelens' own instead of attaching, and one without its
    scheme (localhost:9222) would let `mcp` and `serve` start, then fail every call."""
    if cdp_url is None:
        return
    try:
        host = urlsplit(cdp_url).hostname
    except ValueError:  # an unclosed [IPv6] host
        host = None
    if not cdp_url.startswith(CDP_SCHEMES) or not host:
        raise InvalidRequestError(
            f"--cdp-url {cdp_url!r} is not a DevTools address; give http://HOST:PORT "
            "(e.g. http://127.0.0.1:9222) or the browser's ws:// URL"
        )


def candidates(kind: str, host: Host) -> list[str]:
    """Where `kind` may be installed on `host`, in the order to try: its commands on PATH
    (resolved), its usual locations, then (Chromium) Playwright's downloaded builds."""
    found: list[str] = []
    path_variable = host.env.get("PATH", "")
    for command in _COMMANDS[kind]:
        resolved = shutil.which(command, path=path_variable)
        found.append(resolved or f"{command} (on PATH)")
    locations = _LOCATIONS[host.platform][kind]
    if host.platform == "win32":
        roots = [host.env[root] for root in _WINDOWS_ROOTS if host.env.get(root)]
        found += [str(host.path(root) / location) for location in locations for root in roots]
    else:
        found += list(locations)
    if kind in _PLAYWRIGHT_FOLDERS:
        found += _playwright_builds(kind, host)
    return found


def _playwright_builds(kind: str, host: Host) -> list[str]:
    """Playwright's downloads of `kind` (`playwright install chromium` fetches both
    Chromium and its headless shell), newest first; its cache folder is
    $PLAYWRIGHT_BROWSERS_PATH or the platform's cache directory."""
    cache = _playwright_cache(host)
    builds = _PLAYWRIGHT_BUILDS[kind][host.platform]
    prefix = _PLAYWRIGHT_FOLDERS[kind]
    folders = sorted(
        (p for p in Path(cache).glob(f"{prefix}-*") if re.fullmatch(rf"{prefix}-\d+", p.name)),
        key=lambda p: int(p.name.rsplit("-", 1)[1]),
        reverse=True,
    )
    if not folders:  # still say where the builds would have been
        return [str(host.path(str(cache)) / f"{prefix}-*" / builds[0])]
    return [str(folder / build) for folder in folders for build in builds]


def _playwright_cache(host: Host) -> PurePath:
    configured = host.env.get("PLAYWRIGHT_BROWSERS_PATH")
    if configured and configured != "0":
        return host.path(configured)
    if host.platform == "darwin":
        return host.home / "Library" / "Caches" / "ms-playwright"
    if host.platform == "win32":
        local = host.env.get("LOCALAPPDATA")
        return (host.path(local) if local else host.home / "AppData" / "Local") / "ms-playwright"
    cache = host.env.get("XDG_CACHE_HOME")
    return (host.path(cache) if cache else host.home / ".cache") / "ms-playwright"


def _is_executable(path: str) -> bool:
    return Path(path).is_file() and os.access(path, os.X_OK)
