"""The element picker driven like a user would: real mouse moves, clicks and key presses."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

import pagelens
from pagelens.agent.tools import AskUserParams, PickedElement, ask_user_which_element
from pagelens.agent.tools.errors import PickerCancelledError, PickerTimeoutError
from pagelens.errors import PagelensError


@pytest.fixture
async def target(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    await page.goto(f"{fixtures_url}agent/target.html")
    return page


async def start(page: pagelens.Page, **params: Any) -> asyncio.Task[PickedElement]:
    """The picker running while the test plays the user; returns once its overlay is up."""
    task = asyncio.create_task(ask_user_which_element(page.playwright_page, AskUserParams(**params)))
    await page.playwright_page.wait_for_function("document.querySelector('pagelens-picker')", timeout=5000)
    return task


async def hover(page: pagelens.Page, selector: str) -> None:
    box = await page.playwright_page.locator(selector).bounding_box()
    assert box is not None
    await page.playwright_page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=3)


async def overlay_is_gone(page: pagelens.Page) -> bool:
    return bool(await page.playwright_page.evaluate("document.querySelector('pagelens-picker') === null"))


async def texts_under(page: pagelens.Page) -> Iterator[str]:
    """Every text in the document, closed shadow roots included (as the user sees them)."""
    session = await page.playwright_page.context.new_cdp_session(page.playwright_page)
    document = await session.send("DOM.getDocument", {"depth": -1, "pierce": True})
    await session.detach()

    def walk(node: dict[str, Any]) -> Iterator[str]:
        if node.get("nodeType") == 3:
            yield node["nodeValue"]
        for child in [*node.get("children", []), *node.get("shadowRoots", [])]:
            yield from walk(child)

    return walk(document["root"])


async def test_hover_and_click_choose_the_element_without_clicking_it(target: pagelens.Page) -> None:
    task = await start(target, message="Which button sends the form?")
    assert "Which button sends the form?" in list(await texts_under(target))
    await hover(target, "#go")
    await target.playwright_page.mouse.down()
    await target.playwright_page.mouse.up()
    picked = await asyncio.wait_for(task, 5)
    assert picked.selector == "#go"
    assert picked.tag_name == "button" and picked.text == "Go"
    assert picked.attributes == {"id": "go", "type": "button"}
    assert picked.html == '<button id="go" type="button">Go</button>'
    assert picked.bounding_box.width == 160 and picked.bounding_box.height == 40
    assert await target.playwright_page.evaluate("window.pageClicks") == []  # the page never saw the click
    assert await overlay_is_gone(target)


async def test_an_element_without_id_gets_a_selector_and_xpath_for_it_alone(target: pagelens.Page) -> None:
    task = await start(target)
    await hover(target, "li >> nth=1")
    await target.playwright_page.mouse.click(*(await center(target, "li >> nth=1")))
    picked = await asyncio.wait_for(task, 5)
    assert picked.text == "two"
    matches = await target.playwright_page.evaluate(
        "([css, xpath]) => [[...document.querySelectorAll(css)].map(e => e.textContent),"
        " document.evaluate(xpath, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE).snapshotLength]",
        [picked.selector, picked.xpath],
    )
    assert matches == [["two"], 1]
    assert (
        await target.playwright_page.evaluate(
            "xpath => document.evaluate(xpath, document, null, 9).singleNodeValue.textContent", picked.xpath
        )
        == "two"
    )


async def center(page: pagelens.Page, selector: str) -> tuple[float, float]:
    box = await page.playwright_page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def test_arrow_up_then_enter_chooses_the_parent(target: pagelens.Page) -> None:
    task = await start(target)
    await hover(target, "p.hint")
    await target.playwright_page.keyboard.press("ArrowUp")
    await target.playwright_page.keyboard.press("Enter")
    picked = await asyncio.wait_for(task, 5)
    assert picked.selector == "#card" and picked.tag_name == "div"
    assert await overlay_is_gone(target)


async def test_arrow_down_goes_back_to_the_child(target: pagelens.Page) -> None:
    task = await start(target)
    await hover(target, "p.hint")
    for key in ("ArrowUp", "ArrowUp", "ArrowDown", "Enter"):
        await target.playwright_page.keyboard.press(key)
    picked = await asyncio.wait_for(task, 5)
    assert picked.selector == "#card"
    # The keys went to the picker, not to the page.
    assert await target.playwright_page.evaluate("window.trusted") == []


async def test_escape_cancels(target: pagelens.Page) -> None:
    task = await start(target)
    await hover(target, "#go")
    await target.playwright_page.keyboard.press("Escape")
    with pytest.raises(PickerCancelledError) as caught:
        await asyncio.wait_for(task, 5)
    assert caught.value.code == "picker_cancelled"
    assert await overlay_is_gone(target)
    await target.playwright_page.click("#go")  # and the page takes clicks again
    assert await target.playwright_page.evaluate("window.pageClicks") == ["go", "card"]


async def test_no_choice_in_time(target: pagelens.Page) -> None:
    task = await start(target, timeout=0.5)
    with pytest.raises(PickerTimeoutError) as caught:
        await asyncio.wait_for(task, 5)
    assert caught.value.code == "picker_timeout"
    assert await overlay_is_gone(target)


async def test_the_page_navigating_away_ends_the_choice(target: pagelens.Page, fixtures_url: str) -> None:
    task = await start(target)
    await target.goto(f"{fixtures_url}agent/other.html")
    with pytest.raises(PagelensError) as caught:
        await asyncio.wait_for(task, 5)
    assert caught.value.code == "document_changed"


async def test_an_abandoned_picker_takes_its_overlay_along(target: pagelens.Page) -> None:
    task = await start(target)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await overlay_is_gone(target)
    await target.playwright_page.click("#go")
    assert await target.playwright_page.evaluate("window.pageClicks") == ["go", "card"]
