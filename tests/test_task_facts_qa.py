"""Can an agent answer its task from the views? Realistic pages (a product page, a form
after a failed submit, an account page with a table, pagination and an accordion),
marked up as real sites mark them, read through the semantic view and the interaction
model: the facts a task needs must be there, right and unambiguous. Real Chromium, on
tests/fixtures/task_facts/."""

from __future__ import annotations

import pagelens
from pagelens.engine.models import SemanticNode, SemanticView


def node(view: SemanticView, name: str, index: int = 0) -> SemanticNode:
    return [n for n in view.interactive_tree if n.n == name][index]


def states(n: SemanticNode) -> list[str]:
    return (n.s or "").split(",")


async def open_fixture(page: pagelens.Page, fixtures_url: str, name: str) -> pagelens.Page:
    await page.goto(f"{fixtures_url}task_facts/{name}")
    return page


async def test_the_current_page_of_a_navigation_and_a_breadcrumb(page: pagelens.Page, fixtures_url: str) -> None:
    await open_fixture(page, fixtures_url, "shop.html")
    view = await page.semantic_tree()
    # "Women" twice: the main navigation's (aria-current=page) and the breadcrumb's (not).
    assert states(node(view, "Women", 0)) == ["current"]
    assert node(view, "Women", 1).s is None
    assert node(view, "Trail Runner 3").s == "current"
    assert [n.n for n in view.interactive_tree if "current" in states(n)] == ["Women", "Trail Runner 3"]
    model = await page.interaction_model()
    assert [c.name for c in model.controls if c.states.current] == ["Women", "Trail Runner 3"]


async def test_a_count_badge_on_an_icon_button_is_read(page: pagelens.Page, fixtures_url: str) -> None:
    await open_fixture(page, fixtures_url, "shop.html")
    view = await page.semantic_tree()
    # Named by aria-label, the link's name leaves the badge out; the view shows it beside.
    assert (node(view, "Cart").t, node(view, "Notifications").t) == ("3", "5")
    # A name that already says its number, or a control with no number, has no `t`.
    assert node(view, "Wishlist").t is None and node(view, "Add to cart").t is None
    model = await page.interaction_model()
    assert next(c for c in model.controls if c.name == "Cart").text == "3"


async def test_the_chosen_colour_and_size(page: pagelens.Page, fixtures_url: str) -> None:
    await open_fixture(page, fixtures_url, "shop.html")
    view = await page.semantic_tree()
    checked = [n.n for n in view.interactive_tree if "checked" in states(n)]
    assert checked == ["Red", "9"]
    assert node(view, "Green").s == "disabled" and node(view, "10").s == "disabled"
    # Values only when asked for (docs/privacy.md): the chosen width and the quantity.
    assert node(view, "Width").v is None and node(view, "Quantity").v is None
    valued = await page.semantic_tree(include_values=True)
    assert (node(valued, "Width").v, node(valued, "Quantity").v) == ("Wide", "2")


async def test_the_summary_keeps_words_apart_that_the_page_spaces(page: pagelens.Page, fixtures_url: str) -> None:
    await open_fixture(page, fixtures_url, "shop.html")
    full = await page.summary("full")
    # Two inline elements separated by a space in the markup: the old and the new price.
    assert "Was $120.00 Now $89.99" in full.main_content_preview


async def test_each_invalid_field_says_its_error(page: pagelens.Page, fixtures_url: str) -> None:
    await open_fixture(page, fixtures_url, "signup.html")
    view = await page.semantic_tree()
    email = node(view, "Email address")
    assert states(email) == ["required", "invalid"]
    # The error first, then the hint; contact details masked as in names.
    assert email.d == "Enter an email address in the correct format, like [email] We'll send a confirmation link."
    assert node(view, "Date of birth").d == "Date of birth must be in the past"  # aria-errormessage
    assert node(view, "I accept the terms").d == "You must accept the terms"
    # Styled invalid (`is-invalid`) with its message beside it, linked by nothing.
    postcode = node(view, "Postcode")
    assert states(postcode) == ["required", "invalid"] and postcode.d == "Enter a postcode"
    # A hint of a valid field; an error container kept referenced but hidden says nothing.
    assert node(view, "Phone (optional)").d == "For delivery updates only"
    assert node(view, "Last name").d is None and node(view, "Last name").s is None
    # Why a button is disabled; a red button is no invalid field.
    assert node(view, "Continue").d == "Fix the errors above to continue"
    assert node(view, "Delete draft").s is None
    # The wizard's current step.
    assert node(view, "Details").s == "current"
    model = await page.interaction_model()
    described = {c.name: c.description for c in model.controls if c.description}
    assert described["Postcode"] == "Enter a postcode"
    assert described["Email address"].startswith("Enter an email address")
    assert "Last name" not in described


async def test_an_error_shown_later_reaches_the_field(page: pagelens.Page, fixtures_url: str) -> None:
    await open_fixture(page, fixtures_url, "signup.html")
    await page.semantic_tree()
    await page.playwright_page.evaluate(
        """() => {
            document.querySelector('#lastname').setAttribute('aria-invalid', 'true');
            document.querySelector('#lastname-error').hidden = false;
            document.querySelector('.btn-danger').classList.add('btn-lg');
            document.querySelector('.btn-danger').className = 'btn btn-danger is-invalid';
        }"""
    )
    view = await page.semantic_tree()
    last = node(view, "Last name")
    assert states(last) == ["invalid"] and last.d == "Enter your last name"
    # The change log and the view agree: the field is invalid, a button never is.
    events = view.recentEvents or []
    assert any("textbox 'Last name' invalid" in line for line in events), events
    assert not any("Delete draft" in line and "invalid" in line for line in events), events
    assert node(view, "Delete draft").s is None


async def test_an_account_page_table_pagination_and_accordion(page: pagelens.Page, fixtures_url: str) -> None:
    await open_fixture(page, fixtures_url, "orders.html")
    view = await page.semantic_tree()
    assert node(view, "Orders").s == "current"
    assert node(view, "Page 1").s == "current" and node(view, "Page 2").s is None
    assert node(view, "Date").s == "descending" and node(view, "Order").s is None
    assert node(view, "Email notifications").s == "checked" and node(view, "SMS notifications").s is None
    assert node(view, "Inbox").t == "12"
    assert node(view, "Messages 2 unread").t is None  # the count is in the name already
    assert node(view, "How do I return an item?").s == "expanded"
    assert node(view, "When will I be refunded?").s == "collapsed"
    names = [n.n for n in view.interactive_tree]
    # A collapsed section's links are not presented; an expanded one's are.
    assert "Returns policy" in names and "Refund details" not in names and "Delivery info" not in names
    full = await page.summary("full")
    assert "within 30 days" in full.main_content_preview
    assert "5 business days" not in full.main_content_preview
    assert "3-5 days" not in full.main_content_preview
