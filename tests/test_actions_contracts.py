"""The action layer's contracts, without a browser: requests (a bad parameter is a typed
error that names it), selector and key parsing, restricted addresses, result JSON, and
the background command store."""

from __future__ import annotations

import asyncio

import pytest

import pagelens
from pagelens.actions import ActionResult, AnalyzeRequest, InteractRequest, InvalidParameterError
from pagelens.actions.commands import CommandStore
from pagelens.actions.errors import ActionError
from pagelens.actions.models import ANALYZE_WHAT
from pagelens.actions.navigation import check_url
from pagelens.actions.perform import normalize_key
from pagelens.actions.targets import parse_selector
from pagelens.engine.ids import ElementId
from pagelens.engine.models import VIEWS


@pytest.mark.parametrize(
    ("request_data", "parameter"),
    [
        ({"action": "click", "element_id": "3", "colour": "red"}, "colour"),
        ({"action": "click", "x": "left", "y": 3}, "x"),
        ({"action": "teleport"}, "action"),
        ({"action": "navigate"}, "url"),
        ({"action": "click"}, "element_id"),
        ({"action": "click", "element_id": "3", "selector": "#a"}, "element_id"),
        ({"action": "click", "x": 10}, "y"),
        ({"action": "type", "element_id": "3"}, "text"),
        ({"action": "press"}, "key"),
        ({"action": "select", "element_id": "3"}, "value"),
        ({"action": "result"}, "command_id"),
        ({"action": "switch_tab"}, "tab_id"),
        ({"action": "handle_dialog", "value": "maybe"}, "value"),
        ({"action": "type", "element_id": "3", "text": "a", "frame": "2"}, "frame"),
        ({"action": "focus", "x": 1, "y": 2}, "x"),
        ({"action": "wait_for", "value": "soon"}, "value"),
        ({"action": "navigate", "url": "https://a.example", "summary": "yes please"}, "summary"),
    ],
)
def test_a_bad_parameter_is_a_typed_error_naming_it(request_data: dict, parameter: str) -> None:
    with pytest.raises(pagelens.InvalidRequestError) as caught:
        InteractRequest.parse(request_data)
    assert isinstance(caught.value, InvalidParameterError)
    assert caught.value.code == "invalid_request"
    assert caught.value.parameter == parameter
    assert repr(parameter) in caught.value.message


def test_analyze_parameters_are_checked_too() -> None:
    with pytest.raises(InvalidParameterError) as caught:
        AnalyzeRequest.parse({"what": "semantic", "max_token": 100})
    assert caught.value.parameter == "max_token"
    with pytest.raises(InvalidParameterError) as caught:
        AnalyzeRequest.parse({"what": "semantic", "world": "main"})
    assert caught.value.parameter == "world"
    assert AnalyzeRequest.parse({"what": "page_summary", "world": "main"}).world == "main"
    # One name per view; the earlier names still reach the same views.
    assert AnalyzeRequest.parse({"what": "page_summary"}).what == "full"
    assert AnalyzeRequest.parse({"what": "interactive"}).what == "interaction"
    assert set(VIEWS) - {"compact"} <= set(ANALYZE_WHAT)
    with pytest.raises(InvalidParameterError) as caught:
        AnalyzeRequest.parse({"what": "everything"})
    assert caught.value.parameter == "what"


def test_summary_applies_to_navigation_only_and_never_in_background() -> None:
    assert InteractRequest.parse({"action": "navigate", "url": "a.example"}).wants_summary
    assert InteractRequest.parse({"action": "new_tab"}).wants_summary
    assert not InteractRequest.parse({"action": "navigate", "url": "a.example", "summary": False}).wants_summary
    assert not InteractRequest.parse({"action": "back", "background": True}).wants_summary
    assert not InteractRequest.parse({"action": "click", "element_id": "1", "summary": True}).wants_summary


@pytest.mark.parametrize(
    ("selector", "parsed"),
    [
        ("text=Sign in", {"kind": "text", "value": "Sign in"}),
        ('text="Sign in"', {"kind": "text", "value": "Sign in"}),
        (
            'role=button[name="Save draft"]',
            {"kind": "role", "value": "button", "name": "Save draft"},
        ),
        ("role=link", {"kind": "role", "value": "link", "name": None}),
        ("aria-label=Close", {"kind": "aria-label", "value": "Close"}),
        ("label=Email address", {"kind": "label", "value": "Email address"}),
        ("placeholder='Search books'", {"kind": "placeholder", "value": "Search books"}),
        ("form > button[type=submit]", {"kind": "css", "value": "form > button[type=submit]"}),
        ('input[name="text=x"]', {"kind": "css", "value": 'input[name="text=x"]'}),
    ],
)
def test_selectors_in_every_form_the_views_emit(selector: str, parsed: dict) -> None:
    assert parse_selector(selector) == parsed


