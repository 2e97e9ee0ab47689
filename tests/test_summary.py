"""The compact and full page summaries on pages of our own: contact masking, CTA ranking,
forms and the main-content preview, in real Chromium (every corpus page's summary:
test_corpus_sweep.py)."""

from __future__ import annotations

import contextlib
import re

import pytest

import pagelens
from pagelens.errors import NavigationError
from pagelens.tokens import to_json

COMPACT_TOKEN_LIMIT = 400
TAG_RE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")  # an element name, custom elements included


# ---- fixtures


async def test_contact_details_are_masked_but_numbers_kept(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}summary/masking.html")
    compact, full = await page.summary("compact"), await page.summary("full")
    for preview in (compact.content_preview, full.main_content_preview):
        assert preview.count("[email]") == 2, preview
        assert preview.count("[phone]") == 4, preview
        for secret in ("jane.doe", "example.com", "123-4567", "987-6543", "7946", "1234567"):
            assert secret not in preview
        for kept in ("1984", "2024-01-15", "12,345", "1999-2003", "$1,299.00", "1 299 000", "2.4.1", "3.5%"):
            assert kept in preview, kept


ASCII_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")


async def test_word_count(page: pagelens.Page) -> None:
    """Words start at a letter or digit and run on through letters, digits, ' and -; a
    Han or kana character is a word of its own."""
    ascii_texts = ["rock'n'roll and e-mail -- 'quoted' words", "a - b -c d- 3.14 x_y", "it's 10-15 o'clock; ALL-CAPS"]
    other_texts = {"café au lait": 3, "日本語 text": 4, "naïve—ok": 2}
    paragraphs = "".join(f"<p>{text}</p>" for text in [*ascii_texts, *other_texts])
    await page.set_content(f"<!doctype html><title>t</title><body>{paragraphs}</body>")
    expected = sum(len(ASCII_WORD.findall(text)) for text in ascii_texts) + sum(other_texts.values())
    assert (await page.summary("compact")).word_count == expected == 26


async def test_primary_actions_ranking(page: pagelens.Page, fixtures_url: str) -> None:
    """Above the fold first; then submit > button > role=button > link; deduplicated by
    label (the "Start trial" link repeats the button); unlabeled controls left out."""
    await page.goto(f"{fixtures_url}summary/cta.html")
    summary = await page.summary("compact")
    labels = [(a.label, a.tag) for a in summary.primary_actions]
    assert labels == [
        ("Subscribe", "button"),
        ("Start trial", "button"),
        ("Compare plans", "span"),
        ("See pricing", "a"),
        ("Below the fold", "button"),
    ]
    for action in summary.primary_actions:
        handle = await _resolve(page, action.selector)
        assert handle is not None, action


async def test_a_sidebar_in_the_main_element_is_not_the_content(page: pagelens.Page, fixtures_url: str) -> None:
    """The content's buttons come before a sign-in box in the sidebar (though a submit
    outranks a button) and before a navigation's, even where <main> holds all three."""
    await page.goto(f"{fixtures_url}summary/sidebar.html")
    summary = await page.summary("compact")
    assert [a.label for a in summary.primary_actions] == ["Add to basket", "Compare", "Sign in", "Menu"]


async def _resolve(page: pagelens.Page, selector: str):
    if selector.startswith("text="):
        return await page.playwright_page.query_selector(f"text={selector[5:]!r}")
    return await page.playwright_page.query_selector(selector)


async def test_login_page_summary(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}summary/login.html")
    secret = "hunter2-Sekret!"
    await page.playwright_page.fill("#password", secret)
    await page.playwright_page.fill("#login", "ann@example.com")
    compact = await page.summary("compact")
    assert compact.type == "login"
    assert compact.headings == ["h1: Sign in to Example"]
    assert [f.fields for f in compact.forms] == [["Username or email address", "Password", "Keep me signed in"]]
    assert [a.label for a in compact.primary_actions][:2] == ["Sign in", "Show"]
    full = await page.summary("full")
    assert full.forms[0].action == f"{fixtures_url}session"
    assert full.forms[0].method == "post"
    for view in (compact, full):
        dumped = to_json(view)
        assert secret not in dumped
        assert "ann@example.com" not in dumped


async def test_article_preview_skips_chrome_and_separates_links(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}summary/article.html")
    compact = await page.summary("compact")
    assert compact.type == "article"
    assert compact.content_preview.startswith("After decades of decline, sleeper trains"), compact.content_preview
    assert "cookies" not in compact.content_preview
    full = await page.summary("full")
    assert "our series on rail travel." in full.main_content_preview
    assert {"Sign up", "Sign in"} <= {link.text for link in full.nav_links}
    assert "h2: Most read" in full.headings


@pytest.mark.corpus
@pytest.mark.parametrize(
    "page_id",
    [
        "login-loginform-github",
        "readability-bbc-1",
        "serp-sescraper-bing-page1",
        "dash-adminlte-index",
        "formasaurus-www.jpc.de-1",
        "list-hn-front-page",
    ],
)
async def test_full_summary_limits(page: pagelens.Page, corpus_url: str, page_id: str) -> None:
    url = f"{corpus_url}{page_id}/page.html"
    with contextlib.suppress(NavigationError):
        await page.goto(url, timeout=8)
    full = await page.summary("full", timeout=15)
    compact = await page.summary("compact", timeout=15)
    assert full.url == url
    assert full.type == compact.type
    assert full.title == compact.title
    assert len(full.headings) <= 30
    assert all(re.match(r"h[123]: \S", h) for h in full.headings)
    assert len(full.nav_links) <= 25 and all(link.text and link.href for link in full.nav_links)
    assert len(full.forms) <= 10 and all(0 < len(f.fields) <= 25 for f in full.forms)
    assert 0 < len(full.main_content_preview) <= 500
    assert full.main_content_preview.startswith(compact.content_preview[:100].rstrip("…"))
    assert full.interactive_element_count == compact.interactive_count > 0
    assert full.word_count == compact.word_count > 0
