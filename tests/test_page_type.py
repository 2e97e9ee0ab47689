"""Page-type classification: the corpus split by site as bench/page_types.py splits it (the
accuracy on it: test_corpus_sweep.py), and pages of our own for the cases the corpus
lacks (todo apps, a sign-in box beside the content, HTTP error statuses)."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

import pagelens
from bench.page_types import CHECKING, TUNING, labelled_pages, split
from pagelens.engine.models import PageType
from pagelens.errors import InvalidRequestError

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "shop.html"


@pytest.mark.corpus
def test_the_split_keeps_sites_whole_and_every_type_on_both_sides() -> None:
    pages = labelled_pages()
    halves = split(pages)
    side_of_site: dict[str, set[str]] = {}
    for page in pages:
        side_of_site.setdefault(page.site, set()).add(halves[page.id])
    assert all(len(sides) == 1 for sides in side_of_site.values())
    checking_types = {p.expected_type for p in pages if halves[p.id] == CHECKING}
    tuning_types = {p.expected_type for p in pages if halves[p.id] == TUNING}
    assert checking_types == set(get_args(PageType))
    # Every app page comes from one template: checked on it, tuned on our own pages.
    assert tuning_types == set(get_args(PageType)) - {"app"}


def test_the_rules_are_written_down() -> None:
    """classify.js documents its rules: every page type appears in the docstring."""
    from importlib import resources

    source = (resources.files("pagelens.engine") / "js" / "classify.js").read_text(encoding="utf-8")
    docstring = source[: source.index("*/")]
    for page_type in get_args(PageType):
        assert f" {page_type} " in docstring, page_type


# ---- apps


async def _add_todos(page: pagelens.Page, *titles: str) -> None:
    for title in titles:
        await page.playwright_page.fill(".new-todo", title)
        await page.playwright_page.press(".new-todo", "Enter")


@pytest.mark.parametrize("name", ["todo-vanilla.html", "todo-templates.html"])
async def test_a_todo_app_is_an_app_empty_and_in_use(page: pagelens.Page, fixtures_url: str, name: str) -> None:
    await page.goto(f"{fixtures_url}page_types/{name}")
    assert (await page.summary("compact")).type == "app"  # one field that only the script reads
    await _add_todos(page, "Water the plants", "Buy bread", "Call the plumber")
    summary = await page.summary("compact")
    assert summary.word_count > 10  # the items are on the page
    assert summary.type == "app"
    await page.playwright_page.check(".todo-list li:first-child .toggle", force=True)
    assert (await page.summary("compact")).type == "app"


async def test_a_saved_todo_list_without_its_script_is_an_app(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}page_types/todo-saved.html")
    assert (await page.summary("compact")).type == "app"


async def test_the_same_fields_in_a_form_with_a_submit_button_are_a_form(page: pagelens.Page) -> None:
    """What makes the todo pages apps: nothing submits their field, and their checkboxes
    are items of a list rather than answers in a form."""
    await page.set_content(
        "<title>Preferences</title><form><h1>Your topics</h1><input name=name placeholder='Your name'>"
        "<ul><li><label><input type=checkbox name=t value=a> Trains</label></li>"
        "<li><label><input type=checkbox name=t value=b> Boats</label></li>"
        "<li><label><input type=checkbox name=t value=c> Planes</label></li></ul>"
        "<button>Save</button></form>"
    )
    assert (await page.summary("compact")).type == "form"


# ---- a sign-in box that is not the page's content


async def test_the_bundled_shop_example_is_not_a_login_page(page: pagelens.Page) -> None:
    with pagelens.serve_directory(EXAMPLE.parent) as url:
        await page.goto(f"{url}{EXAMPLE.name}")
        summary = await page.summary("compact")
    # Two products with add-to-cart buttons: too few for a listing, so `generic`.
    assert summary.type == "generic"
    assert ["Email", "Password"] in [f.fields for f in summary.forms]  # the sign-in box is still listed


async def test_a_sign_in_form_as_the_content_is_login_even_beside_a_sidebar(page: pagelens.Page) -> None:
    await page.set_content(
        "<title>Sign in</title><aside><h2>Help</h2><a href=/help>Forgot your e-mail?</a></aside>"
        "<main><h1>Sign in</h1><form><input name=user aria-label=Email>"
        "<input type=password name=pw aria-label=Password><button>Sign in</button></form></main>"
    )
    assert (await page.summary("compact")).type == "login"


# ---- HTTP status


ONE_WORD = "<title></title><body>Nope</body>"


async def test_an_error_status_makes_a_bare_page_an_error_page(page: pagelens.Page) -> None:
    await page.set_content(ONE_WORD)
    assert (await page.summary("compact")).type == "generic"  # no status: nothing says error
    assert (await page.summary("compact", http_status=200)).type == "generic"
    for status in (404, 410, 500, 503):
        assert (await page.summary("compact", http_status=status)).type == "error_page", status
    assert (await page.summary("full", http_status=404)).type == "error_page"


async def test_an_error_status_gives_way_to_content_that_says_otherwise(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}summary/article.html")
    assert (await page.summary("compact", http_status=404)).type == "article"
    await page.goto(f"{fixtures_url}summary/login.html")
    assert (await page.summary("compact", http_status=401)).type == "login"


@pytest.mark.parametrize("status", [0, 99, 600, True, "404", 404.0])
async def test_a_bad_http_status_is_a_typed_error(page: pagelens.Page, status: object) -> None:
    await page.set_content(ONE_WORD)
    with pytest.raises(InvalidRequestError, match="http_status"):
        # Out of range or not an int at all: the runtime check is what is tested.
        await page.summary("compact", http_status=status)  # type: ignore[call-overload]
