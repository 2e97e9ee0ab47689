"""The default skills' libraries run in a real Chromium, on pages with the markup of the
sites they are for (cut down to what the helpers read), loaded as the repl loads them:
each library a script of its own whose top-level functions become globals."""

from __future__ import annotations

from typing import Any

import pytest

import pagelens
from pagelens.agent.skills import default_skills

LIBRARIES = {skill.name: skill.library for skill in default_skills()}

HACKER_NEWS = """
<table>
<tr class="athing submission" id="101"><td class="title"><span class="rank">1.</span></td>
  <td class="title"><span class="titleline"><a href="https://example.com/a">Show HN: A thing</a>
  <span class="sitebit comhead"> (<a href="from?site=example.com"><span class="sitestr">example.com</span></a>)</span>
  </span></td></tr>
<tr><td colspan="2"></td><td class="subtext"><span class="subline">
  <span class="score" id="score_101">128 points</span> by <a href="user?id=ann" class="hnuser">ann</a>
  <span class="age" title="2026-11-20T10:00:00 1795000000"><a href="item?id=101">3 hours ago</a></span> |
  <a href="item?id=101">42&nbsp;comments</a></span></td></tr>
<tr class="athing submission" id="102"><td class="title"><span class="rank">2.</span></td>
  <td class="title"><span class="titleline"><a href="item?id=102">Ask HN: Anything?</a></span></td></tr>
<tr><td colspan="2"></td><td class="subtext"><span class="subline">
  <span class="score" id="score_102">5 points</span> by <a class="hnuser">bob</a>
  <span class="age" title="2026-11-20T11:00:00 1795003600"><a href="item?id=102">1 hour ago</a></span> |
  <a href="item?id=102">discuss</a></span></td></tr>
<tr class="athing comtr" id="201"><td><table><tr><td class="ind" indent="0"></td><td class="default">
  <span class="comhead"><a class="hnuser">cat</a> <span class="age" title="2026-11-20T12:00:00 1"></span>
  <span class="navs"></span></span>
  <div class="comment"><div class="commtext c00">First <i>comment</i>.<p>Second paragraph.</p></div></div>
  </td></tr></table></td></tr>
<tr class="athing comtr" id="202"><td><table><tr><td class="ind" indent="1"></td><td class="default">
  <span class="comhead"><a class="hnuser">dan</a> <span class="navs"> | <a href="#201">parent</a></span></span>
  <div class="comment"><div class="commtext c00">A reply.</div></div></td></tr></table></td></tr>
</table>
<a href="?p=2" class="morelink" rel="next">More</a>
"""

WIKIPEDIA = """
<link rel="canonical" href="https://en.wikipedia.org/wiki/Lisbon">
<h1 id="firstHeading"><span class="mw-page-title-main">Lisbon</span></h1>
<div id="mw-content-text"><div class="mw-parser-output">
  <table class="infobox"><tr><th colspan="2">Lisbon</th></tr>
    <tr><th class="infobox-label">Country</th>
      <td class="infobox-data">Portugal<sup class="reference">[1]</sup></td></tr>
    <tr><th class="infobox-label">Population</th><td class="infobox-data">545,796</td></tr></table>
  <p class="mw-empty-elt"></p>
  <p><b>Lisbon</b> is the capital<sup class="reference"><a href="#cite_note-1">[1]</a></sup> of Portugal.</p>
  <p>It lies on the Tagus.</p>
  <div class="mw-heading mw-heading2"><h2 id="History">History</h2>
    <span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a>edit</a>]</span></div>
  <p>Founded long ago.</p>
  <div class="mw-heading mw-heading3"><h3 id="Middle_Ages">Middle Ages</h3></div>
  <p>Moors, then Portugal.</p>
  <div class="mw-heading mw-heading2"><h2 id="Climate">Climate</h2></div>
  <p>Mild.</p>
  <table class="wikitable"><caption>Climate data</caption>
    <tr><th>Month</th><th>High</th></tr><tr><td>Jan</td><td>15</td></tr></table>
</div></div>
"""

