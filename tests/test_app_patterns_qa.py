"""What single-page apps put in an agent's way (tests/fixtures/apps): a client-side
router that renders after a fetch, controlled inputs of the real React 18, a search
field that debounces, an infinite feed and a virtual list, toasts, downloads and tabs
opened by script. Real Chromium, real input."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from pagelens.actions import Session
from pagelens.browser.network import LOOPBACK_HOSTS
from tests.actions_helpers import act, go, ids, nodes


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[Session]:
    async with await Session.start(allowed_hosts=list(LOOPBACK_HOSTS)) as session:
        yield session


@pytest.fixture
def apps(fixtures_url: str) -> str:
    return f"{fixtures_url}apps/"


async def test_router_links_report_the_route_and_summarise_what_it_fetched(session: Session, apps: str) -> None:
    await go(session, f"{apps}router.html")
    products = await act(session, action="click", selector="text=Products")
    assert products["url"] == f"{apps}products" and products["observations"]["url_changed"]
    # The view is rendered from a fetch after the route changed: settling waited for it.
    assert products["summary"]["title"] == "Shop · Products"
    assert products["summary"]["headings"] == ["h1: Products"]
    assert "Added: heading 'Products'" in products["observations"]["changes"]
    helped = await act(session, action="click", selector="text=Help")  # replaceState: no new entry
    assert helped["url"] == f"{apps}help" and helped["summary"]["headings"] == ["h1: Help"]
    settings = await act(session, action="click", selector="#settings-link")
    assert settings["url"] == f"{apps}help#/settings" and settings["summary"]["headings"] == ["h1: Settings"]
    back = await act(session, action="back")
    assert back["url"] == f"{apps}help" and back["summary"]["headings"] == ["h1: Help"]
    home = await act(session, action="back")
    assert home["url"] == f"{apps}router.html" and home["summary"]["headings"] == ["h1: Welcome to the shop"]
    forward = await act(session, action="forward")
    assert forward["url"] == f"{apps}help" and forward["summary"]["headings"] == ["h1: Help"]


async def test_react_controlled_fields_take_typing_selection_and_ticks(session: Session, apps: str) -> None:
    await go(session, f"{apps}react_form.html")
    echo = "Changed: 'Hello, {}; phone {}; plan {}; terms {}'"
    typed = await act(session, action="type", selector="label=Name", text="Ada")
    assert typed["observations"]["changes"] == [echo.format("Ada", "none", "free", "no")]
    replaced = await act(session, action="set_value", selector="label=Name", value="Grace")
    assert replaced["observations"]["changes"] == [echo.format("Grace", "none", "free", "no")]
    await act(session, action="type", selector="label=Phone", text="5551234567")  # masked as typed
    chosen = await act(session, action="select", selector="label=Plan", value="Team")
    assert chosen["observations"]["changes"] == [echo.format("Grace", "[phone]", "team", "no")]
    ticked = await act(session, action="check", selector="label=I accept the terms")
    assert echo.format("Grace", "[phone]", "team", "yes") in ticked["observations"]["changes"]
    field = await nodes(session, include_values=True)
    assert (field["Phone"]["v"], field["Plan"]["v"]) == ("(555) 123-4567", "Team")
    sent = await act(session, action="click", selector="text=Send")
    assert sent["observations"]["recent_events"] == ["Sent: Grace / (555) 123-4567 / team"]


async def test_a_button_react_renders_anew_is_healed_and_said_so(session: Session, apps: str) -> None:
    await go(session, f"{apps}react_form.html")
    send = (await ids(session))["Send"]
    await act(session, action="click", selector="text=Save draft")  # a new node for Send
    sent = await act(session, action="click", element_id=send)
    assert sent["healed"] and sent["old_id"] == send and sent["new_id"] == sent["element_id"] != send
    assert sent["observations"]["recent_events"] == ["Accept the terms first"]


async def test_typing_into_a_debounced_search_reports_its_suggestions(session: Session, apps: str) -> None:
    await go(session, f"{apps}app_misc.html")
    typed = await act(session, action="type", selector="label=Search", text="ap")
    assert typed["observations"]["changes"] == ["Added: option 'apple'", "Added: option 'apricot'"]
    more = await act(session, action="type", selector="label=Search", text="r")
    # The list is rendered anew: 'apricot' removed and added again is no change.
    assert more["observations"]["changes"] == ["Removed: option 'apple'"]


async def test_toasts_downloads_and_tabs_a_click_opens(session: Session, apps: str) -> None:
    start = await go(session, f"{apps}app_misc.html")
    liked = await act(session, action="click", selector="#like")  # optimistic, rolled back, a 1 s toast
    assert liked["observations"]["recent_events"] == ["Could not like: try again"]
    downloaded = await act(session, action="click", selector="text=Download report")
    assert downloaded["observations"]["download"] == "report.json" and downloaded["url"] == start["url"]
    opened = await act(session, action="click", selector="text=Open preview")  # window.open
    tabs = await act(session, action="list_tabs")
    assert [t["url"] for t in tabs["tabs"] if t["tab_id"] == opened["observations"]["new_tab"]] == [
        f"{apps}router.html"
    ]
    await act(session, action="close_tab", tab_id=opened["observations"]["new_tab"])


async def test_a_scroll_that_loads_more_says_the_end_moved(session: Session, apps: str) -> None:
    await go(session, f"{apps}feed.html")
    scrolled = await act(session, action="scroll", value="bottom")
    assert scrolled["message"].startswith("scrolled the page from 0 to the end; then more content loaded")
    assert scrolled["observations"]["changes"][0] == "Added: 'Story 11'"


async def test_a_virtual_list_row_is_clicked_though_scrolling_renders_it_anew(session: Session, apps: str) -> None:
    await go(session, f"{apps}contacts.html")  # alone: a feed growing above would move the list
    missing = await session.interact({"action": "click", "selector": "text=Call contact 500"})
    assert missing["error"] == "not_found"
    await act(session, action="scroll", selector="#rows", value=14900)
    # Scrolling the row to the middle of the viewport repaints the list: a new node.
    called = await act(session, action="click", selector="text=Call contact 500")
    assert called["observations"]["recent_events"] == ["Calling contact 500"]
    await act(session, action="scroll", selector="#rows", value="top")
    await act(session, action="scroll", selector="#rows", value=5900)
    row = (await ids(session, include_offscreen=True))["Call contact 199"]
    called = await act(session, action="click", element_id=row)
    assert called["observations"]["recent_events"] == ["Calling contact 199"]
    assert called["element_id"] == row and "healed" not in called  # the copy kept the id


async def test_back_steps_over_a_route_pushed_twice(session: Session, apps: str) -> None:
    await go(session, f"{apps}router.html")
    await act(session, action="click", selector="text=Products")
    await act(session, action="click", selector="text=Products")  # the router pushes the same address again
    again = await act(session, action="back")
    assert again["url"] == f"{apps}products" and again["summary"]["headings"] == ["h1: Products"]
    home = await act(session, action="back")
    assert home["url"] == f"{apps}router.html"
    forward = await act(session, action="forward")
    assert forward["url"] == f"{apps}products"
