"""The semantic view's recent events (docs/views.md#recent-events): a log of what changed
on a page between two semantic views, in real Chromium."""

from __future__ import annotations

import asyncio
import re

import pytest

import pagelens
from pagelens.engine.models import SemanticView

LINE_RE = re.compile(
    r"^(\(frame \d+\) )?(\[\d+(s|m) ago\] (Added|Removed|Changed|Error): .+|\(\d+ earlier changes not shown\))$"
)


@pytest.fixture
async def shipping(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    await page.goto(f"{fixtures_url}events/page.html")
    first = await page.semantic_tree()  # the engine starts watching: nothing before it
    assert first.recentEvents is None and first.hasErrors is None
    return page


async def events(page: pagelens.Page, **options: bool) -> SemanticView:
    view = await page.semantic_tree(**options)
    for line in view.recentEvents or []:
        assert LINE_RE.match(line), line
    return view


def lines_with(view: SemanticView, text: str) -> list[str]:
    return [line for line in view.recentEvents or [] if text in line]


async def test_an_error_message_added_by_a_click(shipping: pagelens.Page) -> None:
    await shipping.playwright_page.click("#check")
    view = await events(shipping)
    # An error that appeared reads "Error:", as an addition would read "Added:".
    assert lines_with(view, "Error: 'Invalid ZIP code'"), view.recentEvents
    assert lines_with(view, "Error: textbox 'ZIP code' invalid"), view.recentEvents
    assert view.hasErrors is True and view.hasSuccess is False


async def test_a_success_toast_shown_by_a_class(shipping: pagelens.Page) -> None:
    await shipping.playwright_page.click("#save")
    view = await events(shipping)
    assert lines_with(view, "Added: 'Address saved'"), view.recentEvents
    assert view.hasSuccess is True and view.hasErrors is False


async def test_a_dialog_shown_and_hidden_with_its_overlay(shipping: pagelens.Page) -> None:
    pw = shipping.playwright_page
    await pw.evaluate("toggleNewsletter(true)")
    assert lines_with(await events(shipping), "Added: dialog 'Newsletter'")
    await pw.evaluate("toggleNewsletter(false)")
    assert lines_with(await events(shipping), "Removed: dialog 'Newsletter'")


async def test_removal_text_change_and_state_change(shipping: pagelens.Page) -> None:
    pw = shipping.playwright_page
    await pw.click("#menu")
    await pw.evaluate("removeItem(); changeTotal()")
    view = await events(shipping)
    assert lines_with(view, "Removed: 'Red plate'"), view.recentEvents
    assert lines_with(view, "Changed: 'Total: 14 EUR'"), view.recentEvents
    assert lines_with(view, "Changed: button 'Options' expanded"), view.recentEvents
    assert not lines_with(view, "Blue mug")  # what stayed is no event
    assert view.hasErrors is False and view.hasSuccess is False


async def test_a_toast_that_came_and_went_between_two_views(shipping: pagelens.Page) -> None:
    pw = shipping.playwright_page
    await pw.evaluate("flashToast()")
    await pw.wait_for_function("!document.querySelector('.snackbar')")
    view = await events(shipping)
    added = lines_with(view, "Added: 'Item added to your wishlist'")
    removed = lines_with(view, "Removed: 'Item added to your wishlist'")
    assert view.recentEvents is not None and added and removed, view.recentEvents
    assert view.recentEvents.index(added[0]) < view.recentEvents.index(removed[0])  # oldest first
    assert view.hasSuccess is True


async def test_the_log_starts_over_after_a_semantic_view_only(shipping: pagelens.Page) -> None:
    pw = shipping.playwright_page
    await pw.click("#check")
    # Other views do not read the log: the next semantic view still reports the error.
    await shipping.interaction_model()
    await shipping.summary()
    view = await events(shipping)
    assert view.hasErrors is True and lines_with(view, "Invalid ZIP code")
    again = await events(shipping)
    assert again.recentEvents is None and again.hasErrors is None
    await pw.evaluate("changeTotal()")
    third = await events(shipping)
    assert third.recentEvents is not None and len(third.recentEvents) == 1, third.recentEvents


async def test_a_navigation_starts_a_fresh_log(shipping: pagelens.Page, fixtures_url: str) -> None:
    pw = shipping.playwright_page
    await pw.click("#check")
    await shipping.goto(f"{fixtures_url}events/page.html")
    fresh = await events(shipping)
    assert fresh.recentEvents is None
    await pw.evaluate("changeTotal()")
    view = await events(shipping)
    assert view.recentEvents is not None and lines_with(view, "Total: 14 EUR")
    assert not lines_with(view, "ZIP") and view.hasErrors is False


async def test_the_first_view_of_a_document_is_where_its_log_starts(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}events/page.html")
    world = await page.main_world()
    await world.call("viewportSize")  # the engine runs, nobody has looked yet
    await page.playwright_page.evaluate("changeTotal()")
    await page.summary()  # the first look: what came before is the page as it was found
    assert (await events(page)).recentEvents is None

    await page.goto(f"{fixtures_url}events/page.html")
    world = await page.main_world()
    await world.call("viewportSize")
    await page.playwright_page.evaluate("changeTotal()")
    first = await events(page)  # a semantic view taken first reports what came before it
    assert first.recentEvents is not None and lines_with(first, "Total: 14 EUR")


async def test_bursts_are_counted_beyond_a_few_lines(shipping: pagelens.Page) -> None:
    await shipping.playwright_page.evaluate("churn(50)")
    view = await events(shipping)
    assert view.recentEvents is not None
    assert [line.split("] ", 1)[1] for line in view.recentEvents] == [
        "Added: 'Row 0'",
        "Added: 'Row 1'",
        "Added: 'Row 2'",
        "Added: 47 more",
    ]


async def test_a_re_render_with_look_alikes_is_no_change(shipping: pagelens.Page) -> None:
    await shipping.playwright_page.evaluate(
        "const list = document.getElementById('cart');"
        "list.replaceChildren(...[...list.children].map((li) => li.cloneNode(true)))"
    )
    assert (await events(shipping)).recentEvents is None


async def test_typed_text_and_values_never_enter_the_log(shipping: pagelens.Page) -> None:
    pw = shipping.playwright_page
    await pw.fill("#zip", "TypedZip9081")
    await pw.fill("#card", "4111222233334444")
    await pw.click("#notes")
    await pw.keyboard.type("TypedNotesKilo")
    await pw.click("#check")  # the page reacts: an event, and the field is marked invalid
    view = await events(shipping, include_values=True)
    text = " ".join(view.recentEvents or [])
    assert "Invalid ZIP code" in text
    for secret in ("TypedZip9081", "4111222233334444", "TypedNotesKilo"):
        assert secret not in text
    # The page really holds them: the check could fail.
    assert await pw.input_value("#zip") == "TypedZip9081"


async def test_contact_details_are_masked_in_events_unless_asked(shipping: pagelens.Page) -> None:
    script = (
        "const p = document.createElement('p'); p.setAttribute('role', 'status');"
        "p.textContent = 'We wrote to jane.roe@example.org'; document.body.append(p);"
    )
    pw = shipping.playwright_page
    await pw.evaluate(script)
    masked = await events(shipping)
    assert lines_with(masked, "We wrote to [email]") and not lines_with(masked, "jane.roe")
    await pw.evaluate(script)
    plain = await events(shipping, mask_contact_details=False)
    assert lines_with(plain, "We wrote to jane.roe@example.org"), plain.recentEvents


async def test_events_inside_frames_are_merged(page: pagelens.Page, fixtures_url: str) -> None:
    await page.playwright_page.set_content(f'<h1>Outer</h1><iframe src="{fixtures_url}events/page.html"></iframe>')
    frame = page.playwright_page.frames[1]
    await frame.wait_for_load_state()
    await page.semantic_tree()
    await frame.evaluate("changeTotal()")
    view = await events(page)
    assert view.recentEvents is not None
    assert [line for line in view.recentEvents if line.startswith("(frame 1) ") and "Total: 14 EUR" in line]


async def test_the_log_waits_for_the_view_not_for_a_timer(shipping: pagelens.Page) -> None:
    # Changes made just before the view (still queued, not yet read in a burst) count.
    await shipping.playwright_page.evaluate("changeTotal()")
    view = await events(shipping)
    assert lines_with(view, "Total: 14 EUR")
    await asyncio.sleep(0.4)  # and once read, they are not reported twice
    assert (await events(shipping)).recentEvents is None


async def test_at_most_twelve_lines_the_oldest_dropped(shipping: pagelens.Page) -> None:
    await shipping.playwright_page.evaluate(
        "for (let i = 0; i < 15; i++) { const p = document.createElement('p'); p.setAttribute('role', 'status');"
        "p.textContent = `Notice ${i}`; document.body.append(p); }"
    )
    view = await events(shipping)
    assert view.recentEvents is not None
    assert view.recentEvents[0] == "(3 earlier changes not shown)"
    assert [line.split("] ", 1)[1] for line in view.recentEvents[1:]] == [f"Added: 'Notice {i}'" for i in range(3, 15)]
