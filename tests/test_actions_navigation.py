"""Tabs and navigation through Session.interact, on a real
Chromium and real HTTP: the summary that rides along, its failure modes, restricted
addresses, Chromium's net errors, HTTP error pages, redirects, history, background mode."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest

import pagelens
from pagelens.actions import Session, tools
from pagelens.actions.dialogs import DialogPolicy
from pagelens.actions.session import SessionOptions
from pagelens.actions.settle import SettlePolicy
from pagelens.errors import NavigationError
from tests.actions_helpers import go

pytest_plugins = ["tests.actions_support"]  # the `site` and `session` fixtures


async def test_one_navigate_call_orients_the_agent(session: Session, site: str) -> None:
    result = await session.interact({"action": "navigate", "url": f"{site}search.html"})
    assert result["success"] is True
    assert result["action"] == "navigate"
    assert result["url"] == f"{site}search.html"
    assert result["title"] == "Find a book"
    assert result["http_status"] == 200
    assert result["tab_id"].startswith("t")
    assert "requested_url" not in result
    summary = result["summary"]
    assert summary["title"] == "Find a book"
    assert summary["headings"] == ["h1: Book search"]
    assert "Book search" in summary["content_preview"]
    assert {"label": "Search", "tag": "button"}.items() <= summary["primary_actions"][0].items()


async def test_summary_false_leaves_it_out(session: Session, site: str) -> None:
    result = await session.interact({"action": "navigate", "url": f"{site}search.html", "summary": False})
    assert result["success"] is True
    assert "summary" not in result and "summary_error" not in result


@pytest.fixture(scope="module")
async def impatient() -> AsyncIterator[Session]:
    """A session with short limits: a summary limit of 1 ms, which no capture of a large
    page can meet, and held dialogs answered by the policy after 0.2 s."""
    options = SessionOptions(summary_timeout=0.001, dialogs=DialogPolicy(timeout=0.2))
    async with await Session.start(options=options) as session:
        yield session


async def test_a_failed_summary_never_fails_the_navigation(impatient: Session, site: str) -> None:
    result = await impatient.interact({"action": "navigate", "url": f"{site}catalogue.html"})
    assert result["success"] is True
    assert result["url"] == f"{site}catalogue.html"
    assert result["title"] == "Catalogue"
    assert result["summary"] is None
    assert result["summary_error"] == "summary_timeout"


async def test_a_dialog_nobody_answers_is_answered_by_the_policy(impatient: Session, site: str) -> None:
    await go(impatient, f"{site}dialogs.html")
    view = await impatient.analyze({"what": "semantic"})
    delete = next(n["i"] for n in view.data["interactive_tree"] if n["n"] == "Delete item")
    held = await impatient.interact({"action": "click", "element_id": delete})
    assert held["observations"]["dialog"]["handled"] == "pending"
    # Nobody calls: the page must come back to life by itself (the confirm is dismissed).
    page = (await impatient.tabs.current()).playwright_page
    await page.wait_for_selector("text=Item kept", timeout=10_000)
    late = await impatient.interact({"action": "handle_dialog"})
    assert late["success"] is False and late["error"] == "no_dialog"
    assert "dismissed by the policy" in late["message"]


@pytest.mark.parametrize(
    "url",
    [
        "chrome://version",
        "javascript:alert(1)",
        "file:///etc/hostname",
        "view-source:http://127.0.0.1/",
        "ftp://127.0.0.1/a.txt",  # no page at all: only the web's schemes load
    ],
)
async def test_restricted_urls_are_refused(session: Session, url: str) -> None:
    result = await session.interact({"action": "navigate", "url": url})
    assert result["success"] is False
    assert result["error"] == "restricted_url"
    assert url.split(":")[0] in result["message"]
    assert "summary" not in result


@pytest.mark.parametrize("url", ["http://", "https:///path", "http://[::1"])
async def test_an_address_without_a_host_is_refused(session: Session, url: str) -> None:
    result = await session.interact({"action": "navigate", "url": url})
    assert result["success"] is False
    assert result["error"] == "invalid_request"
    assert result["message"] == f"cannot navigate to {url}: it names no host"


async def test_a_refused_connection(session: Session) -> None:
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = await session.interact({"action": "navigate", "url": f"http://127.0.0.1:{port}/"})
    assert result["success"] is False
    assert result["error"] == "err_connection_refused"
    assert f"127.0.0.1:{port}" in result["message"]


async def test_a_name_that_does_not_resolve_then_the_next_navigation_works(session: Session, site: str) -> None:
    result = await session.interact({"action": "navigate", "url": "http://no-such-host.invalid/"})
    assert result["success"] is False
    assert result["error"] == "err_name_not_resolved"
    # Chromium's error page arrives after the failure; it must not disturb what follows.
    after = await session.interact({"action": "navigate", "url": f"{site}book.html"})
    assert after["success"] is True and after["title"] == "Book"


async def test_an_address_that_downloads_a_file_is_not_a_page(session: Session, site: str) -> None:
    await go(session, f"{site}book.html")
    result = await session.interact({"action": "navigate", "url": f"{site}report.csv"})
    assert result["success"] is False
    assert result["error"] == "not_a_page"
    stays = f"the tab stays on {site}book.html"
    assert result["message"] == f"{site}report.csv is a file to download (report.csv), not a page; {stays}"
    after = await session.interact({"action": "navigate", "url": f"{site}choices.html"})
    assert after["success"] is True and after["title"] == "Preferences"


async def test_the_library_says_a_download_is_not_a_page(page: pagelens.Page, site: str) -> None:
    """What the CLI and the Python API load with (Page.goto) says it in the same words."""
    with pytest.raises(NavigationError) as failed:
        await page.goto(f"{site}report.csv")
    assert failed.value.code == "not_a_page"
    assert failed.value.message == f"{site}report.csv is a file to download, not a page"


@pytest.mark.parametrize(("path", "status"), [("no-such-page.html", 404), ("broken", 500), ("gone", 404)])
async def test_http_error_pages_load_and_say_so(session: Session, site: str, path: str, status: int) -> None:
    result = await session.interact({"action": "navigate", "url": f"{site}{path}"})
    assert result["success"] is True
    assert result["http_status"] == status
    assert result["summary"]["type"] == "error_page"


async def test_a_click_that_lands_on_an_error_status_reads_as_an_error_page(session: Session, site: str) -> None:
    # No response reaches pagelens for a navigation the page starts itself: the engine
    # reads the document's status from the browser's own record.
    await go(session, f"{site}gonelink.html")
    link = await session.interact({"action": "click", "selector": "a"})
    assert link["success"] is True, link
    page = (await session.tabs.current()).page
    await page.playwright_page.wait_for_url(f"{site}gone")
    assert (await page.summary("compact")).type == "error_page"
    assert (await page.summary("full")).type == "error_page"


async def test_a_redirect_to_a_login_page(session: Session, site: str) -> None:
    result = await session.interact({"action": "navigate", "url": f"{site}account"})
    assert result["success"] is True
    assert result["requested_url"] == f"{site}account"
    assert result["url"] == f"{site}login.html?next=/account"
    assert result["http_status"] == 200
    assert result["summary"]["type"] == "login"
    assert result["summary"]["forms"] == [{"fields": ["Email", "Password"]}]


async def test_refresh_back_and_forward(session: Session, site: str) -> None:
    await go(session, f"{site}search.html")
    await go(session, f"{site}book.html")
    back = await session.interact({"action": "back"})
    assert back["success"] is True and back["url"] == f"{site}search.html"
    assert back["summary"]["title"] == "Find a book"
    forward = await session.interact({"action": "forward", "summary": False})
    assert forward["url"] == f"{site}book.html" and "summary" not in forward
    refresh = await session.interact({"action": "refresh"})
    assert refresh["url"] == f"{site}book.html" and refresh["http_status"] == 200
    assert refresh["summary"]["headings"] == ["h1: A book"]


async def test_a_path_from_the_skeleton_is_taken_relative_to_the_page(session: Session, site: str) -> None:
    """The skeleton writes links within the page's own site from their path, and navigate
    takes a path relative to the page it is on."""
    await go(session, f"{site}welcome.html")
    skeleton = (await session.analyze({"what": "skeleton"})).data["html"]
    path = urlsplit(f"{site}login.html").path
    assert f'href="{path}">Sign out</a>' in skeleton
    result = await session.interact({"action": "navigate", "url": path})
    assert result["success"] is True and result["url"] == f"{site}login.html"
    query = await session.interact({"action": "navigate", "url": "?next=/account", "summary": False})
    assert query["url"] == f"{site}login.html?next=/account"
    opened = await session.interact({"action": "new_tab", "url": "./welcome.html", "summary": False})
    assert opened["url"] == f"{site}welcome.html"  # relative to the tab it was opened from
    await session.interact({"action": "close_tab", "tab_id": opened["tab_id"]})


async def test_tabs_open_list_switch_and_close(session: Session, site: str) -> None:
    first = await go(session, f"{site}search.html")
    blank = await session.interact({"action": "new_tab"})
    assert blank["success"] is True and blank["url"] == "about:blank"
    nothing_back = await session.interact({"action": "back"})
    assert nothing_back["success"] is False and nothing_back["error"] == "no_history"
    await session.interact({"action": "close_tab"})
    opened = await session.interact({"action": "new_tab", "url": f"{site}book.html"})
    assert opened["success"] is True and opened["tab_id"] not in (first["tab_id"], blank["tab_id"])
    assert opened["summary"]["title"] == "Book"  # new_tab summarises too
    listed = await session.interact({"action": "list_tabs"})
    by_id = {t["tab_id"]: t for t in listed["tabs"]}
    assert by_id[opened["tab_id"]]["active"] and not by_id[first["tab_id"]]["active"]
    assert by_id[first["tab_id"]]["title"] == "Find a book"
    switched = await session.interact({"action": "switch_tab", "tab_id": first["tab_id"]})
    assert switched["url"] == f"{site}search.html"
    # An action without tab_id acts on the active tab; with one, on that tab.
    elsewhere = await session.interact({"action": "refresh", "tab_id": opened["tab_id"], "summary": False})
    assert elsewhere["url"] == f"{site}book.html"
    closed = await session.interact({"action": "close_tab", "tab_id": opened["tab_id"]})
    assert closed["success"] is True
    tabs = (await session.analyze({"what": "tabs"})).data["tabs"]
    assert [t["tab_id"] for t in tabs] == [first["tab_id"]]
    gone = await session.interact({"action": "switch_tab", "tab_id": opened["tab_id"]})
    assert gone["success"] is False and gone["error"] == "unknown_tab"


async def test_background_navigation_and_its_result(session: Session, site: str) -> None:
    queued = await session.interact({"action": "navigate", "url": f"{site}book.html", "background": True})
    assert queued == {
        "success": True,
        "action": "navigate",
        "queued": True,
        "command_id": queued["command_id"],
        "message": queued["message"],
    }
    result = await session.interact({"action": "result", "command_id": queued["command_id"]})
    assert result["success"] is True and result["url"] == f"{site}book.html"
    assert result["command_id"] == queued["command_id"]
    assert "summary" not in result  # skipped in background mode, as the tool's schema tells
    assert "without the summary" in tools.INTERACT.schema()["properties"]["background"]["description"]
    again = await session.interact({"action": "result", "command_id": queued["command_id"]})
    assert again["success"] is False and again["error"] == "unknown_command"


async def test_a_click_that_loads_a_page_returns_its_summary_unless_told_not_to(session: Session, site: str) -> None:
    sign_out = {"action": "click", "selector": "text=Sign out"}
    await session.interact({"action": "navigate", "url": f"{site}welcome.html", "summary": False})
    landed = await session.interact(sign_out)
    assert landed["url"] == f"{site}login.html" and landed["summary"]["title"]
    await session.interact({"action": "navigate", "url": f"{site}welcome.html", "summary": False})
    quiet = await session.interact({**sign_out, "summary": False})
    assert quiet["url"] == f"{site}login.html" and "summary" not in quiet
    await session.interact({"action": "navigate", "url": f"{site}welcome.html", "summary": False})
    queued = await session.interact({**sign_out, "background": True})
    later = await session.interact({"action": "result", "command_id": queued["command_id"]})
    assert later["url"] == f"{site}login.html" and "summary" not in later


async def test_a_background_failure_is_its_result(session: Session) -> None:
    queued = await session.interact({"action": "navigate", "url": "chrome://settings", "background": True})
    result = await session.interact({"action": "result", "command_id": queued["command_id"]})
    assert result["success"] is False and result["error"] == "restricted_url"


async def test_a_bad_request_raises_and_the_session_carries_on(session: Session, site: str) -> None:
    with pytest.raises(pagelens.InvalidRequestError) as caught:
        await session.interact({"action": "navigate", "url": f"{site}book.html", "tabid": "t1"})
    assert "'tabid'" in caught.value.message
    result = await session.interact({"action": "navigate", "url": f"{site}book.html", "summary": False})
    assert result["success"] is True


async def test_analyze_views(session: Session, site: str) -> None:
    await go(session, f"{site}results.html?q=owls")
    full = (await session.analyze({"what": "page_summary"})).data
    assert full["url"] == f"{site}results.html?q=owls"
    assert full["headings"][0] == "h1: Results" and full["word_count"] > 20
    main_world = (await session.analyze({"what": "page_summary", "world": "main"})).data
    assert main_world == full  # the same engine, run in the page's own world
    narrowed = (await session.analyze({"what": "interactive", "query": "volume 1"})).data
    assert [c["name"] for c in narrowed["controls"]] == [
        "owls volume 1",
        "owls volume 10",
        "owls volume 11",
        "owls volume 12",
    ]
    assert set(narrowed["aimap"]) == {c["id"] for c in narrowed["controls"]}
    budget = (await session.analyze({"what": "semantic", "max_tokens": 300})).data
    assert budget["dom_filtered"] is True and budget["pages"] > 1 and 0 < len(budget["interactive_tree"]) < 14
    shot = await session.analyze({"what": "screenshot"})
    assert shot.image is not None and shot.image.startswith(b"\xff\xd8\xff")  # a JPEG
    assert shot.data["mime_type"] == "image/jpeg" and shot.data["width"] == 1024


# ---- the engine in the loaded document: content_script_status


async def test_every_load_says_the_engine_runs_in_it(session: Session, site: str) -> None:
    for request in (
        {"action": "navigate", "url": f"{site}search.html"},
        {"action": "navigate", "url": f"{site}results.html?q=owls", "summary": False},
        {"action": "back"},
        {"action": "refresh", "summary": False},
    ):
        result = await session.interact(request)
        assert result["success"] and result["content_script_status"] == "loaded", (request, result)
    # An action that loads nothing says nothing of it.
    typed = await session.interact({"action": "type", "selector": "label=Search", "text": "owls"})
    assert typed["success"] and "content_script_status" not in typed


async def test_chromium_error_page_is_no_page_for_the_engine(session: Session, site: str) -> None:
    await go(session, f"{site}deadlink.html")
    result = await session.interact({"action": "click", "selector": "text=A server that is not there"})
    assert result["success"] and result["url"].startswith("chrome-error://")
    assert result["content_script_status"] == "unavailable"
    assert result["summary"] is not None  # it still says what went wrong


async def test_a_page_that_stops_answering_is_failed_without_waiting_twice(site: str) -> None:
    # A fixed settle asks the engine nothing: the status probe is the first to meet the
    # frozen main thread.
    options = SessionOptions(settle=SettlePolicy(fixed_ms=0))
    async with await Session.start(options=options) as session:
        result = await session.interact({"action": "navigate", "url": f"{site}frozen.html"})
    assert result["success"] and result["url"] == f"{site}frozen.html"
    assert result["content_script_status"] == "failed"
    # Not tried a second time: a summary that had been waited for would say summary_timeout.
    assert result["summary"] is None and result["summary_error"] == "script_injection_failed"
