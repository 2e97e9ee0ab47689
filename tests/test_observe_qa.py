"""What an action's observations say it changed, on single-page-app patterns
(tests/fixtures/observe_qa): a submit the browser's own validation stops, a checkout
wizard whose steps are switched by `hidden`, a class or a style, tabs and a carousel, an
app that says it could not save, alerts, and a button a keyed re-render replaces. Real
Chromium, real input, as an agent drives it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import pagelens
from pagelens.actions import Session
from pagelens.browser.network import LOOPBACK_HOSTS
from tests.actions_helpers import act, go, nodes

PAGES = Path(__file__).parent / "fixtures" / "observe_qa"


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with pagelens.serve_directory(PAGES) as url:
        yield url


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[Session]:
    async with await Session.start(allowed_hosts=list(LOOPBACK_HOSTS)) as session:
        yield session


async def test_a_submit_the_browser_refuses_names_each_empty_required_field(session: Session, site: str) -> None:
    await go(session, f"{site}signup.html")
    sent = await act(session, action="click", selector="text=Create account")
    seen = sent["observations"]
    # Chromium's bubble is never in the DOM, the form was not sent: the `invalid` events say
    # it. The page's own aria-invalid on each field says the same and is not repeated; the
    # group of radios is one field; past three, fields are counted.
    assert not seen["url_changed"] and seen["network_requests"] == 0
    assert seen["changes"] == [
        "Error: textbox 'Full name' invalid: Please fill out this field.",
        "Error: textbox 'Email' invalid: Please fill out this field.",
        "Error: radio 'Free' invalid: Please select one of these options.",
        "Error: 1 more field invalid",
    ]
    assert seen["has_errors"] and not seen["has_success"]
    assert seen["recent_events"] == [
        "Full name: Please fill out this field.",
        "Email: Please fill out this field.",
        "Free: Please select one of these options.",
    ]


async def test_a_refused_submit_says_why_without_what_was_typed(session: Session, site: str) -> None:
    await go(session, f"{site}signup.html")
    typed = {"#name": "Ada", "#email": "ada.lovelace@", "#age": "150", "#handle": "Ada Lovelace"}
    for selector, text in typed.items():
        await act(session, action="type", selector=selector, text=text)
    sent = await act(session, action="press", selector="#handle", key="Enter")  # an implicit submit
    seen = sent["observations"]
    assert seen["changes"] == [
        # Chromium's own message quotes the address ("'ada.lovelace@' is incomplete").
        "Error: textbox 'Email' invalid: Please enter an email address.",
        "Error: spinbutton 'Age' invalid: Value must be less than or equal to 120.",
        # The pattern's title is the page's own description of it, shown in the bubble.
        "Error: textbox 'Username' invalid: Please match the requested format: 3 to 12 lowercase letters or digits",
        "Error: 2 more fields invalid",  # the plan and the terms
    ]
    assert seen["has_errors"]
    said = json.dumps(sent)
    assert "ada.lovelace" not in said and "Lovelace" not in said and "150" not in said


async def test_a_valid_submit_reports_no_invalid_field(session: Session, site: str) -> None:
    await go(session, f"{site}signup.html")
    for selector, text in {"#name": "Ada", "#email": "ada@example.org", "#age": "36", "#handle": "ada"}.items():
        await act(session, action="type", selector=selector, text=text)
    await act(session, action="check", selector="text=Pro")
    await act(session, action="check", selector="#terms")
    sent = await act(session, action="click", selector="text=Create account")
    seen = sent["observations"]
    assert seen["recent_events"] == ["Account created"]
    assert seen["has_success"] and not seen["has_errors"]


async def test_an_invalid_field_in_a_shadow_root_is_told(session: Session, site: str) -> None:
    await go(session, f"{site}newsletter.html")
    subscribe = (await nodes(session))["Subscribe"]  # the view finds the shadow root
    sent = await act(session, action="click", element_id=subscribe["i"])
    assert sent["observations"]["changes"] == ["Error: textbox 'Email' invalid: Please fill out this field."]
    assert sent["observations"]["has_errors"]


@pytest.mark.parametrize("mode", ["hidden", "class", "style"])
async def test_each_wizard_step_shown_or_hidden_is_told_by_its_heading(session: Session, site: str, mode: str) -> None:
    await go(session, f"{site}checkout.html?mode={mode}")
    # Its wrapper restyled as the field takes focus shows or hides nothing.
    typed = await act(session, action="type", selector="#street", text="1 Main St")
    assert typed["observations"]["changes"] == []
    paid = await act(session, action="click", selector="text=Continue to payment")
    assert paid["observations"]["dom_mutated"]
    assert paid["observations"]["changes"] == [
        "Removed: heading 'Step 1 of 3: Shipping'",
        "Added: heading 'Step 2 of 3: Payment'",
    ]
    reviewed = await act(session, action="click", selector="text=Review order")
    assert reviewed["observations"]["changes"] == [
        "Removed: heading 'Step 2 of 3: Payment'",
        "Added: heading 'Step 3 of 3: Review'",
    ]
    placed = await act(session, action="click", selector="#place")
    # A part without a heading is named by its group of controls.
    assert placed["observations"]["changes"] == [
        "Removed: heading 'Step 3 of 3: Review'",
        "Added: group 'Rate your checkout'",
    ]


async def test_a_part_shown_by_a_hiding_class_taken_off_and_put_back(session: Session, site: str) -> None:
    await go(session, f"{site}checkout.html")
    shown = await act(session, action="click", selector="#promo-toggle")
    assert shown["observations"]["changes"] == ["Added: link 'See offers'"]
    hidden = await act(session, action="click", selector="#promo-toggle")
    assert hidden["observations"]["changes"] == ["Removed: link 'See offers'"]


async def test_a_tab_or_slide_switch_tells_its_panel_once(session: Session, site: str) -> None:
    await go(session, f"{site}panels.html")
    yearly = await act(session, action="click", selector="#t-year")
    assert yearly["observations"]["changes"] == [
        "Changed: tab 'Monthly' not selected",
        "Removed: heading 'Monthly plans'",
        "Changed: tab 'Yearly' selected",
        "Added: heading 'Yearly plans'",
    ]
    slid = await act(session, action="click", selector="#next")
    assert slid["observations"]["changes"] == [
        "Removed: heading 'Anna saved 3 hours a week'",
        "Added: heading 'Ben shipped twice as fast'",
    ]
    # What the semantic view reports since it was last taken: each panel once.
    view = await session.analyze({"what": "semantic"})
    lines = [line.split("] ", 1)[1] for line in view.data["recentEvents"]]
    assert lines == yearly["observations"]["changes"] + slid["observations"]["changes"]


async def test_a_status_that_could_not_save_is_an_error(session: Session, site: str) -> None:
    await go(session, f"{site}notes.html")
    saved = await act(session, action="click", selector="#save")
    seen = saved["observations"]
    assert seen["recent_events"] == ["Could not save: try again"] and seen["has_errors"]
    assert seen["changes"] == ["Error: 'Could not save: try again'"]


async def test_an_alert_is_an_error_unless_styled_as_information(session: Session, site: str) -> None:
    await go(session, f"{site}notes.html")
    refused = await act(session, action="click", selector="#publish")
    assert refused["observations"]["recent_events"] == ["Accept the terms first"]
    assert refused["observations"]["has_errors"]
    assert refused["observations"]["changes"] == ["Error: 'Accept the terms first'"]
    await act(session, action="check", selector="#terms")
    published = await act(session, action="click", selector="#publish")
    assert published["observations"]["recent_events"] == ["Your note goes live at 9:00"]
    assert not published["observations"]["has_errors"]


async def test_a_button_rendered_anew_as_it_was_is_no_change(session: Session, site: str) -> None:
    await go(session, f"{site}notes.html")
    sent = await act(session, action="click", selector=".send")
    assert sent["observations"]["dom_mutated"] and sent["observations"]["changes"] == []
