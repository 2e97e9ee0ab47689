"""Main content extraction as users read it beyond news articles: documentation pages
(Sphinx, a GitHub README) with code, loose and nested lists and tables, tables with
spans and pipes, superscripts, and cuts at max_characters that fall in a code block.
The pages are in tests/fixtures/extraction_qa, marked up as those sites mark them up."""

from __future__ import annotations

import pagelens
from pagelens.extraction.render import render, truncate

BASE = "https://docs.example.org/guide/page.html"


async def _extract(page: pagelens.Page, fixtures_url: str, name: str, **options: object) -> pagelens.Extraction:
    await page.goto(f"{fixtures_url}extraction_qa/{name}")
    return await pagelens.extract(page, **options)  # type: ignore[arg-type]


async def test_a_sphinx_page_keeps_its_nested_list_and_names_its_code(page: pagelens.Page, fixtures_url: str) -> None:
    result = await _extract(page, fixtures_url, "sphinx_docs.html")
    markdown = result.content
    # readability-lxml scored a list of short paragraphs below zero and dropped it.
    assert "2. Edit the file:\n\n   - set `retry_policy`;\n   - set `base_delay` in seconds.\n3. Start" in markdown
    # The language Sphinx names on the listing's wrapper, kept on the fence.
    assert "```toml\n[broker]\n" in markdown
    assert '```python\nfrom tasklane import Scheduler\n\ndef make_scheduler(path):\n    """Build' in markdown
    assert "```console\n$ tasklane config set queues.emails.retry_policy jitter\n```" in markdown
    assert "| `exponential` | `base_delay * 2**n` | flaky networks |" in markdown
    assert "Installation" not in markdown and "Previous" not in markdown and "© Copyright" not in markdown
    # The heading's permalink mark is not the title's.
    assert result.title == "Configuring the scheduler"


async def test_a_github_readme_keeps_its_one_line_command_and_loose_list(
    page: pagelens.Page, fixtures_url: str
) -> None:
    markdown = (await _extract(page, fixtures_url, "github_readme.html")).content
    # A one-line listing was shorter than the text readability-lxml wants of a block,
    # and the headings around it went with it.
    assert "## Installation\n\n```shell\npip install inkpot\n```\n\n## Usage" in markdown
    assert "- **strict**: fail on a placeholder with no value.\n- **env**:" in markdown
    # A pipe inside a cell, in code or not, does not split it.
    assert "| `default` | `{{ port \\| default(80) }}` | `80` when `port` is unset |" in markdown
    for line in (line for line in markdown.splitlines() if line.startswith("| ")):
        assert line.replace("\\|", "").count("|") == 4, line
    assert "Sign in" not in markdown and "Fork 12" not in markdown and "© 2024 GitHub" not in markdown


async def test_a_qa_thread_keeps_every_answer_with_its_code(page: pagelens.Page, fixtures_url: str) -> None:
    markdown = (await _extract(page, fixtures_url, "qa_thread.html")).content
    assert "```python\nlines = (line.strip() for line in open" in markdown
    assert "A generator can only be iterated **once**." in markdown
    assert "```python\ndef read_lines(path):\n    with open(path) as f:\n        for line in f:" in markdown
    assert "How do I reset a generator?" not in markdown


async def test_table_spans_give_every_row_one_cell_per_column(browser: pagelens.Browser) -> None:
    html = """<main><h1>Timetable</h1>
    <p>The timetable of the weekday service, valid from the first of May until further notice.</p>
    <table><tr><th rowspan=2>Stop</th><th colspan=2>Morning</th></tr><tr><th>First</th><th>Last</th></tr>
    <tr><td rowspan=2>North Gate</td><td>06:10</td><td>11:40</td></tr>
    <tr><td colspan=2>every 20 minutes</td></tr>
    <tr><td>Harbour | Pier</td><td>06:30</td><td>12:00</td></tr></table></main>"""
    markdown = (await pagelens.extract(html, base_url=BASE, browser=browser)).content
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    assert rows == [
        "| Stop | Morning | |",
        "| --- | --- | --- |",
        "|  | First | Last |",
        "| North Gate | 06:10 | 11:40 |",
        "|  | every 20 minutes | |",
        "| Harbour \\| Pier | 06:30 | 12:00 |",
    ]


def test_superscripts_and_subscripts_keep_their_meaning() -> None:
    markdown = render("<p>H<sub>2</sub>O boils; E = mc<sup>2</sup>.</p>", "markdown")
    assert markdown == "H<sub>2</sub>O boils; E = mc<sup>2</sup>."


def test_code_holding_a_fence_gets_a_longer_one() -> None:
    markdown = render('<pre class="language-markdown">Text\n```\nquoted code\n```</pre>', "markdown")
    assert markdown == "````markdown\nText\n```\nquoted code\n```\n````"


def test_a_cut_in_a_code_block_ends_before_it_or_closes_it() -> None:
    code = "\n".join(f"    total += {i}" for i in range(40))
    markdown = f"{'Intro sentence. ' * 20}\n\n```python\ndef add():\n\n{code}\n```\n\nAfter."
    before, truncated = truncate(markdown, 420, "markdown")
    assert truncated and before == ("Intro sentence. " * 20).strip()
    # A block too long to leave out whole is cut at a line, and closed.
    short_intro = f"Intro.\n\n```python\ndef add():\n\n{code}\n```"
    cut, truncated = truncate(short_intro, 300, "markdown")
    assert truncated and len(cut) <= 300
    assert cut.startswith("Intro.\n\n```python\ndef add():\n\n    total += 0\n") and cut.endswith("\n```")
    assert cut.count("```") == 2


async def test_max_characters_never_leaves_a_code_block_open(page: pagelens.Page, fixtures_url: str) -> None:
    whole = (await _extract(page, fixtures_url, "sphinx_docs.html")).content
    start = whole.index("```python")
    inside = whole.index("\n\n", start) + 10  # past the blank line in the listing
    result = await pagelens.extract(page, max_characters=inside)
    assert result.truncated
    assert result.content.count("```") % 2 == 0
