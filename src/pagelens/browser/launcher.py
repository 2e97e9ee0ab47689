"""Finding, launching and attaching to Chromium. A browser build is never downloaded."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pagelens.errors import BrowserNotFoundError

# Flags that keep a headless Chromium quiet on a machine with no outside network.
CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)

INSTALL_HINT = (
    "install Debian's Chromium with `apt-get install chromium`, or point PAGELENS_CHROMIUM "
    "at a Chromium/Chrome executable"
)


def find_chromium() -> str:
    """The Chromium executable: $PAGELENS_CHROMIUM, else /usr/bin/chromium, else `chromium`
    (or `chromium-browser`, `google-chrome`) on PATH."""
    configured = os.environ.get("PAGELENS_CHROMIUM")
    if configured:
        if Path(configured).is_file() and os.access(configured, os.X_OK):
            return configured
        raise BrowserNotFoundError(f"PAGELENS_CHROMIUM={configured} is not an executable file; {INSTALL_HINT}")
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    raise BrowserNotFoundError(f"no Chromium found; {INSTALL_HINT}")
