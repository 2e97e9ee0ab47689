"""Pages that never finish loading, and settling on the network as well as the DOM, on a
real Chromium and real HTTP: an image whose server never answers, a frame whose document
streams forever, a response that arrives after load, a response that never ends."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest

import pagelens
from pagelens.actions import Session
from pagelens.actions.session import SessionOptions
from pagelens.actions.settle import SettlePolicy, settle
from pagelens.browser.page import LOAD_WAIT_S
from tests.actions_helpers import go

pytest_plugins = ["tests.actions_support"]  # the `site` and `session` fixtures

# A page read before it finished comes back after load_wait, then settling (its cap at
# most); the margin is for a busy machine. Far below the 30 s navigation timeout.
WITHIN_S = LOAD_WAIT_S + SettlePolicy().cap_ms / 1000 + 4.0


async def test_an_ordinary_page_has_loaded_completely(session: Session, site: str) -> None:
    result = await session.interact({"action": "navigate", "url": f"{site}book.html"})
    assert result["success"] is True
    assert result["load_complete"] is True
    assert "had not finished loading" not in result["message"]


async def test_a_resource_whose_server_never_answers_does_not_hold_the_navigation(session: Session, site: str) -> None:
    started = time.monotonic()
    result = await session.interact({"action": "navigate", "url": f"{site}hanging-image.html"})
    elapsed = time.monotonic() - started
    assert result["success"] is True, result
    assert elapsed < WITHIN_S
    assert result["load_complete"] is False
    assert result["http_status"] == 200
    assert result["summary"]["title"] == "Still loading"
    assert result["summary"]["headings"] == ["h1: Almost there"]
    assert "had not finished loading" in result["message"]
    assert f"{site}hang" in result["message"]


async def test_page_visit_reads_a_page_that_never_finishes_loading(page: pagelens.Page, site: str) -> None:
    """The library's and the CLI's load (Page.visit) ends as navigate does."""
    assert await page.visit(f"{site}book.html") is True
    started = time.monotonic()
    assert await page.visit(f"{site}hanging-image.html") is False
    assert time.monotonic() - started < LOAD_WAIT_S + 4.0
    assert (await page.summary()).headings == ["h1: Almost there"]


async def test_a_frame_whose_document_never_ends(session: Session, site: str) -> None:
    started = time.monotonic()
    result = await session.interact({"action": "navigate", "url": f"{site}streaming-frame.html"})
    assert time.monotonic() - started < WITHIN_S
    assert result["success"] is True, result
    assert result["load_complete"] is False
    assert result["summary"]["title"] == "Live ticker"
    assert any(action["label"] == "Pause" for action in result["summary"]["primary_actions"])


async def test_history_reads_a_page_that_never_finishes_loading(session: Session, site: str) -> None:
    await go(session, f"{site}hanging-image.html")
    await go(session, f"{site}book.html")
    back = await session.interact({"action": "back"})
    assert back["success"] is True and back["url"] == f"{site}hanging-image.html"
    assert back["load_complete"] is False
    assert back["summary"]["headings"] == ["h1: Almost there"]
    forward = await session.interact({"action": "forward", "summary": False})
    assert forward["url"] == f"{site}book.html" and forward["load_complete"] is True
    await go(session, f"{site}hanging-image.html")
    started = time.monotonic()
    refresh = await session.interact({"action": "refresh"})
    assert time.monotonic() - started < WITHIN_S
    assert refresh["success"] is True and refresh["load_complete"] is False
    assert refresh["summary"]["title"] == "Still loading"


@pytest.fixture(scope="module")
async def impatient() -> AsyncIterator[Session]:
    """A session whose navigation timeout is 3 s."""
    async with await Session.start(options=SessionOptions(navigation_timeout=3.0)) as session:
        yield session


async def test_a_document_that_never_finishes_parsing_still_times_out(impatient: Session, site: str) -> None:
    """The stream as the page itself: never parsed to the end, so no DOMContentLoaded."""
    result = await impatient.interact({"action": "navigate", "url": f"{site}stream"})
    assert result["success"] is False
    assert result["error"] == "navigation_timeout"


async def test_settling_waits_for_a_response_that_comes_after_load(session: Session, site: str) -> None:
    """The page shows nothing new while its request is out (longer than the quiet
    window): the summary has what the answer brought."""
    result = await session.interact({"action": "navigate", "url": f"{site}late-content.html"})
    assert result["success"] is True and result["load_complete"] is True
    assert "Three books found" in result["summary"]["content_preview"]
    assert "Searching" not in result["summary"]["content_preview"]


async def test_a_response_that_never_ends_does_not_hold_settling(session: Session, site: str) -> None:
    await go(session, f"{site}open-stream.html")
    page = (await session.tabs.current()).page
    assert await settle(page, SettlePolicy()) is True
    assert f"{site}stream" in [request.url for request in page.requests.in_flight()]
    assert page.requests.pending() == []  # open for longer than the requests settling waits for


async def test_requests_in_flight_are_counted_until_they_end(session: Session, site: str) -> None:
    await go(session, f"{site}book.html")
    page = (await session.tabs.current()).page
    finished = page.requests.finished
    async with page.playwright_page.expect_request("**/slow*"):
        await page.playwright_page.evaluate("() => { fetch('/slow?ms=600&text=ok'); }")
    assert [request.url for request in page.requests.pending()] == [f"{site}slow?ms=600&text=ok"]
    assert await page.requests.wait_idle(5.0) is True
    assert page.requests.pending() == [] and page.requests.finished == finished + 1


@pytest.mark.parametrize("link", ["Write to us", "Call us", "Mark as read", "Download the report"])
async def test_a_click_whose_navigation_loads_nothing_returns_at_once(session: Session, site: str, link: str) -> None:
    """A mailto: or tel: link (another application's), an answer with no content (204)
    and a download start a navigation of the tab that never loads a document: the click
    does not wait the navigation timeout for it, and says what it downloaded."""
    await go(session, f"{site}elsewhere.html")
    started = time.monotonic()
    result = await session.interact({"action": "click", "selector": f"text={link}"})
    assert time.monotonic() - started < WITHIN_S, result
    assert result["success"] is True, result
    assert result["url"] == f"{site}elsewhere.html"
    assert result["observations"]["url_changed"] is False
    assert "summary" not in result  # no page was landed on
    # A download is named, so that an agent knows the click did something.
    assert result["observations"].get("download") == ("report.csv" if link == "Download the report" else None)


async def test_a_click_waits_for_a_slow_page_it_loads(session: Session, site: str) -> None:
    await go(session, f"{site}elsewhere.html")
    result = await session.interact({"action": "click", "selector": "text=A slow page"})
    assert result["success"] is True, result
    assert result["url"] == f"{site}slow?ms=1500&text=arrived"
    assert "arrived" in result["summary"]["content_preview"]
