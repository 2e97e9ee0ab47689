"""The compact and full page summaries: schema limits and
the token budget on every corpus page, contact masking, CTA ranking, forms and the
main-content preview, in real Chromium.

The corpus sweep (one tab, every page once) is shared with test_page_type.py."""

from __future__ import annotations

import contextlib
import re
import statistics
from dataclasses import dataclass

import pytest

import pagelens
from bench.corpus import CorpusPage, answer_https_from_disk, corpus_pages
from pagelens.errors import NavigationError
from pagelens.tokens import count_tokens, to_json

COMPACT_TOKEN_LIMIT = 400
TAG_RE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")  # an element name, custom elements included


@dataclass
class CorpusSummary:
    page: CorpusPage
    compact: pagelens.CompactSummary
    tokens: int


_SWEEP: dict[str, CorpusSummary] = {}


async def corpus_summaries(browser: pagelens.Browser, corpus_url: str) -> dict[str, CorpusSummary]:
    """The compact summary of every corpus page, computed once per test session."""
    if _SWEEP:
        return _SWEEP
    await answer_https_from_disk(browser.context, corpus_url)
    tab = await browser.new_page()
    try:
        for page in corpus_pages():
            # A few saved pages never fire `load`; their DOM is there all the same.
            with contextlib.suppress(NavigationError):
                await tab.goto(page.path(corpus_url), timeout=8)
            # A generous limit: the sweep shares the machine with other work; speed is
            # not what these tests measure.
            compact = await tab.summary("compact", timeout=15)
            _SWEEP[page.id] = CorpusSummary(page, compact, count_tokens(to_json(compact)))
    finally:
        await tab.close()
    return _SWEEP


# ---- every corpus page


@pytest.mark.corpus
async def test_compact_summary_limits_on_every_corpus_page(browser: pagelens.Browser, corpus_url: str) -> None:
    sweep = await corpus_summaries(browser, corpus_url)
    assert len(sweep) == len(corpus_pages())
    problems = []
    for page_id, result in sweep.items():
        s = result.compact
        checks = {
            "tokens": result.tokens <= COMPACT_TOKEN_LIMIT,
            "title": len(s.title) <= 120,
            "headings": len(s.headings) <= 3 and all(h.startswith("h1: ") and len(h) > 4 for h in s.headings),
            "actions": len(s.primary_actions) <= 5
            and all(0 < len(a.label) <= 40 and a.selector and TAG_RE.fullmatch(a.tag) for a in s.primary_actions),
            "action labels unique": len({a.label.lower() for a in s.primary_actions}) == len(s.primary_actions),
            "forms": len(s.forms) <= 3 and all(0 < len(f.fields) <= 5 for f in s.forms),
            "preview": len(s.content_preview) <= 300,
            "counts": s.interactive_count >= 0 and s.word_count >= 0,
        }
        problems += [f"{page_id}: {name}" for name, ok in checks.items() if not ok]
    tokens = [r.tokens for r in sweep.values()]
    print(f"\ncompact tokens over {len(tokens)} pages: max {max(tokens)}, median {statistics.median(tokens)}")
    assert not problems, problems[:20]


@pytest.mark.corpus
async def test_previews_of_articles_start_in_the_article(browser: pagelens.Browser, corpus_url: str) -> None:
    """The preview is main content: its opening words appear in the gold article text the
    corpus ships for Readability (expected.html) and benchmark (ground-truth.json) pages."""
    sweep = await corpus_summaries(browser, corpus_url)
    checked, misses = 0, []
    for page_id, result in sweep.items():
        gold = _gold_article_text(result.page)
        preview = result.compact.content_preview
        if not gold or len(preview) < 40:
            continue
        checked += 1
        opening = " ".join(_words(preview)[3:9])  # past a possible headline or dateline
        if opening not in " ".join(_words(gold)):
            misses.append(page_id)
    print(f"\npreview starts in the article on {checked - len(misses)}/{checked} pages")
    assert checked > 150
    assert len(misses) <= 0.15 * checked, misses


def _gold_article_text(page: CorpusPage) -> str:
    if (page.dir / "ground-truth.json").exists():
        return page.ground_truth("ground-truth.json").get("articleBody") or ""
    if (page.dir / "expected.html").exists():
        html = (page.dir / "expected.html").read_text(encoding="utf-8")
        return re.sub(r"<[^>]+>", " ", html)
    return ""


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


# ---- fixtures


async def test_contact_details_are_masked_but_numbers_kept(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}summary/masking.html")
    for mode in ("compact", "full"):
        summary = await page.summary(mode)
        preview = summary.content_preview if mode == "compact" else summary.main_content_preview
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
