"""Main content extraction: pagelens.extract on live pages and HTML strings,
its surfaces (analyze what="markdown", the MCP analyze tool, `pagelens extract`, the
extract-only summarize contract), and the F1 floor on a sample of the corpus
(bench/extract.py measures the whole corpus)."""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import pagelens
from bench.extract import bench_pages, score
from pagelens.actions import Session
from pagelens.budget.layouts import compact_json
from pagelens.extraction.consensus import Rules, choose
from pagelens.extraction.libraries import Readings, metadata
from pagelens.extraction.summarize import timeout_seconds
from pagelens.mcp.tools import TOOLS
from pagelens.tokens import count_tokens
from tests.cli_support import run_cli
from tests.mcp_harness import result_json

ARTICLE = Path(__file__).parent / "fixtures" / "extract" / "article.html"
LISTING = ARTICLE.with_name("listing.html")
# What the fixture shows besides its article: navigation, a cookie banner, an aside, a
# footer, and text hidden by a class and by the hidden attribute.
FURNITURE = (
    "Subscribe today",
    "Accept all cookies",
    "Storm warning",
    "All rights reserved",
    "Secret promotional text",
    "Hidden draft paragraph",
    "Sign me up",
    "reader@example.org",
)


@pytest.fixture
async def article(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    await page.goto(f"{fixtures_url}extract/article.html")
    return page


async def test_markdown_keeps_the_article_and_leaves_the_page_furniture(article: pagelens.Page) -> None:
    result = await pagelens.extract(article)
    markdown = result.content
    assert result.format == "markdown"
    assert "# Tidal power in the Severn estuary" in markdown
    assert "## Three designs compared" in markdown
    assert "- A ring of shoreline lagoons, each with its own turbine hall." in markdown
    assert f"[estuary research group]({article.url.rsplit('/', 2)[0]}/research/estuary-study.html)" in markdown
    assert "| Lagoons | 6.2 | 18 |" in markdown
    assert "```\npython -m estuary.model --design lagoons --year 2023\n```" in markdown
    for text in FURNITURE:
        assert text not in markdown
    # A closed <details> is content the reader can open.
    assert "intertidal area that would stay under water" in markdown
    # Source line breaks inside a paragraph are not the text's.
    assert "argued for a century about how" in markdown
    assert result.pruned.hidden >= 2 and result.pruned.landmark >= 3 and result.pruned.overlay >= 1


async def test_metadata(article: pagelens.Page) -> None:
    result = await pagelens.extract(article, format="text")
    assert result.url == article.url
    assert result.title == "Tidal power in the Severn estuary"
    assert result.byline == "Mara Quill"
    assert result.site_name == "The Coastal Review"
    assert result.published == "2024-03-14"
    assert result.language == "en-GB"
    assert result.strategy == "consensus"
    assert 250 <= result.word_count <= 330
    assert result.characters == len(result.content)
    assert not result.truncated
    assert "Lagoons\t6.2\t18" in result.content
    dumped = result.model_dump(mode="json")
    assert {"site_name", "word_count", "truncated", "strategy"} <= dumped.keys()


async def test_a_listing_the_libraries_cannot_read_is_the_page_as_the_reader_sees_it(
    page: pagelens.Page, fixtures_url: str
) -> None:
    """A grid of 24 product cards: each library takes one card for the story (7 of the
    page's 231 words). Next to none of the page is no reading of it: its readable text
    stands, every product in it, the navigation, sidebar and footer still left out."""
    await page.goto(f"{fixtures_url}extract/listing.html")
    live = await pagelens.extract(page)
    offline = await pagelens.extract(LISTING.read_text(encoding="utf-8"))
    for result in (live, offline):
        assert result.strategy == "page"
        assert result.site_name is None  # the page names none; 127.0.0.1:port is no site
        assert "# Best sellers in Kitchen" in result.content
        for product in ("Harbor cast-iron skillet, 26 cm", "Saltmarsh linen tea towels", "Cobble pasta maker"):
            assert product in result.content
        assert result.content.count("[€") == 24
        for chrome in ("Winter sale", "Filter by price", "All rights reserved"):
            assert chrome not in result.content


# Skip links as pages put them at the top of the body: a list of them, one in German, and
# one in Finnish (no phrase pagelens knows) hidden until focused; then one that is no
# skip link, further down the content.
SKIP_LINKS = """
  <style>
    .jump { position: absolute; left: -10000px; }
    .jump:focus { left: 0; }
  </style>
  <ul class="accessibility">
    <li><a href="#main">Skip to main content</a></li>
    <li><a href="#nav">Zur Navigation springen</a></li>
  </ul>
  <a class="jump" href="#main">Siirry sisältöön</a>
"""
SKIP_LINK_TEXTS = ("Skip to main content", "Zur Navigation springen", "Siirry sisältöön")
LATER_LINK = '<p><a href="#reviews">Jump to the reviews</a> of each of them.</p>'


def with_skip_links(fixture: Path, directory: Path) -> tuple[str, str]:
    """The fixture with a later in-page link in its content, without and with skip links
    at the top; the latter written into `directory`."""
    without = fixture.read_text(encoding="utf-8").replace("</h1>", "</h1>" + LATER_LINK, 1)
    html = without.replace("<body>", "<body>" + SKIP_LINKS, 1)
    (directory / fixture.name).write_text(html, encoding="utf-8")
    return without, html


@pytest.mark.parametrize(("fixture", "strategy"), [(LISTING, "page"), (ARTICLE, "consensus")])
async def test_skip_links_at_the_top_of_the_page_are_not_content(
    page: pagelens.Page, tmp_path: Path, fixture: Path, strategy: str
) -> None:
    """ "Skip to main content" and its kind are the page's navigation: left out whether a
    phrase or their being hidden until focused says what they are, the list holding
    them too; an in-page link with such words further down, in the content, stays."""
    without, html = with_skip_links(fixture, tmp_path)
    with pagelens.serve_directory(tmp_path) as base:
        await page.goto(base + fixture.name)
        live = await pagelens.extract(page)
    offline = await pagelens.extract(html, base_url="https://shop.example/list/")
    for result in (live, offline):
        assert result.strategy == strategy
        for text in SKIP_LINK_TEXTS:
            assert text not in result.content
        assert not result.content.startswith("-"), result.content[:200]  # no list left of them
        assert "[Jump to the reviews](" in result.content
    plain = await pagelens.extract(without, base_url="https://shop.example/list/")
    assert offline.content == plain.content
    assert offline.pruned.landmark == plain.pruned.landmark + len(SKIP_LINK_TEXTS)


def test_a_blurb_said_under_every_result_is_not_more_of_the_page_read() -> None:
    """A result page where trafilatura, the library read, takes the sponsor's blurb
    under five results for the content: 60 words of the page's 1,000, said once 12, so
    next to none of it, and the page stands."""
    blurb = "Shop products from small and medium business brands sold in our store."
    results = "".join(
        f"<li><h2>Result {i}</h2><p>Cast iron pan number {i}, pre-seasoned, oven safe, with a helper handle.</p>"
        f"<p>{blurb}</p></li>"
        for i in range(40)
    )
    readings = Readings(f"<html><body><ul>{results}</ul></body></html>", "https://shop.example/s?k=pans")
    # What each library read, as given: readability-lxml found nothing, so trafilatura's stands.
    taken = f"<p>{blurb}</p>" * 5
    readings.__dict__.update(article="", second_opinion=f"{blurb}\n" * 5, trafilatura_article=taken)
    choice = choose(readings)
    assert choice.strategy == "page"
    assert choice.html.count("Cast iron pan number") == 40
    # Said once, the same 60 words would be a twentieth of the page: what trafilatura read.
    assert choose(readings, Rules(repeat_words=100)).strategy == "trafilatura"


def test_published_is_a_date_the_page_gives_never_a_year_alone() -> None:
    def page(body: str, head: str = "") -> str:
        return f"<html><head><title>T</title>{head}</head><body>{body}<footer>© 2019 Northwind</footer></body></html>"

    text = "<p>Kettles and their makers, compared once more by our editors.</p>"
    declared = page(text, '<meta property="article:published_time" content="2024-03-14T08:00:00Z">')
    assert metadata(declared, "https://news.example/a").published == "2024-03-14"
    stated = page(f"<p>Posted on March 3, 2021</p>{text}")
    assert metadata(stated, "https://news.example/a").published == "2021-03-03"
    # A sign-in page: the copyright line's year is no publication date.
    assert metadata(page("<form><input name=email></form>"), "https://shop.example/login").published is None


async def test_max_characters_cuts_at_a_paragraph_and_says_so(article: pagelens.Page) -> None:
    whole = await pagelens.extract(article, format="text")
    cut = await pagelens.extract(article, format="text", max_characters=600)
    assert cut.truncated
    assert len(cut.content) <= 600
    assert whole.content.startswith(cut.content)
    assert whole.content[len(cut.content) : len(cut.content) + 2] == "\n\n"
    assert cut.word_count == whole.word_count  # the page's, not the cut's
    html = await pagelens.extract(article, format="html", max_characters=300)
    assert html.truncated and len(html.content) <= 300 and html.content.endswith(">")
    for size in range(200, 700, 37):  # wherever the limit falls, the cut ends an element: none begun
        cut = await pagelens.extract(article, format="html", max_characters=size)
        assert re.search(r"</[a-z0-9]+>$", cut.content), (size, cut.content[-40:])


async def test_an_html_string_is_read_offline_against_its_base_url(browser: pagelens.Browser) -> None:
    html = ARTICLE.read_text(encoding="utf-8")
    result = await pagelens.extract(html, base_url="https://coastal.example/energy/", browser=browser, format="html")
    assert result.url == "https://coastal.example/energy/"
    assert 'href="https://coastal.example/research/estuary-study.html"' in result.content
    assert "<table>" in result.content and "<h2>" in result.content
    for text in FURNITURE:
        assert text not in result.content


@pytest.mark.parametrize(
    ("source", "options", "wrong"),
    [
        (42, {}, "Page or an HTML string"),
        ("<p>x</p>", {"format": "pdf"}, "format"),
        ("<p>x</p>", {"max_characters": 0}, "max_characters"),
        ("<p>x</p>", {"max_characters": True}, "max_characters"),
        ("<p>x</p>", {"timeout": -1}, "timeout"),
        ("<p>x</p>", {"base_url": "file:///etc/passwd"}, "base_url"),
    ],
)
async def test_bad_input_is_a_typed_error_before_any_browser_work(source: object, options: dict, wrong: str) -> None:
    with pytest.raises(pagelens.InvalidRequestError) as caught:
        await pagelens.extract(source, **options)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_request"
    assert wrong in caught.value.message


async def test_a_page_is_read_as_loaded_from_its_base_url(article: pagelens.Page) -> None:
    """A saved copy served from disk, read as its original address: links resolve there,
    not on the throwaway server's port; for that read only."""
    read_as = await pagelens.extract(article, base_url="https://coastal.example/energy/", format="html")
    assert read_as.url == "https://coastal.example/energy/"
    assert 'href="https://coastal.example/research/estuary-study.html"' in read_as.content
    assert "127.0.0.1" not in read_as.content
    again = await pagelens.extract(article, format="html")
    assert again.url == article.url and 'href="http://127.0.0.1:' in again.content
    with pytest.raises(pagelens.InvalidRequestError, match="base_url"):
        await pagelens.extract(article, base_url="file:///etc/passwd")


async def test_summarize_extract_only_follows_the_003_contract(browser: pagelens.Browser, fixtures_url: str) -> None:
    request = {
        "url": f"{fixtures_url}extract/article.html",
        "extractOnly": True,
        "format": "markdown",
        "maxCharacters": 500,
        "timeout": "30s",
    }
    result = await pagelens.summarize(request, browser)
    assert result.output.startswith("# Tidal power in the Severn estuary")
    assert len(result.output) <= 500
    details = result.details
    assert details["content"] == result.output
    assert details["title"] == "Tidal power in the Severn estuary"
    assert details["siteName"] == "The Coastal Review"
    assert details["truncated"] is True and details["wordCount"] > 200
    assert details["markdownMode"] == "readability"


async def test_summarize_without_extract_only_needs_a_model(browser: pagelens.Browser) -> None:
    with pytest.raises(pagelens.PagelensError) as caught:
        await pagelens.summarize({"url": "http://127.0.0.1:9/", "model": "openai/gpt-5-mini"}, browser)
    assert caught.value.code == "summary_unavailable"
    with pytest.raises(pagelens.InvalidRequestError, match="extractonly"):
        await pagelens.summarize({"url": "http://127.0.0.1:9/", "extractonly": True}, browser)


def test_summarize_timeouts_are_durations() -> None:
    assert timeout_seconds("2m") == 120
    assert timeout_seconds("90s") == 90
    assert timeout_seconds(15) == 15
    with pytest.raises(pagelens.InvalidRequestError, match="timeout"):
        timeout_seconds("soon")


# ---- analyze and the MCP analyze tool


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[Session]:
    async with await Session.start(allowed_hosts=["127.0.0.1"]) as session:
        yield session


async def test_analyze_markdown_and_the_mcp_tool(session: Session, fixtures_url: str) -> None:
    await session.interact({"action": "navigate", "url": f"{fixtures_url}extract/article.html", "summary": False})
    result = await session.analyze({"what": "markdown"})
    data = result.data
    assert data["title"] == "Tidal power in the Severn estuary"
    assert "## Three designs compared" in data["markdown"]
    assert "Accept all cookies" not in data["markdown"]
    assert {"byline", "site_name", "word_count", "strategy"} <= data.keys()

    spec = TOOLS["analyze"]
    assert "markdown" in spec.definition().input_schema["properties"]["what"]["enum"]
    call = await spec.run(session, spec.parse({"what": "markdown"}))
    assert not call.is_error
    payload = result_json(call)
    assert payload["markdown"] == data["markdown"]


async def test_analyze_markdown_keeps_to_max_tokens_and_the_query(session: Session, fixtures_url: str) -> None:
    await session.interact({"action": "navigate", "url": f"{fixtures_url}extract/article.html", "summary": False})
    whole = (await session.analyze({"what": "markdown"})).data["markdown"]
    data = (await session.analyze({"what": "markdown", "max_tokens": 250, "query": "reproducing the model"})).data
    assert data["dom_filtered"] is True and data["query"] == "reproducing the model"
    assert "## Reproducing the model" in data["markdown"] and len(data["markdown"]) < len(whole)
    assert count_tokens(compact_json(data)) <= 250


# ---- the command line


def test_cli_prints_markdown_and_json(tmp_path: Path) -> None:
    result = run_cli("extract", str(ARTICLE), "--format", "markdown", "--base-url", "https://coastal.example/energy/")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# Tidal power in the Severn estuary")
    assert "Accept all cookies" not in result.stdout
    # The saved copy read as its original address: no link to the port it was served on.
    assert "(https://coastal.example/research/estuary-study.html)" in result.stdout

    out = tmp_path / "article.json"
    result = run_cli("extract", str(ARTICLE), "--json", "-f", "text", "--max-characters", "400", "-o", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "text" and data["truncated"] is True and len(data["content"]) <= 400
    assert data["byline"] == "Mara Quill"


def test_cli_errors_are_one_line_with_a_code() -> None:
    result = run_cli("extract", "no-such-file.html")
    assert result.returncode == 1
    assert "[file_not_found]" in result.stderr
    result = run_cli("extract", str(ARTICLE), "--max-characters", "0")
    assert result.returncode == 1
    assert "[invalid_request]" in result.stderr


# ---- the corpus


@pytest.mark.corpus
async def test_f1_floor_on_a_sample_of_the_corpus(browser: pagelens.Browser) -> None:
    """Every fifteenth readability and aeb page (the whole corpus is bench/extract.py's)."""
    pages = bench_pages(None)
    sample = [page for source in ("readability", "aeb") for page in pages if page.source == source][::15]
    f1 = []
    for page in sample:
        result = await pagelens.extract(page.html(), base_url=page.url, browser=browser, format="text")
        page_score = score(result.content, page.gold)
        assert not page_score.empty, page.id
        f1.append(page_score.f1)
    assert len(sample) >= 12
    assert statistics.mean(f1) >= 0.96, dict(zip((p.id for p in sample), f1, strict=True))