def test_element_ids_carry_their_frames() -> None:
    assert ElementId.parse("7") == ElementId((), "7")
    assert ElementId.parse("12.5") == ElementId(("12",), "5")
    assert ElementId.parse("12.30.5") == ElementId(("12", "30"), "5")
    assert str(ElementId.parse("12.30.5")) == "12.30.5"
    assert ElementId.frame("12.30") == ("12", "30")
    for bad in ("button-3", "12.", ".5", "", "1 2"):
        with pytest.raises(InvalidParameterError) as caught:
            ElementId.parse(bad)
        assert caught.value.parameter == "element_id" and caught.value.code == "invalid_request"
    with pytest.raises(InvalidParameterError) as caught:
        ElementId.frame("frame-1")
    assert caught.value.parameter == "frame"


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("Enter", "Enter"),
        ("ctrl+a", "Control+a"),
        ("Control+Shift+K", "Control+Shift+K"),
        ("esc", "Escape"),
        ("+", "+"),
    ],
)
def test_keys_and_chords(key: str, expected: str) -> None:
    assert normalize_key(key) == expected


def test_a_malformed_chord_is_refused() -> None:
    with pytest.raises(InvalidParameterError) as caught:
        normalize_key("Control+")
    assert caught.value.parameter == "key"


@pytest.mark.parametrize(
    "url",
    [
        "chrome://settings",
        "CHROME://version",
        "devtools://devtools/bundled/inspector.html",
        "chrome-extension://abc/page.html",
        "view-source:https://example.com",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "about:settings",
        "ftp://x/y",
        "mailto:ada@example.com",
    ],
)
def test_restricted_urls(url: str) -> None:
    with pytest.raises(ActionError) as caught:
        check_url(url, allow_file_urls=False)
    assert caught.value.code == "restricted_url"


def test_addresses_without_a_scheme_get_one() -> None:
    assert check_url("example.com/a", allow_file_urls=False) == "https://example.com/a"
    assert check_url("localhost:8000/x", allow_file_urls=False) == "http://localhost:8000/x"
    assert check_url("127.0.0.1:9/", allow_file_urls=False) == "http://127.0.0.1:9/"
    assert check_url("about:blank", allow_file_urls=False) == "about:blank"
    assert check_url("data:text/html,<p>hi", allow_file_urls=False) == "data:text/html,<p>hi"
    assert check_url("file:///tmp/a.html", allow_file_urls=True) == "file:///tmp/a.html"


def test_paths_are_relative_to_the_page() -> None:
    base = "https://example.com/docs/guide.html?x=1"
    assert check_url("/about", allow_file_urls=False, base=base) == "https://example.com/about"
    assert check_url("./api.html", allow_file_urls=False, base=base) == "https://example.com/docs/api.html"
    assert check_url("../up", allow_file_urls=False, base=base) == "https://example.com/up"
    assert check_url("?page=2", allow_file_urls=False, base=base) == "https://example.com/docs/guide.html?page=2"
    assert check_url("#top", allow_file_urls=False, base=base) == "https://example.com/docs/guide.html?x=1#top"
    assert check_url("//cdn.example.org/a", allow_file_urls=False, base=base) == "https://cdn.example.org/a"
    with pytest.raises(ActionError) as caught:
        check_url("/about", allow_file_urls=False, base="about:blank")
    assert caught.value.code == "invalid_request"
    assert check_url("b.html", allow_file_urls=True, base="file:///tmp/a.html") == "https://b.html"  # a host
    assert check_url("./b.html", allow_file_urls=True, base="file:///tmp/a.html") == "file:///tmp/b.html"
    with pytest.raises(ActionError) as caught:
        check_url("./b.html", allow_file_urls=False, base="file:///tmp/a.html")
    assert caught.value.code == "restricted_url"


def test_a_failed_summary_is_null_with_its_reason() -> None:
    failed = ActionResult(success=True, action="navigate", url="https://a.example/", summary_error="summary_timeout")
    assert failed.to_json() == {
        "success": True,
        "action": "navigate",
        "url": "https://a.example/",
        "summary": None,
        "summary_error": "summary_timeout",
    }
    assert "summary" not in ActionResult(success=True, action="navigate").to_json()


async def test_background_results_wait_then_are_read_once() -> None:
    store = CommandStore()
    release = asyncio.Event()

    async def slow() -> dict:
        await release.wait()
        return {"success": True, "action": "wait_for"}

    command_id = store.submit("wait_for", slow)
    assert await store.result(command_id, wait_s=0.05) is None  # still running: poll again
    assert store.status(command_id) == {
        "command_id": command_id,
        "action": "wait_for",
        "status": "running",
    }
    release.set()
    assert await store.result(command_id, wait_s=5) == {
        "success": True,
        "action": "wait_for",
        "command_id": command_id,
    }
    with pytest.raises(ActionError) as caught:
        await store.result(command_id, wait_s=0.05)
    assert caught.value.code == "unknown_command"


async def test_unread_results_are_kept_for_ten_minutes() -> None:
    now = [1000.0]
    store = CommandStore(clock=lambda: now[0])

    async def quick() -> dict:
        return {"success": True, "action": "scroll"}

    unread = store.submit("scroll", quick)
    read = store.submit("scroll", quick)
    await store.result(read)  # both have finished: they ran in the order submitted
    now[0] += 599
    assert store.status(unread)["status"] == "finished"
    now[0] += 2
    with pytest.raises(ActionError) as caught:
        store.status(unread)
    assert caught.value.code == "unknown_command"
