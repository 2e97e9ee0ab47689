"""Defects a QA pass of the MCP surface found in the action layer, each pinned here
against a real Chromium through Session.interact and Session.analyze."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import os
import signal
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from PIL import Image

from pagelens.actions import Session
from pagelens.agent.tools.summarize import summarize
from pagelens.errors import InvalidParameterError, PagelensError
from pagelens.vision.models import MAX_SIDE
from tests.actions_helpers import go, ids
from tests.mcp_harness import chromium_processes, descendants

pytest_plugins = ["tests.actions_support"]  # the `site` and `session` fixtures


def _data_url(html: str) -> str:
    return f"data:text/html,{quote(html)}"


async def _refused(session: Session, request: dict[str, Any]) -> InvalidParameterError:
    with pytest.raises(InvalidParameterError) as raised:
        await session.interact(request)
    return raised.value


# ---- typing long text


_FIELD = (
    "<title>Notes</title><label>Notes <textarea id=notes></textarea></label>"
    "<script>window.keys = 0; notes.addEventListener('keydown', () => window.keys++)</script>"
)


async def test_long_text_is_typed_whole_and_short_text_key_by_key(session: Session) -> None:
    # Key by key at a few ms a key, 5,000 characters outlasted the 10 s input limit:
    # `timeout`, with the text half typed.
    await go(session, _data_url(_FIELD))
    page = await session.page()
    long_text = "The quick brown fox jumps over the lazy dog. " * 200  # 9,000 characters
    typed = await session.interact({"action": "type", "selector": "#notes", "text": long_text})
    assert typed["success"] is True, typed
    assert await page.evaluate("notes.value") == long_text
    replaced = await session.interact({"action": "set_value", "selector": "#notes", "value": long_text[::-1]})
    assert replaced["success"] is True, replaced
    assert await page.evaluate("notes.value") == long_text[::-1]
    # Short text still comes as keys, which autocompletes and counters listen to.
    await session.interact({"action": "clear", "selector": "#notes"})
    await page.evaluate("window.keys = 0")
    await session.interact({"action": "type", "selector": "#notes", "text": "abc"})
    assert await page.evaluate("[notes.value, window.keys]") == ["abc", 3]


# ---- wait_for's value


@pytest.mark.parametrize("value", [-5, float("nan"), 1e15, 60_001])
async def test_wait_for_refuses_a_wait_it_would_not_do(session: Session, value: float) -> None:
    # -5 "waited -5 ms"; 1e15 was cut to 60 s without a word.
    refused = await _refused(session, {"action": "wait_for", "value": value})
    assert refused.parameter == "value" and "0 to 60000" in refused.message


async def test_wait_for_zero_waits_nothing(session: Session) -> None:
    await go(session, _data_url("<title>Empty</title>"))
    waited = await session.interact({"action": "wait_for", "value": 0})
    assert waited["success"] is True and waited["message"] == "waited 0 ms"


# ---- coordinates


async def test_a_point_outside_the_viewport_is_refused(session: Session) -> None:
    # x=1e12 "clicked at (1e+12, 5) on nothing", a success.
    page = "<title>Point</title><button onclick=\"document.title = 'hit'\" style='width:200px;height:50px'>Hit</button>"
    await go(session, _data_url(page))
    far = await _refused(session, {"action": "click", "x": 1e12, "y": 5})
    assert far.parameter == "x" and "outside the viewport" in far.message
    above = await _refused(session, {"action": "hover", "x": 5, "y": -1})
    assert above.parameter == "y"
    inside = await session.interact({"action": "click", "x": 20, "y": 20})
    assert inside["success"] is True and inside["observations"]["element_found"] is True, inside
    assert (await session.analyze({"what": "full"})).data["title"] == "hit"


# ---- a page that closes its own tab


async def test_a_click_that_closes_its_own_tab_succeeds_and_says_where_the_agent_is(
    session: Session, site: str
) -> None:
    # It said script_injection_failed (content_script_status: failed): the summary was
    # tried in the tab that had just closed.
    opener = await go(session, f"{site}closes-itself.html")
    opened = await session.interact({"action": "click", "selector": "text=Open a window"})
    popup = opened["observations"]["new_tab"]
    assert popup is not None, opened
    await session.interact({"action": "switch_tab", "tab_id": popup})
    closed = await session.interact({"action": "click", "selector": "text=Done, close this window"})
    assert closed["success"] is True, closed
    assert closed["observations"]["tab_closed"] is True
    assert "content_script_status" not in closed and "summary_error" not in closed
    assert f"closed its tab {popup}" in closed["message"]
    tabs = (await session.interact({"action": "list_tabs"}))["tabs"]
    active = next(tab["tab_id"] for tab in tabs if tab["active"])
    assert f"tab {active} ({opener['url']}) is active now" in closed["message"]
    assert popup not in {tab["tab_id"] for tab in tabs}


# ---- upload_file


_UPLOADS = (
    "<title>Uploads</title><input type=file id=one><input type=file id=many multiple>"
    '<input type=file id=picked hidden><button onclick="picked.click()">Attach</button>'
)


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    paths = [tmp_path / "a.txt", tmp_path / "b.txt"]
    for path in paths:
        path.write_text(path.name)
    return [str(path) for path in paths]


async def test_upload_file_takes_at_least_one_file_and_one_where_the_input_takes_one(
    session: Session, files: list[str]
) -> None:
    # No file "attached  to ..."; two to a single input leaked "Locator.set_input_files: Error:".
    await go(session, _data_url(_UPLOADS))
    none = await _refused(session, {"action": "upload_file", "selector": "#one", "value": []})
    assert none.parameter == "value"
    for selector in ("#one", "text=Attach"):  # the input itself, and a button opening its chooser
        two = await session.interact({"action": "upload_file", "selector": selector, "value": files})
        assert two["success"] is False and two["error"] == "upload_failed", two
        assert "takes one file, not 2" in two["message"] and "Error" not in two["message"]
    both = await session.interact({"action": "upload_file", "selector": "#many", "value": files})
    assert both["success"] is True and "a.txt, b.txt" in both["message"], both
    page = await session.page()
    assert await page.evaluate("[one.files.length, many.files.length, picked.files.length]") == [0, 2, 0]


# ---- a dialog waiting in another tab


async def test_switching_back_to_a_tab_leaves_its_dialog_for_handle_dialog(session: Session, site: str) -> None:
    # switch_tab answered the waiting confirm by the policy (dismissed) before the agent could.
    dialogs = await go(session, f"{site}dialogs.html")
    clicked = await session.interact({"action": "click", "selector": "text=Delete item"})
    assert clicked["observations"]["dialog"]["handled"] == "pending", clicked
    await session.interact({"action": "new_tab"})
    back = await session.interact({"action": "switch_tab", "tab_id": dialogs["tab_id"]})
    assert back["success"] is True and "dialog" not in back, back
    assert "confirm dialog ('Delete this item?') and waits" in back["message"]
    answered = await session.interact({"action": "handle_dialog", "value": "accept"})
    assert answered["success"] is True, answered
    assert answered["observations"]["dialog"]["by"] == "agent"
    assert answered["observations"]["recent_events"] == ["Item deleted"]


# ---- screenshots clients take


async def test_a_long_full_page_screenshot_fits_what_clients_take(session: Session) -> None:
    # 1024 × 13107 px: Claude refuses an image over 8000 px on a side.
    await go(session, _data_url("<title>Long</title><body style='margin:0'><div style='height:20000px'>top</div>"))
    shot = await session.analyze({"what": "screenshot", "full_page": True})
    assert shot.image is not None
    with Image.open(io.BytesIO(shot.image)) as image:
        assert max(image.size) <= MAX_SIDE and image.height == MAX_SIDE, image.size
    assert (shot.data["width"], shot.data["height"]) == image.size
    acted = await session.interact({"action": "screenshot"})
    with Image.open(io.BytesIO(base64.b64decode(acted["image"]))) as viewport:
        assert viewport.width == 1024  # a viewport is left as it was


# ---- ids as numbers


async def test_an_element_id_sent_as_a_number_is_that_id(session: Session, site: str) -> None:
    # element_id 12 (an integer, as models often send it) was invalid_request.
    await go(session, f"{site}dialogs.html")
    button = await ids(session)
    clicked = await session.interact({"action": "click", "element_id": int(button["Say hello"])})
    assert clicked["success"] is True and clicked["element_id"] == button["Say hello"], clicked
    shot = await session.analyze({"what": "screenshot", "element_id": int(button["Say hello"])})
    assert shot.data["element_id"] == button["Say hello"]
    for wrong in (True, 1.5):  # a flag or a fraction is no id
        assert (await _refused(session, {"action": "click", "element_id": wrong})).parameter == "element_id"


# ---- summarize when the browser dies


class _Held(BaseHTTPRequestHandler):
    """Answers nothing until the test lets go: a page that is loading when Chromium dies."""

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        server = self.server
        assert isinstance(server, _HoldingServer)
        server.arrived.set()
        server.release.wait(60)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


class _HoldingServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Held)
        self.arrived = threading.Event()
        self.release = threading.Event()


@contextlib.contextmanager
def _holding_server() -> Iterator[_HoldingServer]:
    server = _HoldingServer()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()


def _started_since(before: set[int]) -> set[int]:
    """This process's descendants started since `before`, outside the trees of those: not
    the helpers another test's server (in this worker) starts meanwhile."""
    under_old = set().union(*(descendants(pid) for pid in before))
    return set(descendants(os.getpid())) - before - under_old


async def test_summarize_says_the_browser_died_when_it_dies_mid_call() -> None:
    # A Chromium killed while summarize loaded the page came out as navigation_failed (or,
    # from the tab's close, internal_error), not the browser's failure.
    before = set(descendants(os.getpid()))
    with _holding_server() as server:
        async with await Session.start() as own:
            browser, _ = await own.live_browser()
            started = _started_since(before)
            ours = [pid for pid in chromium_processes(os.getpid()) if pid in started]
            assert ours
            url = f"http://127.0.0.1:{server.server_address[1]}/article"
            call = asyncio.ensure_future(summarize({"url": url, "extractOnly": True}, browser, None))
            assert await asyncio.to_thread(server.arrived.wait, 60)
            for pid in ours:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            with pytest.raises(PagelensError) as raised:
                await asyncio.wait_for(call, 60)
    assert raised.value.code == "browser_error", raised.value
