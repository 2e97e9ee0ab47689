"""Controls that share a name: "View" on every order, "Add to cart" on every card,
"Edit" on every setting. The semantic view's `c` and the interaction model's `context`
name the item each belongs to, so that an agent can pick one from the flat list alone;
controls with a name of their own carry none (docs/views.md#semantic). Real Chromium, on
tests/fixtures/repeated/."""

from __future__ import annotations

from collections import defaultdict

import pagelens
from pagelens.budget import FitRequest, fit_view
from pagelens.engine.models import SemanticView


async def open_fixture(page: pagelens.Page, fixtures_url: str, name: str) -> SemanticView:
    await page.goto(f"{fixtures_url}repeated/{name}")
    return await page.semantic_tree(include_offscreen=True)


def contexts(view: SemanticView, name: str) -> list[str | None]:
    return [n.c for n in view.interactive_tree if n.n == name]


def assert_told_apart_by_c_alone(view: SemanticView) -> None:
    """Every control whose name another bears has a `c`, and no two look-alikes share
    one; every other control has none."""
    groups: dict[str, list[str | None]] = defaultdict(list)
    for n in view.interactive_tree:
        groups[n.n.casefold()].append(n.c)
    for name, cs in groups.items():
        if len(cs) == 1:
            assert cs == [None], name
        else:
            assert None not in cs and len(set(cs)) == len(cs), (name, cs)


async def test_an_orders_table_names_each_row_by_its_header_cell(page: pagelens.Page, fixtures_url: str) -> None:
    view = await open_fixture(page, fixtures_url, "orders.html")
    # The row header (#1042), not the first cell (a date two orders share); an ARIA grid
    # without header cells by its first cell with text (a checkbox cell has none).
    assert contexts(view, "View") == ["#1041", "#1042", "#1043", "RMA-77 (blue mug)", "RMA-78 (teapot)"]
    assert contexts(view, "Cancel") == ["#1041", "#1042", "#1043"]
    assert contexts(view, "Select") == ["RMA-77 (blue mug)", "RMA-78 (teapot)"]
    assert contexts(view, "Export all orders") == [None]
    assert_told_apart_by_c_alone(view)
    model = await page.interaction_model()
    assert [c.context for c in model.controls if c.name == "View"] == contexts(view, "View")
    assert next(c for c in model.controls if c.name == "Shop").context is None


async def test_a_product_grid_names_each_card_by_its_heading(page: pagelens.Page, fixtures_url: str) -> None:
    view = await open_fixture(page, fixtures_url, "products.html")
    # A grid of four cards, then two tiles side by side (the same tag and class): items too.
    assert contexts(view, "Add to cart") == [
        "Blue mug",
        "Red mug",
        "Cast iron teapot",
        "Bamboo whisk",
        "Milk frother",
        "Oat milk, 1 l",
    ]
    assert contexts(view, "Add to wishlist") == ["Blue mug", "Red mug", "Cast iron teapot", "Bamboo whisk"]
    assert_told_apart_by_c_alone(view)


async def test_search_results_name_their_secondary_links_by_the_result(page: pagelens.Page, fixtures_url: str) -> None:
    view = await open_fixture(page, fixtures_url, "search.html")
    titles = ["How to care for a ceramic mug", "Removing tea stains from mugs", "Are mugs dishwasher safe?"]
    assert contexts(view, "Cached") == titles and contexts(view, "Similar") == titles
    # The search box and its button share "Search" in one form: nothing around them
    # differs (their roles do), so neither carries a context.
    assert contexts(view, "Search") == [None, None]
    assert [n.c for n in view.interactive_tree if n.n in titles] == [None, None, None]


