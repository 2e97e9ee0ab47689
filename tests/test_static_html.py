"""Static HTML: ``capture_html`` renders a string with scripts disabled and the network
blocked, then runs the same engine as on a live page."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import pagelens
from pagelens.browser.static import without_network_hints
from pagelens.engine.models import VIEW_SPECS, VIEWS, FullSummary, PageModel, SkeletonView
from pagelens.errors import InvalidRequestError
from tests.network_support import ConnectionCounter

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def counter() -> Iterator[ConnectionCounter]:
    listener = ConnectionCounter()
    yield listener
    listener.close()


def leaky_page(origin: str) -> str:
    """A page that would reach `origin` in every way a document can without script."""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Static page</title>
<meta http-equiv="refresh" content="0; url=elsewhere.html">
<link rel="stylesheet" href="style.css">
<link rel="preconnect" href="{origin}">
<link rel="dns-prefetch" href="{origin}">
<link rel="prefetch" href="next.html">
<link rel="preload" href="font.woff2" as="font" crossorigin>
<link rel="icon" href="favicon.ico">
<link rel="manifest" href="app.webmanifest">
<style>@import url(imported.css); body {{ background: url(background.png); }}
@font-face {{ font-family: X; src: url(x.woff2); }} h1 {{ font-family: X; }}</style>
<script src="app.js"></script>
<base target="_self">
</head><body>
<header><nav aria-label="Docs">
  <a href="docs/guide.html">Guide</a> <a href="/root.html">Root</a> <a href="{origin}/absolute">Absolute</a>
</nav></header>
<main>
<h1>Static page</h1>
<p>Rendered from a string, with no script and no network.</p>
<img src="picture.png" alt="Picture" width="20" height="20">
<img srcset="small.png 1x, large.png 2x" alt="Srcset" width="20" height="20">
<picture><source srcset="pic.webp" type="image/webp"><img src="pic.png" alt="Pic" width="20" height="20"></picture>
<iframe src="frame.html" title="Framed" width="100" height="50"></iframe>
<video src="movie.mp4" poster="poster.png" width="40" height="30"></video>
<audio src="sound.mp3" preload="auto"></audio>
<object data="object.bin" width="10" height="10"></object>
<embed src="embed.bin" width="10" height="10">
<form action="submit"><input name="q" aria-label="Query"><input type="image" src="go.png" alt="Go">
<button>Search</button></form>
<a href="ping.html" ping="{origin}/ping">Pinged</a>
<script>document.write('<button>Written by script</button>')</script>
<script>document.body.insertAdjacentHTML('beforeend', '<button>Added by script</button>')</script>
</main>
</body></html>"""


async def test_scripts_off_links_resolved_nothing_fetched(
    browser: pagelens.Browser, counter: ConnectionCounter
) -> None:
    origin = f"http://127.0.0.1:{counter.port}"
    base_url = f"{origin}/app/page.html"
    html = leaky_page(origin)
    views = {}
    for mode in VIEWS:
        views[mode] = await browser.capture_html(html, base_url, mode)
        assert isinstance(views[mode], VIEW_SPECS[mode].model)
    await asyncio.sleep(0.5)  # a late refresh, prefetch or ping would have connected by now
    assert counter.connections == 0

    model = views["interaction"]
    assert isinstance(model, PageModel)
    found = [c.name for c in model.controls]
    assert {"Guide", "Root", "Absolute", "Query", "Go", "Search", "Pinged"} <= set(found)
    assert "Written by script" not in found and "Added by script" not in found
    assert model.url == base_url and model.title == "Static page"  # the refresh never happened

    full = views["full"]
    assert isinstance(full, FullSummary)
    assert {(link.text, link.href) for link in full.nav_links} == {
        ("Guide", f"{origin}/app/docs/guide.html"),
        ("Root", f"{origin}/root.html"),
        ("Absolute", f"{origin}/absolute"),
    }
    assert full.forms[0].action == f"{origin}/app/submit"
    skeleton = views["skeleton"]
    assert isinstance(skeleton, SkeletonView)
    assert 'href="/app/docs/guide.html"' in skeleton.html  # resolved; its own site's links by path


