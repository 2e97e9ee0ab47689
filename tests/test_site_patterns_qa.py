"""Patterns real sites put in an agent's way (tests/fixtures/widgets/site_*.html): a
cookie banner over the page, a sticky header, a hover-only menu, a custom select over a
hidden native one, a form's errors after a failed submit, a date picker and a carousel.
Real Chromium, real input, element ids taken from the semantic view as an agent would."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import pagelens
from pagelens.actions import Session
from pagelens.browser.network import LOOPBACK_HOSTS
from tests.actions_helpers import act, go, nodes

PAGES = Path(__file__).parent / "fixtures" / "widgets"


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with pagelens.serve_directory(PAGES) as url:
        yield url


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[Session]:
    async with await Session.start(allowed_hosts=list(LOOPBACK_HOSTS)) as session:
        yield session


async def test_a_cookie_banner_s_buttons_lead_the_summary_and_name_what_they_cover(session: Session, site: str) -> None:
    landed = await act(session, action="navigate", url=f"{site}site_consent.html")
    # The banner covers "Share article": its own buttons are what the page asks for first.
    labels = [action["label"] for action in landed["summary"]["primary_actions"]]
    assert labels[:3] == ["Reject all", "Accept all", "Share article"]
    control = await nodes(session)
    assert control["Subscribe"].get("occ") and "occ" not in control["Accept all"]
    covered = await session.interact({"action": "click", "element_id": control["Subscribe"]["i"]})
    assert covered["error"] == "occluded" and 'dialog "Cookie consent" would receive the click' in covered["message"]
    accepted = await act(session, action="click", element_id=control["Accept all"]["i"])
    assert accepted["observations"]["changes"] == ["Removed: dialog 'Cookie consent'"]
    shared = await act(session, action="click", element_id=control["Subscribe"]["i"])
    assert shared["observations"]["changes"] == ["Changed: 'Subscribed'"]


async def test_a_click_on_a_control_under_a_sticky_header_lands(session: Session, site: str) -> None:
    await go(session, f"{site}site_consent.html")
    await act(session, action="click", selector="#reject")
    await act(session, action="scroll", value=540)  # "Share article" now sits under the header
    shared = await act(session, action="click", element_id=(await nodes(session))["Share article"]["i"])
    assert shared["observations"]["changes"] == ["Changed: 'Link copied'"]


async def test_a_hover_menu_opens_and_its_item_is_clicked(session: Session, site: str) -> None:
    await go(session, f"{site}site_hover_menu.html")
    menu = await nodes(session)
    assert "Boots" not in menu
    await act(session, action="hover", element_id=menu["Shop"]["i"])
    boots = (await nodes(session))["Boots"]
    clicked = await act(session, action="click", element_id=boots["i"])
    assert clicked["observations"]["changes"] == ["Changed: 'Showing boots'"]


async def test_a_custom_select_is_its_combobox_not_the_hidden_select(session: Session, site: str) -> None:
    await go(session, f"{site}site_custom_select.html")
    shown = await nodes(session)
    assert [(n["r"], n["n"]) for n in shown.values()] == [("sel", "Country Choose…")]
    chosen = await act(session, action="select", element_id=shown["Country Choose…"]["i"], value="Germany")
    assert chosen["observations"]["changes"] == [
        "Changed: combobox 'Country Germany' collapsed",
        "Changed: 'Ships to Germany'",
    ]


async def test_a_failed_submit_names_each_invalid_field_and_group(session: Session, site: str) -> None:
    await go(session, f"{site}site_form_errors.html")
    field = await nodes(session)
    assert [(field[n]["r"], field[n].get("s")) for n in ("Email", "Free", "Monthly")] == [
        ("inp", "required"),
        ("rad", "required"),
        ("rad", "checked"),
    ]
    sent = await act(session, action="click", element_id=field["Create account"]["i"])
    seen = sent["observations"]
    assert seen["has_errors"] and seen["recent_events"] == ["Enter a valid email address", "Choose a plan"]
    # The fieldset is named by its legend, not by all the text inside it.
    assert seen["changes"] == [
        "Error: textbox 'Email' invalid",
        "Error: 'Enter a valid email address'",
        "Error: group 'Plan' invalid",
        "Error: radio 'Free' invalid",
        "Error: radio 'Pro' invalid",
        "Error: 'Choose a plan'",
    ]
    assert (await nodes(session))["Email"]["s"] == "required,invalid"


async def test_a_date_picker_opens_on_focus_and_a_day_fills_the_field(session: Session, site: str) -> None:
    await go(session, f"{site}site_datepicker.html")
    date = (await nodes(session))["Date"]
    opened = await act(session, action="click", element_id=date["i"])
    assert opened["observations"]["changes"] == ["Added: dialog 'Choose date'", "Changed: textbox 'Date' expanded"]
    day = (await nodes(session))["14 March 2027"]
    picked = await act(session, action="click", element_id=day["i"])
    assert "Removed: dialog 'Choose date'" in picked["observations"]["changes"]
    after = await nodes(session, include_values=True)
    assert after["Date"]["v"] == "2027-03-14" and "14 March 2027" not in after


async def test_a_carousel_shows_one_slide_s_link_at_a_time(session: Session, site: str) -> None:
    await go(session, f"{site}site_carousel.html")
    slides = await nodes(session)
    assert "Book Alps" in slides and "Book Fjords" not in slides
    await act(session, action="click", element_id=slides["Next slide"]["i"])
    after = await nodes(session)
    assert "Book Fjords" in after and "Book Alps" not in after
    hidden = await session.interact({"action": "click", "selector": "a[href='#dunes']"})
    assert hidden["error"] == "not_visible"
