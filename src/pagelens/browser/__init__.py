"""The browser layer: Chromium, pages, frames and the isolated world the engine runs in."""

from pagelens.browser.browser import Browser
from pagelens.browser.launcher import find_browser
from pagelens.browser.local_server import serve_directory
from pagelens.browser.network import NetworkPolicy
from pagelens.browser.page import Page

__all__ = ["Browser", "NetworkPolicy", "Page", "find_browser", "serve_directory"]