async def test_skeleton_links(browser: pagelens.Browser) -> None:
    """Links within the page's own site are written from their path, others whole; an SVG
    link (whose `href` is no string) is resolved like any other."""
    html = """<nav><a href="guide.html">Guide</a> <a href="https://elsewhere.example/x?y=1">Away</a>
      <a href="//cdn.example.org/lib">Protocol-relative</a> <a href="#top">Top</a>
      <svg width="80" height="20"><a href="svg-target.html"><text x="0" y="15">Drawn</text></a></svg></nav>"""
    skeleton = await browser.capture_html(html, "https://docs.example.com/app/page.html", "skeleton")
    assert isinstance(skeleton, SkeletonView)
    hrefs = re.findall(r'href="([^"]*)">([^<]*)<', skeleton.html)
    assert hrefs == [
        ("/app/guide.html", "Guide"),
        ("https://elsewhere.example/x?y=1", "Away"),
        ("https://cdn.example.org/lib", "Protocol-relative"),
        ("/app/page.html#top", "Top"),
        ("/app/svg-target.html", "Drawn"),
    ]


async def test_the_same_engine_as_a_live_page(browser: pagelens.Browser, fixtures_url: str) -> None:
    """A page without script gives the same views from a string as from a server. (Each
    view on a fresh page: ids are numbered in the order views first show elements.)"""
    path = "robustness/malformed.html"
    html = (FIXTURES / path).read_text(encoding="utf-8")
    for mode in VIEWS:
        page = await browser.new_page()
        try:
            await page.goto(f"{fixtures_url}{path}")
            static = await browser.capture_html(html, f"{fixtures_url}{path}", mode)
            live = await page.snapshot(mode)
            assert static.model_dump() == live.model_dump(), mode
        finally:
            await page.close()
    model = await browser.capture_html(html, None, "interaction")
    assert isinstance(model, PageModel) and "Search the site" in [c.name for c in model.controls]


async def test_base_urls(browser: pagelens.Browser) -> None:
    html = '<title>T</title><nav><a href="guide.html">Guide</a></nav>'
    cases = {
        None: "http://static.pagelens.invalid/guide.html",
        "https://example.org": "https://example.org/guide.html",  # no path, no slash
        "https://example.org/docs/": "https://example.org/docs/guide.html",
        "https://example.org/docs/page?x=1#part": "https://example.org/docs/guide.html",
    }
    for base_url, expected in cases.items():
        full = await browser.capture_html(html, base_url, "full")
        assert isinstance(full, FullSummary)
        assert [link.href for link in full.nav_links] == [expected], base_url
    # The document's own <base> still counts, relative to base_url.
    own_base = '<base href="sub/">' + html
    full = await browser.capture_html(own_base, "https://example.org/docs/", "full")
    assert isinstance(full, FullSummary)
    assert [link.href for link in full.nav_links] == ["https://example.org/docs/sub/guide.html"]


def test_network_hints_are_removed_and_nothing_else() -> None:
    html = (
        '<meta charset="utf-8"><meta http-equiv="Refresh" content="0;url=x">'
        '<link rel="stylesheet" href="a.css"><link href="b" rel="preconnect">'
        "<link rel='shortcut icon' href='i.ico'><link rel=dns-prefetch href=//x>"
        '<link rel="preload" href="f.woff2" as="font" title="a > b"><p>Keep <linker> text</p>'
    )
    assert without_network_hints(html) == (
        '<meta charset="utf-8"><link rel="stylesheet" href="a.css"><p>Keep <linker> text</p>'
    )


@pytest.mark.parametrize(
    "base_url",
    [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "about:blank",
        "data:text/html,x",
        "not a url",
        "",
    ],
)
async def test_bad_base_url_is_refused(browser: pagelens.Browser, base_url: str) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        await browser.capture_html("<button>x</button>", base_url, "interaction")
    assert caught.value.code == "invalid_request" and "base_url" in caught.value.message


async def test_bad_mode_and_html_are_refused_before_any_work(browser: pagelens.Browser) -> None:
    started = time.monotonic()
    with pytest.raises(InvalidRequestError, match="view"):
        await browser.capture_html("<p>x</p>", None, "everything")
    with pytest.raises(InvalidRequestError, match="html"):
        await browser.capture_html(b"<p>x</p>", None, "compact")  # type: ignore[arg-type]
    with pytest.raises(InvalidRequestError, match="view"):
        await pagelens.capture_html("<p>x</p>", mode="everything")  # no browser is launched
    assert time.monotonic() - started < 1.0


async def test_module_level_capture_html() -> None:
    view = await pagelens.capture_html(
        "<title>Alone</title><button>Only button</button><script>document.title = 'changed'</script>",
        "https://example.org/",
        "interaction",
    )
    assert isinstance(view, PageModel)
    assert view.title == "Alone"
    assert [c.name for c in view.controls] == ["Only button"]
