"""Section headings in the extracted Markdown: they are the document's structure for its
reader. The pages are in tests/fixtures/extraction_headings, marked up as those sites
mark them up (a WordPress recipe card, a how-to with its steps in "step-header"
wrappers, an MkDocs page)."""

from __future__ import annotations

import pagelens
from pagelens.extraction.consensus import choose
from pagelens.extraction.libraries import Readings
from pagelens.extraction.render import render

BASE = "https://example.org/post/"


async def _extract(page: pagelens.Page, fixtures_url: str, name: str) -> pagelens.Extraction:
    await page.goto(f"{fixtures_url}extraction_headings/{name}")
    return await pagelens.extract(page)


def _headings(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("#")]


async def test_a_recipe_card_keeps_its_ingredients_and_instructions_headings(
    page: pagelens.Page, fixtures_url: str
) -> None:
    result = await _extract(page, fixtures_url, "recipe.html")
    markdown = result.content
    # readability-lxml drops a heading whose class says "header" (wprm-recipe-header).
    assert "### Ingredients\n\n- 1 cup whole-milk ricotta" in markdown
    assert "### Instructions\n\n1. Whisk the ricotta" in markdown
    # The page's furniture headings, over sections that are not content, stay out; the
    # <h1> above the story is the result's title.
    assert _headings(markdown) == ["## Lemon Ricotta Pancakes", "### Ingredients", "### Instructions"]
    assert result.title == "Lemon Ricotta Pancakes"


async def test_a_how_to_keeps_its_step_headings_and_leaves_related_and_share(
    page: pagelens.Page, fixtures_url: str
) -> None:
    markdown = (await _extract(page, fixtures_url, "howto.html")).content
    assert _headings(markdown) == [
        "## What you need",
        "## Step 1: Check the wear",
        "## Step 2: Remove the old chain",
        "## Step 3: Size the new chain",
        "## Step 4: Join the chain",
        "## Tips",
    ]
    assert "## Step 2: Remove the old chain\n\nShift onto the smallest sprocket" in markdown


async def test_a_docs_page_keeps_its_sections_once(page: pagelens.Page, fixtures_url: str) -> None:
    markdown = (await _extract(page, fixtures_url, "docs_page.html")).content
    # The page's headings carry a "¶" permalink that readability-lxml leaves out: they
    # are the article's own, not ones to put back.
    assert _headings(markdown) == [
        "# Caching",
        "## Configuration",
        "### Cache directory",
        "### Expiry",
        "## Clearing the cache",
    ]


def test_a_heading_trafilatura_left_out_stays_over_a_section_that_stays() -> None:
    """What each library read, as given: trafilatura's text has the story alone."""
    story = "The board agreed to extend the pier by forty metres before the summer season."
    more = "The county pays two thirds of the cost and the town pays the rest from its harbour fund."
    page = (
        "<h4>Pier to grow</h4><h5>2/26/2015 BY STAFF</h5><p>EXCLUSIVE</p>"
        f"<p>{story}</p><h3>Costs</h3><p>{more}</p><h2>Related articles</h2><p>Ferry fares rise</p><p>Beach closed</p>"
    )
    readings = Readings(f"<html><body><article>{page}</article></body></html>", BASE)
    readings.__dict__.update(article=page, second_opinion=f"{story}\n{more}")
    markdown = render(choose(readings).html, "markdown")
    # A short page's title and byline headings over the story (a label between them),
    # and a section's title; not furniture whose section went.
    assert _headings(markdown) == ["#### Pier to grow", "##### 2/26/2015 BY STAFF", "### Costs"]
