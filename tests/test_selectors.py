"""Every emitted selector matches exactly its own element (002), checked as
selector_support.py says on fixtures with shadow DOM and quirks mode (on every corpus
page: test_corpus_sweep.py).

The interaction view's selectors must also hold in a fresh load where pagelens never ran
(docs/ids.md): bench/selectors.py resolves them in a second browser context, here on a
few corpus pages with repeated menu items and links.
"""

from __future__ import annotations

from collections import Counter

import pytest

import pagelens
from bench.selectors import sweep_page
from tests.selector_support import Tally, check_page


async def test_selectors_with_shadow_dom(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}primitives/selectors-shadow.html")
    tally = await check_page(page, "selectors-shadow")
    model = await page.interaction_model()
    # Three identical cards, two identical inner widgets and the slotted controls are all there.
    names = [c.name for c in model.controls]
    assert names.count("Buy") == 3 and names.count("Deep") == 2 and "Slotted send" in names
    actions = (await page.summary("compact")).primary_actions
    assert tally.checked == len(model.controls) - len(tally.unnamed) + len(actions)
    assert not tally.failures, tally.failures
    # No CSS selector tells apart the controls of identical shadow trees (docs/ids.md):
    # those of the three cards and the two inner widgets have none; all others have one.
    cards = {"Save": 3, "Buy": 3, "Search": 3, "Details": 3}
    widgets = {"Deep": 2, "Search": 2}
    assert Counter(tally.unnamed) == Counter(cards) + Counter(widgets)


async def test_selectors_in_quirks_mode(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}primitives/selectors-quirks.html")
    assert await page.playwright_page.evaluate("document.compatMode") == "BackCompat"
    tally = await check_page(page, "selectors-quirks")
    assert tally.checked >= 15
    assert not tally.failures and not tally.unnamed, (tally.failures, tally.unnamed)


async def test_selectors_on_the_stable_id_and_occlusion_fixtures(page: pagelens.Page, fixtures_url: str) -> None:
    total = Tally()
    for fixture in (
        "ids/list.html",
        "occlusion/modal.html",
        "occlusion/native-dialog.html",
        "occlusion/cookie-banner.html",
        "occlusion/pointer-events.html",
        "occlusion/sticky-header.html",
        "primitives/states.html",
        "primitives/regions.html",
    ):
        await page.goto(f"{fixtures_url}{fixture}")
        total.add(await check_page(page, fixture))
    assert total.checked >= 300
    assert not total.failures, total.failures
    # A lone link at the top of a shadow tree: `a` matches the document's links too, and
    # no CSS selector reaches into a shadow tree from its host (docs/ids.md).
    assert total.unnamed == ["in-shadow"]


# Real pages whose controls repeat: a search page's "Translate this page" links (German
# and Russian results), the same links in two menus or two footers, and a shadow tree.
FRESH_LOAD_PAGES = {
    "serp-googlescraper-page_number_selector-google_8": ("Diese Seite übersetzen", 2),
    "serp-googlescraper-page_number_selector-yandex_5": ("Перевод", 8),
    "dash-adminlte-index2": ("Login", 2),
    "formasaurus-integral-marketing.com-1": ("Facebook", 2),
    "wpt-accname-name-shadowdom-basic": ("foo", 1),
}


@pytest.mark.corpus
async def test_selectors_find_their_element_in_a_fresh_load(browser: pagelens.Browser, corpus_url: str) -> None:
    sweeps = {page_id: await sweep_page(browser, f"{corpus_url}{page_id}/page.html") for page_id in FRESH_LOAD_PAGES}
    checks = [check for sweep in sweeps.values() for check in sweep.controls]
    assert len(checks) >= 300
    assert not [c.selector for c in checks if c.selector is None or "data-llm-id" in c.selector]
    failures = [f"{c.role} {c.name!r} {c.selector!r}: {c.outcome()}" for c in checks if not c.same]
    assert not failures, failures
    # The repeated controls are there, each with a selector of its own.
    for page_id, (name, least) in FRESH_LOAD_PAGES.items():
        repeated = [c.selector for c in sweeps[page_id].controls if c.name == name]
        assert len(repeated) >= least and len(set(repeated)) == len(repeated), (page_id, repeated)
