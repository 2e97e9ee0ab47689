"""A navigation's arrival (browser/arrival.py): what it reports of the loaded document,
read in one call to the engine (evaluated while the document loads), with the compact
summary the engine keeps from `load` only while the page is as it was then."""

from __future__ import annotations

import time

import pytest

import pagelens
from pagelens.actions.dialogs import DialogPolicy
from pagelens.actions.models import ActionResult
from pagelens.actions.navigation import NavigationOptions, navigate
from pagelens.actions.settle import SettlePolicy
from pagelens.actions.tabs import Tab

pytest_plugins = ["tests.actions_support"]  # the `site` fixture

# Past the fixtures' changes 100 ms after load, with nothing watched meanwhile.
PAST_THE_CHANGES = NavigationOptions(settle=SettlePolicy(fixed_ms=400))


async def load(page: pagelens.Page, url: str, options: NavigationOptions = PAST_THE_CHANGES) -> ActionResult:
    tab = Tab("t1", page, DialogPolicy())
    tab.attach(page)
    result = await navigate(tab, url, options, summary=True, base="")
    assert result.content_script_status == "loaded" and result.summary is not None, result
    return result


# Kept from load (a fixed delay), or taken after settling.
@pytest.mark.parametrize("settle", [SettlePolicy(fixed_ms=100), SettlePolicy()])
async def test_the_summary_on_arrival_is_the_one_a_fresh_capture_takes(
    page: pagelens.Page, site: str, settle: SettlePolicy
) -> None:
    result = await load(page, f"{site}catalogue.html", NavigationOptions(settle=settle))
    assert result.title == "Catalogue"
    assert result.summary == await page.summary("compact")


async def test_a_page_that_changed_after_load_is_summarised_as_it_is_now(page: pagelens.Page, site: str) -> None:
    summary = (await load(page, f"{site}changes-after-load.html")).summary
    assert summary is not None
    assert summary.headings == ["h1: Your orders"]
    assert [action.label for action in summary.primary_actions] == ["Track parcel"]


async def test_a_page_that_scrolled_after_load_is_summarised_as_it_shows_now(page: pagelens.Page, site: str) -> None:
    summary = (await load(page, f"{site}scrolls-after-load.html")).summary
    assert summary is not None
    assert summary.primary_actions[0].label == "Subscribe"  # above the fold now
    assert summary == await page.summary("compact")


async def test_a_tab_pagelens_did_not_open_is_read_in_one_call_too(browser: pagelens.Browser, site: str) -> None:
    page = pagelens.Page(await browser.context.new_page())  # a popup, the user's own tab
    try:
        await page.goto(f"{site}search.html")
        arrival = await page.arrive(summary=True)
        assert arrival.title == "Find a book"
        assert arrival.summary is not None and arrival.summary.title == "Find a book"
        result = await load(page, f"{site}catalogue.html")
        assert result.title == "Catalogue"
        assert result.summary is not None and result.summary.title == "Catalogue"
    finally:
        await page.close()


async def test_the_log_of_changes_starts_with_load(page: pagelens.Page, site: str) -> None:
    """The engine comes while the document loads; what the page does before `load` is its
    loading, not news for the first semantic view."""
    tab = Tab("t1", page, DialogPolicy())
    tab.attach(page)
    result = await navigate(tab, f"{site}changes-while-loading.html", PAST_THE_CHANGES, summary=False, base="")
    assert result.load_complete
    events = (await page.semantic_tree()).recentEvents or []
    assert any("Rendered after load" in line for line in events), events
    assert not any("Rendered while loading" in line for line in events), events


# The engine waits for `load` and the delay itself where settling is a fixed delay.
SOON = NavigationOptions(settle=SettlePolicy(fixed_ms=0), load_wait=1.0)


async def test_a_page_that_never_finishes_loading_is_read_after_the_load_wait(page: pagelens.Page, site: str) -> None:
    started = time.monotonic()
    result = await load(page, f"{site}hanging-image.html", SOON)
    assert 1.0 <= time.monotonic() - started < 1.0 + 4.0  # the margin is for a busy machine
    assert result.load_complete is False
    assert result.message is not None
    assert "had not finished loading" in result.message and f"{site}hang" in result.message
    assert result.summary is not None and result.summary.headings == ["h1: Almost there"]


async def test_a_page_that_moves_on_while_loading_is_read_where_it_arrived(page: pagelens.Page, site: str) -> None:
    # The first document never loads; the wait for it ends when it goes away, and the
    # next one has the whole default load wait (a busy machine missed one of 1 s).
    result = await load(page, f"{site}moves-on-while-loading.html", NavigationOptions(settle=SettlePolicy(fixed_ms=0)))
    assert result.url == f"{site}catalogue.html" and result.title == "Catalogue"
    assert result.load_complete is True
    assert result.summary is not None and result.summary.title == "Catalogue"


async def test_a_new_document_gets_its_engine_while_it_loads_whatever_its_context_is_numbered(
    page: pagelens.Page, site: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Going to another site and back, a document's world may have the number the last
    one's had: its engine must still be evaluated while it loads, not found missing at
    the first call."""
    other_site = site.replace("127.0.0.1", "localhost")
    world = await page.main_world()
    sent: list[str] = []
    send = world.session.send

    async def counted(method: str, params: dict[str, object] | None = None) -> object:
        sent.append(method)
        return await send(method, params)

    monkeypatch.setattr(world.session, "send", counted)
    for url in [f"{site}catalogue.html", f"{other_site}search.html"] * 2:
        await page.goto(url)
        await page.ready()
        sent.clear()
        assert await world.call("docToken")
        assert sent == ["Runtime.callFunctionOn"], sent