STACK_OVERFLOW = """
<div id="question-header"><h1><a href="#">How do I exit Vim?</a></h1></div>
<div id="question" class="question js-question" data-questionid="11828270" data-score="5000">
  <div class="s-prose js-post-body"><p>I am stuck.</p><pre><code>:help</code></pre></div>
  <div class="post-taglist"><a class="post-tag">vim</a><a class="post-tag">editor</a></div>
</div>
<div id="answers">
  <div id="answer-1" class="answer js-answer" data-answerid="1" data-score="10">
    <div class="s-prose js-post-body"><p>Unplug the computer.</p></div>
    <div class="post-signature"><div class="user-details"><a href="/users/1">joker</a></div></div></div>
  <div id="answer-2" class="answer js-answer accepted-answer" data-answerid="2" data-score="7">
    <div class="s-prose js-post-body"><p>Type:</p><pre><code>:q!</code></pre></div>
    <div class="post-signature"><div class="user-details"><a href="/users/2">ed</a></div></div></div>
</div>
<div class="post-taglist"><a class="post-tag">vim</a></div>
"""

GITHUB = """
<article class="markdown-body entry-content"><h1>cpython</h1><p>The Python programming language.</p></article>
"""


@pytest.fixture
async def site(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    await page.goto(f"{fixtures_url}agent/target.html")
    return page


async def run(page: pagelens.Page, html: str, skill: str, expression: str) -> Any:
    await page.playwright_page.set_content(html)
    await page.playwright_page.add_script_tag(content=LIBRARIES[skill])
    return await page.playwright_page.evaluate(expression)


async def test_hacker_news_stories_comments_and_next_page(site: pagelens.Page) -> None:
    stories, comments, more = await run(site, HACKER_NEWS, "hacker-news", "[hnStories(), hnComments(), hnNextPage()]")
    base = site.url.split("?")[0]
    assert stories == [
        {
            "id": "101",
            "rank": 1,
            "title": "Show HN: A thing",
            "url": "https://example.com/a",
            "site": "example.com",
            "points": 128,
            "user": "ann",
            "age": "2026-11-20T10:00:00",
            "comments": 42,
            "item": "https://news.ycombinator.com/item?id=101",
        },
        {
            "id": "102",
            "rank": 2,
            "title": "Ask HN: Anything?",
            "url": base.rsplit("/", 1)[0] + "/item?id=102",
            "site": None,
            "points": 5,
            "user": "bob",
            "age": "2026-11-20T11:00:00",
            "comments": 0,
            "item": "https://news.ycombinator.com/item?id=102",
        },
    ]
    assert [(c["id"], c["depth"], c["user"], c["parent"]) for c in comments] == [
        ("201", 0, "cat", None),
        ("202", 1, "dan", "201"),
    ]
    assert comments[0]["text"].startswith("First comment.") and "Second paragraph." in comments[0]["text"]
    assert more == base + "?p=2"


async def test_wikipedia_article_sections_infobox_and_tables(site: pagelens.Page) -> None:
    article, history, infobox, tables = await run(
        site, WIKIPEDIA, "wikipedia", "[wikiArticle(), wikiSection('history'), wikiInfobox(), wikiTables()]"
    )
    assert article["title"] == "Lisbon" and article["url"] == "https://en.wikipedia.org/wiki/Lisbon"
    assert article["lead"] == "Lisbon is the capital of Portugal.\n\nIt lies on the Tagus."
    assert [(s["level"], s["title"], s["anchor"]) for s in article["sections"]] == [
        (2, "History", "History"),
        (3, "Middle Ages", "Middle_Ages"),
        (2, "Climate", "Climate"),
    ]
    assert history == "Founded long ago.\n\nMoors, then Portugal."
    assert infobox == {"Country": "Portugal", "Population": "545,796"}
    assert tables == [{"caption": "Climate data", "rows": [["Month", "High"], ["Jan", "15"]]}]


async def test_stack_overflow_question_with_answers(site: pagelens.Page) -> None:
    question = await run(site, STACK_OVERFLOW, "stack-overflow", "soQuestion()")
    assert (question["title"], question["tags"], question["score"]) == ("How do I exit Vim?", ["vim", "editor"], 5000)
    assert question["text"] == "I am stuck.\n\n```\n:help\n```"
    assert [(a["id"], a["accepted"], a["score"], a["author"]) for a in question["answers"]] == [
        ("2", True, 7, "ed"),
        ("1", False, 10, "joker"),
    ]
    assert "```\n:q!\n```" in question["answers"][0]["text"]


async def test_github_repository_and_rendered_markdown(site: pagelens.Page) -> None:
    await site.playwright_page.evaluate("history.replaceState(null, '', '/python/cpython/issues')")
    repo, readme, outside = await run(
        site,
        GITHUB,
        "github",
        "[githubRepo(), githubRenderedMarkdown(), (history.replaceState(null, '', '/settings/profile'), githubRepo())]",
    )
    assert repo == {"owner": "python", "repo": "cpython"}
    assert readme == "cpython\n\nThe Python programming language."
    assert outside is None