async def test_a_settings_list_names_each_item_without_reading_its_fields(
    page: pagelens.Page, fixtures_url: str
) -> None:
    await page.goto(f"{fixtures_url}repeated/settings.html")
    await page.playwright_page.fill("textarea", "my private diary")
    view = await page.semantic_tree()
    # An item's opening words, less its fields (a shown name, a card number, what was
    # typed into the bio), its contact details masked as names are.
    assert contexts(view, "Edit") == ["Display name", "Backup e-mail [email]", "Card number", "Profile bio"]
    assert contexts(view, "Remove") == ["Calendar sync", "Photo backup"]
    assert contexts(view, "Save changes") == [None]
    unmasked = await page.semantic_tree(mask_contact_details=False)
    assert contexts(unmasked, "Edit")[1] == "Backup e-mail jane.public@example.com"
    model = await page.interaction_model({"includeValues": True})
    said = " ".join(c.context or "" for c in model.controls)
    assert not any(secret in said for secret in ("Jane Q", "4111", "diary", "I like tea"))


async def test_global_chrome_is_told_apart_by_its_landmark(page: pagelens.Page, fixtures_url: str) -> None:
    """Two "Search" buttons, in the header and the footer, each in a search form: the
    nearest landmark (search) is the same, the next one out is not."""
    view = await open_fixture(page, fixtures_url, "chrome.html")
    assert contexts(view, "Search") == ["banner", "contentinfo"]
    assert_told_apart_by_c_alone(view)


async def test_a_context_look_alikes_share_is_replaced_or_left_out(page: pagelens.Page, fixtures_url: str) -> None:
    view = await open_fixture(page, fixtures_url, "ambiguous.html")
    # Two invoices of one date move on to their next cell; the third keeps its date.
    assert contexts(view, "Download") == ["INV-2001", "INV-2002", "2024-05-03"]
    # Two drafts alike in every word: a context would not tell them apart.
    assert contexts(view, "Delete") == [None, None]


async def test_only_the_controls_the_view_lists_count_as_look_alikes(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}repeated/offscreen.html")
    # The second "Details" is below the fold: the view lists one, which needs no context.
    assert contexts(await page.semantic_tree(), "Details") == [None]
    everything = await page.semantic_tree(include_offscreen=True)
    assert contexts(everything, "Details") == ["Basic plan", "Team plan"]


async def test_contexts_are_left_out_once_the_capture_is_overdue(page: pagelens.Page, fixtures_url: str) -> None:
    """Contexts are optional work: on a CPU four times slower, with a budget that the
    listing of 5,000 "View" links outlives, the view lists them without naming every row
    rather than overrunning its time (docs/views.md, "Huge pages")."""
    rows = "".join(f'<tr><th>#{i}</th><td><a href="/o/{i}">View</a></td></tr>' for i in range(5_000))
    await page.set_content(f"<!doctype html><title>Rows</title><table>{rows}</table>")
    cdp = await page.playwright_page.context.new_cdp_session(page.playwright_page)
    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    world = await page.main_world()
    captured = await world.call("capture", "semantic", {"timeoutMs": 250, "includeOffscreen": True}, timeout=30)
    assert captured["stats"]["partial"]
    tree = captured["view"]["interactive_tree"]
    assert tree and sum(1 for n in tree if "c" in n) < len(tree)


async def test_a_query_finds_a_look_alike_by_its_context(page: pagelens.Page, fixtures_url: str) -> None:
    """An agent asking for "order 1042" over MCP gets that row's controls: the budget's
    filter reads `c` / `context` as it reads names."""
    view = await open_fixture(page, fixtures_url, "orders.html")
    semantic = fit_view("semantic", view.model_dump(exclude_none=True), FitRequest(query="#1042"))
    assert [(n["n"], n["c"]) for n in semantic["interactive_tree"]] == [("View", "#1042"), ("Cancel", "#1042")]
    model = (await page.interaction_model()).model_dump(exclude_none=True)
    ranked = fit_view("interaction", model, FitRequest(query="open order #1042"))
    assert ranked["controls"][0]["name"] == "View" and ranked["controls"][0]["context"] == "#1042"
